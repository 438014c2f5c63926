import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { resolveFields } from "../../src/catalog/lookup.js";
import { applyEInvoice } from "../../src/einvoice/index.js";
import { extractResult } from "../../src/extract/index.js";
import { ingest } from "../../src/ingest/index.js";
import { readPdfAttachments } from "../../src/ingest/pdf-attachments.js";
import { ciiXml, einvoicePdf, FACTS, INVOICE_PAGE, ublXml } from "../helpers/einvoice-fixtures.js";

const FIELDS = resolveFields({ products: ["invoices"], fieldSets: [] });

/** What the worker and `docsift extract` run: ingest, page extraction, attachments, merge. */
async function run(bytes: Uint8Array) {
  const document = await ingest(bytes, { concurrency: 1 });
  const attachments = await readPdfAttachments(bytes);
  return applyEInvoice(document, attachments, extractResult(document, FIELDS), {});
}

const field = (fields: Awaited<ReturnType<typeof run>>["fields"], name: string) => {
  const f = fields.find((x) => x.name === name);
  assert.ok(f, name);
  return f;
};

describe("e-invoice PDFs", () => {
  it("finds the attachment of a PDF made with pdf-lib", async () => {
    const xml = ciiXml(FACTS);
    const attachments = await readPdfAttachments(await einvoicePdf(INVOICE_PAGE, xml));
    assert.equal(attachments.length, 1, "the name tree and the AF array hold one file");
    assert.equal(attachments[0]?.name, "factur-x.xml");
    assert.equal(new TextDecoder().decode(attachments[0]?.bytes), xml);
  });

  for (const [label, xml] of [
    ["Factur-X", ciiXml(FACTS)],
    ["ZUGFeRD 1", ciiXml(FACTS, 1)],
    ["XRechnung CII", ciiXml(FACTS, 2, "urn:cen.eu:en16931:2017#compliant#urn:xoev-de:kosit:standard:xrechnung_2.3")],
    ["UBL", ublXml(FACTS)],
  ] as const) {
    it(`${label}: the XML's values, confidence 1, source einvoice, boxed where the page prints them`, async () => {
      const { fields, warnings } = await run(
        await einvoicePdf(INVOICE_PAGE, xml, label === "UBL" ? "xrechnung.xml" : "factur-x.xml"),
      );
      assert.deepEqual(warnings, []);
      const total = field(fields, "invoice.total");
      assert.equal(total.value, "1234.56");
      assert.equal(total.confidence, 1);
      assert.equal(total.source, "einvoice");
      assert.ok(total.boundingBox, "1.234,56 is on the page");
      assert.ok(field(fields, "invoice.date").boundingBox, "15.03.2024 is on the page");
      assert.equal(field(fields, "invoice.number").boundingBox?.tokenIds.length, 1);
      assert.equal(field(fields, "supplier.taxId").value, "DE123456789");
      assert.equal(field(fields, "invoice.dueDate").boundingBox, null, "the due date is not printed");
      assert.equal(field(fields, "payment.bsb").source, undefined, "a field the XML lacks keeps the page reading");
    });
  }

  it("a credit note gives negative amounts, a non-EUR currency its own code", async () => {
    const { fields } = await run(await einvoicePdf(INVOICE_PAGE, ublXml({ ...FACTS, currency: "CHF" }, "CreditNote")));
    assert.equal(field(fields, "invoice.total").value, "-1234.56");
    assert.equal(field(fields, "invoice.currency").value, "CHF");
  });

  it("an XML total the page contradicts: the XML's value and an einvoice_mismatch warning naming both", async () => {
    const { fields, warnings } = await run(await einvoicePdf(INVOICE_PAGE, ciiXml({ ...FACTS, total: "1300.00" })));
    assert.equal(field(fields, "invoice.total").value, "1300.00");
    assert.equal(field(fields, "invoice.total").boundingBox, null);
    const mismatch = warnings.find((w) => w.field === "invoice.total");
    assert.equal(mismatch?.code, "einvoice_mismatch");
    assert.match(mismatch?.message ?? "", /1234\.56.*1300\.00/);
  });

  for (const [label, xml] of [
    ["malformed XML", ciiXml(FACTS).slice(0, 500)],
    [
      "a billion-laughs bomb",
      `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><r>&b;</r>`,
    ],
    [
      "an external entity",
      ciiXml(FACTS).replace("<rsm:", '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><rsm:'),
    ],
  ] as const) {
    it(`${label}: page extraction stands, with an einvoice_invalid warning`, async () => {
      const { fields, warnings } = await run(await einvoicePdf(INVOICE_PAGE, xml));
      assert.deepEqual(
        warnings.map((w) => w.code),
        ["einvoice_invalid"],
      );
      assert.ok(fields.every((f) => f.source === undefined));
      assert.equal(field(fields, "invoice.number").value, "INV-2024-0042");
    });
  }

  it("a PDF without attachments is read from its pages alone", async () => {
    const { fields, warnings } = await run(await einvoicePdf(INVOICE_PAGE, null));
    assert.deepEqual(warnings, []);
    assert.ok(fields.every((f) => f.source === undefined));
  });
});

const SHARED = join(import.meta.dirname, "../../../shared/data");

describe("e-invoice corpora: the embedded XML gives every labelled field", { skip: !existsSync(SHARED) }, () => {
  for (const corpus of ["invoices-dev", "einvoices-dev"]) {
    it(corpus, async () => {
      const labels = (await readFile(join(SHARED, corpus, "labels.jsonl"), "utf8"))
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { file: string; fields: Record<string, unknown> });
      const { readEInvoice } = await import("../../src/einvoice/index.js");
      const wrong: string[] = [];
      for (const label of labels) {
        const reading = readEInvoice(await readPdfAttachments(await readFile(join(SHARED, corpus, label.file))));
        assert.equal(reading.kind, "invoice", label.file);
        if (reading.kind !== "invoice") continue;
        for (const [name, expected] of Object.entries(label.fields)) {
          if (typeof expected !== "string") continue;
          const got = reading.invoice.fields.get(name) ?? null;
          const same = (a: string, b: string) => a.replace(/\s+/g, "") === b.replace(/\s+/g, "");
          // Credit notes are negative as the catalogue says; one invoices-dev label keeps its XML's sign.
          if (got === null || !(same(expected, got) || (reading.invoice.credit && same(`-${expected}`, got))))
            wrong.push(`${label.file} ${name}: ${expected} != ${got}`);
        }
      }
      assert.deepEqual(wrong, []);
    });
  }
});
