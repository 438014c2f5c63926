import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document } from "../../src/document/model.js";
import { quantityCell } from "../../src/extract/line-items/cells.js";
import { extractLineItems } from "../../src/extract/line-items/index.js";
import { localeHints } from "../../src/extract/normalise/locale.js";
import { type Cell, left, right, tablePage } from "../helpers/table-page.js";

/** Lines 0.015 apart, or at `tops` (a row's two lines sit tighter than the rows). */
function doc(rows: readonly (readonly Cell[])[], tops: readonly number[]): Document {
  return { type: "pdf", pages: [tablePage(1, rows, { spacing: 0.015, tops })] };
}

/** A note line in a small type, its words at word spacing (one chunk). */
const note = (text: string, x0: number): Cell => left(text, x0, 0.007);

const de = { locale: localeHints("de-DE") };
const header: Cell[] = [
  ["Pos", 0.08, 0.11],
  ["Beschreibung", 0.3, 0.42],
  ["Einzelpreis", 0.55, 0.65],
  ["Menge", 0.68, 0.73],
  ["Nettobetrag", 0.82, 0.92],
];

describe("extractLineItems: rows over two lines and totals beside another block", () => {
  it("joins a row's amount printed on its own line under the row's other cells, past its note lines", () => {
    const table = extractLineItems(
      doc(
        [
          header,
          [left("1", 0.08), left("Physiotherapie", 0.3), right("26,00", 0.65), right("10", 0.73)],
          [right("260,00", 0.92)],
          [note("Behandlungen laut Verordnung vom", 0.3)],
          [note("05.09.2018 an folgenden Terminen", 0.3)],
          [note("11.09.2018; 14.09.2018; 19.09.2018", 0.3)],
          [left("2", 0.08), left("Hausbesuch", 0.3), right("12,00", 0.65), right("10", 0.73)],
          [right("120,00", 0.92)],
          [left("Summe netto", 0.56), right("380,00", 0.92)],
        ],
        [0.3, 0.33, 0.342, 0.37, 0.382, 0.394, 0.43, 0.442, 0.48],
      ),
      { ...de, subtotal: "380.00" },
    );
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => [r.description?.split(" ")[0], r.quantity, r.unitPrice, r.amount]),
      [
        ["Physiotherapie", "10", "26.00", "260.00"],
        ["Hausbesuch", "10", "12.00", "120.00"],
      ],
    );
  });

  it("ends the table at a total whose label stands beside the amount, another block's words left of it", () => {
    const table = extractLineItems(
      doc(
        [
          header,
          [left("1", 0.08), left("Nougat 250g", 0.3), right("4,55", 0.65), right("5", 0.73), right("-20,48", 0.92)],
          [
            left("2", 0.08),
            left("Huile d'olive", 0.3),
            right("19,80", 0.65),
            right("10", 0.73),
            right("-198,00", 0.92),
          ],
          [left("Taxe", 0.12), left("Base", 0.3), left("Montant", 0.45), left("Total HT", 0.7), right("-218,48", 0.92)],
        ],
        [0.3, 0.33, 0.36, 0.39],
      ),
      de,
    );
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => r.amount),
      ["-20.48", "-198.00"],
    );
  });

  it("reads a quantity whose unit carries a plural mark", () => {
    assert.deepEqual(quantityCell("5 Unit(s)", de.locale), { quantity: "5", unit: "Unit(s)" });
  });
});
