import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { resolveFields } from "../../src/catalog/lookup.js";
import type { Document, Word } from "../../src/document/model.js";
import type { ExtractedField } from "../../src/domain/result.js";
import { extract } from "../../src/extract/index.js";
import { ingest } from "../../src/ingest/index.js";
import { makeTextPdf, type TextLine } from "../helpers/pdf-fixtures.js";

/** An English invoice laid out like a real one: letterhead, address window, header facts, totals, bank details. */
const INVOICE: TextLine[] = [
  { text: "Harbour Freight Supplies Ltd", x: 50, y: 790, size: 18 },
  { text: "12 Wharf Road, Bristol BS1 4RN", x: 50, y: 770, size: 10 },
  { text: "VAT No: GB123456782", x: 50, y: 756, size: 10 },
  { text: "TAX INVOICE", x: 400, y: 790, size: 16 },
  { text: "Bill To:", x: 50, y: 700, size: 11 },
  { text: "Northwind Traders GmbH", x: 50, y: 685, size: 11 },
  { text: "Hauptstrasse 5", x: 50, y: 671, size: 11 },
  { text: "10115 Berlin", x: 50, y: 657, size: 11 },
  { text: "Invoice No:", x: 350, y: 700, size: 11 },
  { text: "INV-2024-0042", x: 450, y: 700, size: 11 },
  { text: "Invoice Date:", x: 350, y: 685, size: 11 },
  { text: "15/03/2024", x: 450, y: 685, size: 11 },
  { text: "Due Date:", x: 350, y: 671, size: 11 },
  { text: "14/04/2024", x: 450, y: 671, size: 11 },
  { text: "PO Number:", x: 350, y: 657, size: 11 },
  { text: "PO-7781", x: 450, y: 657, size: 11 },
  { text: "Description", x: 50, y: 600, size: 11 },
  { text: "Qty", x: 300, y: 600, size: 11 },
  { text: "Amount", x: 450, y: 600, size: 11 },
  { text: "Office chairs", x: 50, y: 580, size: 11 },
  { text: "4", x: 300, y: 580, size: 11 },
  { text: "840.00", x: 450, y: 580, size: 11 },
  { text: "Standing desk", x: 50, y: 565, size: 11 },
  { text: "1", x: 300, y: 565, size: 11 },
  { text: "394.56", x: 450, y: 565, size: 11 },
  { text: "Subtotal", x: 350, y: 520, size: 11 },
  { text: "1,234.56", x: 450, y: 520, size: 11 },
  { text: "VAT 20%", x: 350, y: 505, size: 11 },
  { text: "246.91", x: 450, y: 505, size: 11 },
  { text: "Total GBP", x: 350, y: 490, size: 12 },
  { text: "1,481.47", x: 450, y: 490, size: 12 },
  { text: "Payment details", x: 50, y: 420, size: 11 },
  { text: "IBAN: GB33 BUKB 2020 1555 5555 55", x: 50, y: 405, size: 11 },
  { text: "BIC: BUKBGB22", x: 50, y: 390, size: 11 },
];

let document: Document;
let fields: ExtractedField[];

function field(name: string): ExtractedField {
  const found = fields.find((f) => f.name === name);
  assert.ok(found, `no field ${name}`);
  return found;
}

function wordsOf(f: ExtractedField): Word[] {
  const ids = new Set(f.boundingBox?.tokenIds ?? []);
  return document.pages.flatMap((p) => p.words).filter((w) => ids.has(w.id));
}

