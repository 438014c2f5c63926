/**
 * Line items of an embedded e-invoice against the page's table (issue #17/#18), along the path the worker takes
 * (ingest -> extractResult -> applyEInvoice): the XML's lines replace the page's rows, the page's sum warning no
 * longer applies, and a page table that adds up to another sum than the XML's lines is an `einvoice_mismatch`.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveFields } from "../../src/catalog/lookup.js";
import { isLineItemsField } from "../../src/domain/result.js";
import { applyEInvoice } from "../../src/einvoice/index.js";
import { extractResult } from "../../src/extract/index.js";
import { ingest } from "../../src/ingest/index.js";
import { readPdfAttachments } from "../../src/ingest/pdf-attachments.js";
import { ciiXml, einvoicePdf, FACTS, type InvoiceFacts } from "../helpers/einvoice-fixtures.js";
import { TABLE_ROWS, tableInvoicePage } from "../helpers/line-items-fixtures.js";

const FIELDS = resolveFields({ products: ["invoices"] });

/** The XML of the page's invoice: its three rows, or other lines. */
const facts = (lines: InvoiceFacts["lines"]): InvoiceFacts => ({
  ...FACTS,
  number: "INV-7001",
  date: "20240312",
  seller: "Acme Supplies Ltd",
  buyer: "Contoso Ltd",
  subtotal: "1128.44",
  tax: "225.69",
  total: "1354.13",
  lines,
});
const PAGE_LINES = TABLE_ROWS.map((r) => ({
  name: r.description,
  quantity: r.quantity,
  price: r.unitPrice,
  amount: r.amount,
  rate: "20",
}));

async function run(subtotal: string, xml: string) {
  const bytes = await einvoicePdf(tableInvoicePage(subtotal), xml);
  const document = await ingest(bytes, { concurrency: 1 });
  const page = extractResult(document, FIELDS, { locale: "en-GB" });
  return { page, merged: applyEInvoice(document, await readPdfAttachments(bytes), page, { locale: "en-GB" }) };
}

describe("e-invoice lines beside the page's table", () => {
  it("the XML's lines replace the page's rows, boxed on the page's cells", async () => {
    const { page, merged } = await run("1,128.44", ciiXml(facts(PAGE_LINES)));
    const read = page.fields.find((f) => f.name === "invoice.lineItems");
    const items = merged.fields.find((f) => f.name === "invoice.lineItems");
    assert.ok(read && isLineItemsField(read) && items && isLineItemsField(items));
    assert.equal(items.source, "einvoice");
    assert.deepEqual(
      items.value.map((r) => [r.description, r.quantity, r.unitPrice, r.amount, r.taxRate]),
      TABLE_ROWS.map((r) => [r.description, r.quantity, r.unitPrice, r.amount, "20.00"]),
    );
    items.value.forEach((row, i) => {
      const cellsRead = new Map(read.value[i]?.boundingBoxes.map((b) => [b.cell, b.tokenIds]));
      for (const box of row.boundingBoxes) assert.deepEqual(box.tokenIds, cellsRead.get(box.cell), `${i}: ${box.cell}`);
      assert.deepEqual(
        row.boundingBoxes.map((b) => b.cell),
        ["description", "amount", "unitPrice", "quantity"],
      );
    });
    assert.deepEqual(merged.warnings, []);
  });

  it("a printed subtotal the rows miss: the page's sum warning gives way to the XML's lines", async () => {
    const { page, merged } = await run("1,228.44", ciiXml({ ...facts(PAGE_LINES), subtotal: "1228.44" }));
    assert.deepEqual(
      page.warnings.map((w) => w.code),
      ["line_items_sum_mismatch"],
    );
    assert.deepEqual(
      merged.warnings.map((w) => [w.code, w.field]),
      [],
    );
  });

  it("an XML line whose amount the page prints nowhere: einvoice_mismatch on invoice.lineItems", async () => {
    const other = [
      ...PAGE_LINES.slice(0, 2),
      { name: "Monitor arms", quantity: "2", price: "55.50", amount: "111.00", rate: "20" },
    ];
    const { merged } = await run("1,128.44", ciiXml(facts(other)));
    assert.deepEqual(
      merged.warnings.map((w) => [w.code, w.field]),
      [["einvoice_mismatch", "invoice.lineItems"]],
    );
    assert.match(
      merged.warnings[0]?.message ?? "",
      /3 line\(s\) adding up to 1128\.44, the embedded invoice states 3 adding up to 1148\.44, and its line "Monitor arms" of 111\.00 is printed nowhere/,
    );
  });

  it("XML lines the page prints, beside a page table read with other rows: no warning", async () => {
    const { merged } = await run("1,128.44", ciiXml(facts(PAGE_LINES.slice(0, 2))));
    assert.deepEqual(merged.warnings, []);
  });
});
