/**
 * A label and its value printed on one line that rows put apart: a column beside them prints its lines at another
 * pitch, a little higher, so the row forms around it and takes the label, and the value, level with the label,
 * starts the next row. The page is generated here (an OCR reading), not taken from any corpus.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document } from "../../src/document/model.js";
import { invoiceFields } from "../helpers/invoice-fields.js";
import { scannedDocument } from "../helpers/receipt-document.js";

const ROWS: ReadonlyArray<ReadonlyArray<[string, number]>> = [
  [
    ["LE FOURNISSEUR SARL", 20],
    ["FACTURE", 440],
  ],
  [
    ["12 rue des Lilas", 20],
    ["N° de facture F2017-0042", 440],
  ],
  [
    ["69003 LYON", 20],
    ["Client : LA CLIENTE SAS", 440],
  ],
  [
    ["Date de facture 13/11/2017", 20],
    ["Contact commercial", 440],
  ],
  [
    ["Date d'échéance", 20],
    ["13/12/2017", 220],
    ["+33 4 72 07 08 56", 440],
  ],
  [
    ["Désignation", 20],
    ["Montant", 640],
  ],
  [
    ["Prestation", 20],
    ["100,00", 640],
  ],
  [
    ["Total TTC", 520],
    ["100,00", 640],
  ],
];

/** The page with the due date's line set `lower` px below the phone number printed beside it. */
function withDueDateLine(lower: number): Document {
  const document = scannedDocument(ROWS, 800);
  const page = document.pages[0];
  assert.ok(page);
  const line = page.lines[4];
  assert.ok(line);
  // The label a little lower than the phone number, the date a little lower still: level with the label.
  const offsets: Record<string, number> = { Date: lower, "d'échéance": lower, "13/12/2017": lower + 1 };
  for (const id of line.wordIds) {
    const word = page.words[id];
    const dy = (offsets[word?.text ?? ""] ?? 0) / page.height;
    if (!word || dy === 0) continue;
    word.box.y0 += dy;
    word.box.y1 += dy;
  }
  return document;
}

describe("a label level with its value in the row above", () => {
  it("reads the due date beside its label when the phone number beside them stands higher", () => {
    assert.equal(invoiceFields(withDueDateLine(5)).get("invoice.dueDate"), "2017-12-13");
  });

  it("reads it on a level line as before", () => {
    assert.equal(invoiceFields(withDueDateLine(0)).get("invoice.dueDate"), "2017-12-13");
  });
});
