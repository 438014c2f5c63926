/**
 * General cues for subscription/SaaS invoices (issue #15 items 2-4): the customer side after "Bill to"/"Billing
 * contact", the seller from its legal line or footer (never the customer), a printed amount due over arithmetic,
 * "Total for this invoice" over per-service charges, billing-period and next-billing dates not the issue date.
 * Documents are generated here (a text layer of rows), not taken from any corpus.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document } from "../../src/document/model.js";
import { invoiceFields } from "../helpers/invoice-fields.js";
import { type ReceiptRow, receipt } from "../helpers/receipt-document.js";
import { line, scan } from "../helpers/scanned-page.js";

/** A text-layer page of rows (no OCR doubt). */
const page = (rows: ReceiptRow[]): Document => {
  const document = receipt(rows, 1);
  for (const p of document.pages) {
    p.source = "text";
    for (const w of p.words) w.source = "text";
  }
  return { ...document, type: "pdf" };
};

describe("parties on invoices that open with the bill-to block", () => {
  it("takes the seller from its legal line in the footer, the customer from the bill-to block", () => {
    const got = invoiceFields(
      page([
        [["INVOICE", 20]],
        [
          ["Bill to", 20],
          ["Invoice number 2024-0117", 220],
        ],
        [
          ["Harbour Dental Group", 20],
          ["Date of issue March 3, 2024", 220],
        ],
        [["14 Quay Street", 20]],
        [["Sydney NSW 2000", 20]],
        [
          ["Professional plan", 20],
          ["$90.00", 320],
        ],
        [
          ["Total", 20],
          ["$99.00", 320],
        ],
        [
          ["Amount due", 20],
          ["$99.00", 320],
        ],
        [["Questions? billing@lumenworks.io", 20]],
        [["Lumenworks Pty Ltd, ABN 51 824 753 556, Level 2 8 Pitt St Sydney", 20]],
      ]),
    );
    assert.equal(got.get("customer.name"), "Harbour Dental Group");
    assert.equal(got.get("supplier.name"), "Lumenworks Pty Ltd");
  });

  it("reads the customer after 'Billing contact' and never answers the customer as the supplier", () => {
    const got = invoiceFields(
      page([
        [["Receipt for invoice 8812", 20]],
        [
          ["Billing contact", 20],
          ["Invoice date 2024-05-02", 220],
        ],
        [["Marta Jensen Design", 20]],
        [["marta@jensen.example", 20]],
        [
          ["Total", 20],
          ["$12.00", 320],
        ],
        [
          ["Amount due", 20],
          ["$12.00", 320],
        ],
      ]),
    );
    assert.equal(got.get("customer.name"), "Marta Jensen Design");
    assert.notEqual(got.get("supplier.name"), "Marta Jensen Design");
  });
});

describe("a seller named only by its domain", () => {
  const rows = (footer: string): ReceiptRow[] => [
    [["Invoice", 20]],
    [
      ["Billed to", 20],
      ["Invoice number 4410", 220],
    ],
    [
      ["Harbour Dental Group", 20],
      ["Date of issue 2024-03-03", 220],
    ],
    [["14 Quay Street", 20]],
    [["Sydney NSW 2000", 20]],
    [["accounts@harbourdental.example", 20]],
    [
      ["Delivery charge", 20],
      ["$9.00", 320],
    ],
    [
      ["Total", 20],
      ["$99.00", 320],
    ],
    [[footer, 20]],
  ];

  it("answers the domain of the seller's e-mail, not a line item or the customer's domain", () => {
    const got = invoiceFields(page(rows("support@lumenworks.io")));
    assert.equal(got.get("supplier.name"), "lumenworks.io");
    assert.equal(got.get("customer.name"), "Harbour Dental Group");
  });

  it("takes the printed name the domain spells, with its legal form", () => {
    const got = invoiceFields(
      page([...rows("www.lumenworks.io"), [["Lumen Works GmbH & Co. KG - Hauptstr. 4 - Berlin", 20]]]),
    );
    assert.equal(got.get("supplier.name"), "Lumen Works GmbH & Co. KG");
  });

  it("does not cut a line to the word the domain spells when no legal form closes it", () => {
    const got = invoiceFields(page([...rows("www.lumenworks.io"), [["Lumenworks trade name", 20]]]));
    assert.equal(got.get("supplier.name"), "lumenworks.io");
  });
});