describe("extract on a born-digital invoice", () => {
  before(async () => {
    const { bytes } = await makeTextPdf([INVOICE]);
    document = await ingest(bytes);
    fields = extract(document, resolveFields({ products: ["invoices", "documents"] }), { locale: "en-GB" });
  });

  it("reads header facts, totals, parties and bank details exactly", () => {
    const expected: Record<string, string> = {
      "invoice.number": "INV-2024-0042",
      "invoice.date": "2024-03-15",
      "invoice.dueDate": "2024-04-14",
      "invoice.purchaseOrderNo": "PO-7781",
      "invoice.currency": "GBP",
      "invoice.subtotal": "1234.56",
      "invoice.tax": "246.91",
      "invoice.total": "1481.47",
      "supplier.name": "Harbour Freight Supplies Ltd",
      "supplier.taxId": "GB123456782",
      "customer.name": "Northwind Traders GmbH",
      "customer.address": "Hauptstrasse 5, 10115 Berlin",
      "payment.iban": "GB33BUKB20201555555555",
      "payment.bic": "BUKBGB22",
      "document.type": "invoice",
      "document.date": "2024-03-15",
      "document.referenceNo": "INV-2024-0042",
    };
    for (const [name, value] of Object.entries(expected)) assert.equal(field(name).value, value, name);
  });

  it("boxes cover exactly the words of the value", () => {
    const cases: Array<[string, string[]]> = [
      ["invoice.number", ["INV-2024-0042"]],
      ["invoice.total", ["1,481.47"]],
      ["payment.iban", ["GB33", "BUKB", "2020", "1555", "5555", "55"]],
      ["customer.name", ["Northwind", "Traders", "GmbH"]],
    ];
    for (const [name, texts] of cases) {
      const f = field(name);
      const box = f.boundingBox;
      assert.ok(box, `${name} has a box`);
      const words = wordsOf(f);
      assert.deepEqual(
        words.map((w) => w.text),
        texts,
        `${name} tokenIds name its words`,
      );
      const close = (a: number, b: number) => Math.abs(a - b) < 1e-9;
      assert.ok(close(box.topLeft.x, Math.min(...words.map((w) => w.box.x0))), `${name} left edge`);
      assert.ok(close(box.topLeft.y, Math.min(...words.map((w) => w.box.y0))), `${name} top edge`);
      assert.ok(close(box.bottomRight.x, Math.max(...words.map((w) => w.box.x1))), `${name} right edge`);
      assert.ok(close(box.bottomRight.y, Math.max(...words.map((w) => w.box.y1))), `${name} bottom edge`);
      assert.equal(box.pageNum, 1);
    }
  });

  it("leaves absent fields null with a confidence that they are absent", () => {
    for (const name of ["payment.bsb", "payment.accountNo"]) {
      const f = field(name);
      assert.equal(f.value, null, name);
      assert.equal(f.boundingBox, null, name);
      assert.ok(f.confidence > 0.5 && f.confidence <= 1, `${name} confidence ${f.confidence}`);
    }
  });

  it("is sure of what it read from a clean text layer", () => {
    for (const name of ["invoice.number", "invoice.total", "invoice.date", "payment.iban"]) {
      assert.ok(field(name).confidence >= 0.8, `${name} confidence ${field(name).confidence}`);
    }
  });
});

describe("extract and locale", () => {
  const page: TextLine[] = [
    { text: "Acme Pty Ltd", x: 50, y: 790, size: 16 },
    { text: "Invoice Number: 1001", x: 50, y: 740, size: 11 },
    { text: "Invoice Date: 03/04/2024", x: 50, y: 725, size: 11 },
    { text: "Total: 1.234,50", x: 50, y: 700, size: 11 },
  ];

  it("lets the locale decide an ambiguous date and the decimal separator", async () => {
    const { bytes } = await makeTextPdf([page]);
    const doc = await ingest(bytes);
    const wanted = resolveFields({ fieldSets: ["invoice"] });
    const us = extract(doc, wanted, { locale: "en-US" });
    const au = extract(doc, wanted, { locale: "en-AU" });
    const de = extract(doc, wanted, { locale: "de-DE" });
    assert.equal(us.find((f) => f.name === "invoice.date")?.value, "2024-03-04");
    assert.equal(au.find((f) => f.name === "invoice.date")?.value, "2024-04-03");
    assert.equal(de.find((f) => f.name === "invoice.total")?.value, "1234.50");
  });

  it("infers day-first order from an unambiguous date on the page and is less sure without any", async () => {
    const withHint = await ingest(
      (await makeTextPdf([[...page, { text: "Delivered 25/03/2024", x: 50, y: 680, size: 11 }]])).bytes,
    );
    const without = await ingest((await makeTextPdf([page])).bytes);
    const wanted = resolveFields({ fieldSets: ["invoice"] });
    const hinted = extract(withHint, wanted).find((f) => f.name === "invoice.date");
    const guessed = extract(without, wanted).find((f) => f.name === "invoice.date");
    assert.equal(hinted?.value, "2024-04-03");
    assert.ok(guessed && hinted && guessed.confidence < hinted.confidence, "a guessed order lowers confidence");
  });
});
