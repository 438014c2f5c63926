import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readInvoiceXml } from "../../src/einvoice/index.js";
import { InvalidXml } from "../../src/einvoice/xml.js";
import { ciiXml, FACTS, ublXml } from "../helpers/einvoice-fixtures.js";

const EXPECTED: Record<string, string> = {
  "invoice.number": "INV-2024-0042",
  "invoice.date": "2024-03-15",
  "invoice.dueDate": "2024-04-14",
  "invoice.purchaseOrderNo": "PO-991",
  "invoice.currency": "EUR",
  "invoice.subtotal": "1037.44",
  "invoice.tax": "197.12",
  "invoice.total": "1234.56",
  "invoice.amountDue": "1234.56",
  "supplier.name": "ACME Supplies Limited",
  "supplier.taxId": "DE123456789",
  "customer.name": "Northwind Traders",
  "payment.iban": "DE89370400440532013000",
  "payment.reference": "INV-2024-0042",
};

function assertFields(fields: ReadonlyMap<string, string>, expected: Record<string, string>): void {
  for (const [name, value] of Object.entries(expected)) assert.equal(fields.get(name), value, name);
}

describe("readInvoiceXml: CII", () => {
  const profiles = [
    "urn:factur-x.eu:1p0:minimum",
    "urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic",
    "urn:cen.eu:en16931:2017",
    "urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended",
    "urn:cen.eu:en16931:2017#compliant#urn:xoev-de:kosit:standard:xrechnung_2.3",
  ];
  for (const guideline of profiles) {
    it(`reads Factur-X / ZUGFeRD 2 (${guideline.split(":").pop()})`, () => {
      const invoice = readInvoiceXml(ciiXml(FACTS, 2, guideline));
      assert.equal(invoice.syntax, "cii");
      assertFields(invoice.fields, { ...EXPECTED, "payment.bic": "COBADEFFXXX", "document.type": "invoice" });
      assert.equal(invoice.fields.get("supplier.address"), "Hauptstr. 1, 10115 Berlin, DE");
    });
  }

  it("reads ZUGFeRD 1.0 CrossIndustryDocument, with its own element names", () => {
    const invoice = readInvoiceXml(ciiXml(FACTS, 1, "urn:ferd:CrossIndustryDocument:invoice:1p0:comfort"));
    assert.equal(invoice.syntax, "cii-zugferd1");
    assertFields(invoice.fields, EXPECTED);
    assert.deepEqual(invoice.lines[0], {
      description: "Office chairs",
      quantity: "4",
      unit: "C62",
      unitPrice: "210.00",
      amount: "840.00",
      taxRate: "19.00",
      productCode: "CH-4",
      date: null,
    });
  });

  it("gives line items as plain decimals, tax rates with two decimals", () => {
    const invoice = readInvoiceXml(ciiXml(FACTS));
    assert.deepEqual(
      invoice.lines.map((l) => [l.description, l.quantity, l.unitPrice, l.amount, l.taxRate, l.productCode]),
      [
        ["Office chairs", "4", "210.00", "840.00", "19.00", "CH-4"],
        ["Standing desk", "1", "197.44", "197.44", "19.00", null],
      ],
    );
  });

  it("gives a credit note's (381) amounts negative", () => {
    const invoice = readInvoiceXml(ciiXml({ ...FACTS, typeCode: "381" }));
    assert.equal(invoice.credit, true);
    assertFields(invoice.fields, {
      "invoice.total": "-1234.56",
      "invoice.subtotal": "-1037.44",
      "invoice.tax": "-197.12",
      "invoice.amountDue": "-1234.56",
      "document.type": "credit_note",
    });
  });
});

describe("readInvoiceXml: UBL 2.1", () => {
  it("reads an Invoice", () => {
    const invoice = readInvoiceXml(ublXml(FACTS));
    assert.equal(invoice.syntax, "ubl");
    assertFields(invoice.fields, { ...EXPECTED, "payment.bic": "NWBKGB2L" });
    assert.equal(invoice.fields.get("supplier.address"), "Main Street 5, EC1A 1BB London, GB");
    assert.equal(invoice.lines.length, 2);
  });

  it("reads a CreditNote in a non-EUR currency, negative", () => {
    const invoice = readInvoiceXml(ublXml({ ...FACTS, currency: "GBP", due: undefined }, "CreditNote"));
    assert.equal(invoice.typeCode, "381");
    assertFields(invoice.fields, {
      "invoice.currency": "GBP",
      "invoice.total": "-1234.56",
      "invoice.tax": "-197.12",
      "document.type": "credit_note",
    });
    assert.equal(invoice.lines[0]?.quantity, "4");
  });
});

describe("readInvoiceXml: refused input", () => {
  const refused = (xml: string) => assert.throws(() => readInvoiceXml(xml), InvalidXml);

  it("refuses a billion-laughs entity bomb without expanding it", () => {
    const defs = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join("");
    refused(
      `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY l0 "lol">${defs}]><rsm:CrossIndustryInvoice>&l9;</rsm:CrossIndustryInvoice>`,
    );
  });

  it("refuses an external entity and any DTD", () => {
    refused(
      ciiXml(FACTS)
        .replace("<rsm:", '<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><rsm:')
        .replace("ACME Supplies Limited", "&xxe;"),
    );
    refused(`<?xml version="1.0"?><!DOCTYPE Invoice SYSTEM "http://127.0.0.1/x.dtd">${ublXml(FACTS).split("?>")[1]}`);
  });

  it("leaves undeclared entities unexpanded and decodes XML's own escapes", () => {
    const invoice = readInvoiceXml(ciiXml({ ...FACTS, seller: "Müller &amp; S&#246;hne &unknown;" }));
    assert.equal(invoice.fields.get("supplier.name"), "Müller & Söhne &unknown;");
  });

  it("refuses malformed XML and XML that is no invoice", () => {
    refused(ciiXml(FACTS).replace("</rsm:CrossIndustryInvoice>", ""));
    refused('<?xml version="1.0"?><order><id>1</id></order>');
  });
});