describe("totals and amounts due", () => {
  it("answers the printed amount due of a paid invoice, not the arithmetic", () => {
    const got = invoiceFields(
      page([
        [
          ["Invoice 5531", 20],
          ["Date 2024-02-01", 220],
        ],
        [["$144.00 due February 1, 2024", 20]],
        [
          ["Team plan (12 seats)", 20],
          ["$144.00", 320],
        ],
        [
          ["Subtotal", 20],
          ["$144.00", 320],
        ],
        [
          ["Total", 20],
          ["$144.00", 320],
        ],
        [
          ["Amount paid", 20],
          ["$144.00", 320],
        ],
        [
          ["Amount due", 20],
          ["$0.00", 320],
        ],
      ]),
    );
    assert.equal(got.get("invoice.amountDue"), "0.00");
    assert.equal(got.get("invoice.total"), "144.00");
  });

  it("does not take a payment line as the subtotal", () => {
    const got = invoiceFields(
      page([
        [
          ["Invoice 5532", 20],
          ["Date 2024-02-01", 220],
        ],
        [
          ["Team plan (12 seats)", 20],
          ["$144.00", 320],
        ],
        [
          ["Total", 20],
          ["$144.00", 320],
        ],
        [
          ["Payments", 20],
          ["($144.00)", 320],
        ],
        [
          ["Amount due", 20],
          ["$0.00", 320],
        ],
      ]),
    );
    assert.notEqual(got.get("invoice.subtotal"), "-144.00");
    assert.equal(got.get("invoice.amountDue"), "0.00");
  });

  it("prefers 'Total for this invoice' over the per-service charges below it", () => {
    const got = invoiceFields(
      page([
        [
          ["Invoice 77-2", 20],
          ["Date 2024-04-01", 220],
        ],
        [
          ["Total for this invoice", 20],
          ["$4.11", 320],
        ],
        [["Summary by service", 20]],
        [
          ["Compute total", 20],
          ["$4.10", 320],
        ],
        [
          ["Storage total", 20],
          ["$0.01", 320],
        ],
      ]),
    );
    assert.equal(got.get("invoice.total"), "4.11");
  });
});

describe("dates of subscriptions", () => {
  it("does not take the billing period or the next billing date as the issue date", () => {
    const got = invoiceFields(
      page([
        [["Northwind Cloud", 20]],
        [["Billing period Feb 1, 2024 - Feb 29, 2024", 20]],
        [["Invoice INV-3301", 20]],
        [["March 1, 2024", 20]],
        [
          ["Pro plan", 20],
          ["$20.00", 320],
        ],
        [
          ["Total", 20],
          ["$20.00", 320],
        ],
        [["Next billing date April 1, 2024", 20]],
      ]),
    );
    assert.equal(got.get("invoice.date"), "2024-03-01");
    assert.notEqual(got.get("invoice.dueDate"), "2024-04-01");
  });
});

describe("a delivery-address label above the customer's block", () => {
  it("is not the customer's name", () => {
    const got = invoiceFields(
      page([
        [["Brightwater Mills Ltd - 4 Canal Row - Leeds LS1 4AB", 20]],
        [["VAT GB 123 4567 89 - Company No 0123456", 20]],
        [["Invoice INV-2207", 20]],
        [["Delivery address", 20]],
        [["Northwind Traders", 20]],
        [["12 Harbour Road", 20]],
        [["Hull HU1 2AA", 20]],
        [["United Kingdom", 20]],
        [
          ["Invoice date", 20],
          ["03/04/2024", 160],
        ],
        [
          ["Widgets", 20],
          ["£90.00", 320],
        ],
        [
          ["Total", 20],
          ["£90.00", 320],
        ],
        [["Thank you for your business", 20]],
        [["Payment within 30 days", 20]],
        [["Page 1 of 1", 20]],
      ]),
    );
    assert.equal(got.get("customer.name"), "Northwind Traders");
  });
});

