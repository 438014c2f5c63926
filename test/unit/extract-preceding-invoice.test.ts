/**
 * A credit note or corrected invoice names the invoice it refers to ("Original invoice no.", "N° de facture associée",
 * EN 16931's preceding invoice): that number is not the document's own, though its label holds the invoice number's
 * words. Documents are generated here.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveFields } from "../../src/catalog/lookup.js";
import { extract } from "../../src/extract/index.js";
import { textDocument } from "../helpers/receipt-document.js";

type Rows = ReadonlyArray<ReadonlyArray<[string, number]>>;

function numberOf(rows: Rows): unknown {
  const fields = extract(textDocument(rows, 800), resolveFields({ products: ["invoices"] }));
  return fields.find((f) => f.name === "invoice.number")?.value ?? null;
}

describe("invoice.number beside the number of the invoice referred to", () => {
  it("reads the document's own number, not the original invoice's (en)", () => {
    const number = numberOf([
      [
        ["Harbour Supplies Ltd", 20],
        ["Credit note", 560],
      ],
      [
        ["12 Quay Street, Bristol BS1 4DJ", 20],
        ["Invoice no.", 420],
        ["CN-2026-0030", 680],
      ],
      [["Original invoice no.: INV-2026-0003", 420]],
      [
        ["Total", 420],
        ["-120.00", 680],
      ],
    ]);
    assert.equal(number, "CN-2026-0030");
  });
});