describe("SaaS layouts in other languages", () => {
  it("prefers 'Total de cette facture' over the per-service totals below it", () => {
    const got = invoiceFields(
      page([
        [["Facture", 20]],
        [
          ["Client", 20],
          ["Numéro de facture 4214597", 220],
        ],
        [["Hugo Bernard", 20]],
        [["86 place de la République", 20]],
        [["13001 Marseille", 20]],
        [
          ["Sous-total", 200],
          ["15 618,06 €", 310],
        ],
        [
          ["TVA (20%)", 200],
          ["3 123,61 €", 310],
        ],
        [
          ["Total de cette facture", 150],
          ["18 741,67 €", 310],
        ],
        [["Récapitulatif par service", 20]],
        [
          ["Maintenance site web total", 20],
          ["2 347,32 €", 310],
        ],
        [
          ["Frais de déplacement total", 20],
          ["1 022,96 €", 310],
        ],
        [
          ["Gestion de projet total", 20],
          ["99,00 €", 310],
        ],
      ]),
    );
    assert.equal(got.get("invoice.total"), "18741.67");
  });

  it("does not take the line item under a billing period as the seller's name", () => {
    const got = invoiceFields(
      page([
        [["Facture", 20]],
        [
          ["Client", 20],
          ["Numéro de facture 4214597", 220],
        ],
        [["Hugo Bernard", 20]],
        [["86 place de la République", 20]],
        [["13001 Marseille", 20]],
        [["Période de facturation 2026-05-26 - 2026-06-25", 20]],
        [
          ["Main d'œuvre installation", 20],
          ["898,74 €", 310],
        ],
        [["2026-05-26 - 2026-06-25", 20]],
        [
          ["Total", 200],
          ["898,74 €", 310],
        ],
        [],
        [],
        [],
        [],
        [],
        [],
        [],
        [],
        [],
        [],
        [],
        [["support@batimentmoreau.io", 20]],
      ]),
    );
    assert.notEqual(got.get("supplier.name"), "Main d'œuvre installation");
  });
});

describe("a payment receipt's centred title naming its issuer", () => {
  it("reads the issuer's legal form wrapped onto a centred line of its own as the end of its name", () => {
    const got = invoiceFields(
      scan([
        line("Zahlungsbeleg von Sonnenschein Software", 514, 200, 38),
        line("KG", 833, 250, 38),
        line("Belegnummer 6329298218", 680, 330),
        [...line("Bezahlter Betrag", 250, 400), ...line("Bezahlt am", 660, 400), ...line("Zahlungsart", 1090, 400)],
        [...line("458,13 €", 250, 430), ...line("15. Juni 2026", 660, 430), ...line("Mastercard – 2455", 1090, 430)],
        [...line("Backup-Speicher", 270, 600), ...line("384,98 €", 1310, 600)],
        [...line("USt. (19%)", 270, 650), ...line("73,15 €", 1320, 650)],
        [...line("Rechnungsbetrag", 270, 700), ...line("458,13 €", 1310, 700)],
        line("Lindner Elektro e.K.", 250, 780),
        line("lindner@lindnerelektro.example", 250, 810),
        line("Sonnenschein Software KG, Bahnhofstraße 12, 91825 Stuttgart, Deutschland", 85, 2270, 18),
      ]),
    );
    assert.equal(got.get("supplier.name"), "Sonnenschein Software KG");
  });
});
