import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document } from "../../src/document/model.js";
import { extractLineItems } from "../../src/extract/line-items/index.js";
import { localeHints } from "../../src/extract/normalise/locale.js";
import { type Cell, left, right, tablePage } from "../helpers/table-page.js";

/** Rows 0.015 apart (a stacked row's lines sit closer than the spacing of a plain table), or at the given tops. */
function doc(rows: readonly (readonly Cell[])[], tops?: readonly number[]): Document {
  return { type: "pdf", pages: [tablePage(1, rows, { spacing: 0.015, ...(tops ? { tops } : {}) })] };
}

const en = { locale: localeHints("en-GB") };

describe("extractLineItems: stacked rows and qualified header cells", () => {
  it("gives a stacked row's description, printed over its figures, to that row and not the one above", () => {
    const header: Cell[] = [
      ["Description", 0.08, 0.2],
      ["Qty", 0.6, 0.63],
      ["Unit price", 0.7, 0.78],
      ["Amount", 0.86, 0.93],
    ];
    const figures = (qty: string, unit: string, amount: string, code: Cell[] = []): Cell[] => [
      ...code,
      right(qty, 0.63),
      right(unit, 0.78),
      right(amount, 0.93),
    ];
    const table = extractLineItems(
      doc([
        header,
        [left("Office chair, blue", 0.08)],
        figures("3", "191.00", "573.00"),
        [left("Installation on site", 0.08)],
        [left("as agreed", 0.08)],
        figures("2", "40.00", "80.00", [left("SV-10023", 0.08)]),
        [left("Delivery", 0.08)],
        figures("1", "25.00", "25.00"),
        [],
        [left("Subtotal", 0.6), right("678.00", 0.93)],
      ]),
      { ...en, subtotal: "678.00" },
    );
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => [r.description, r.amount, r.productCode]),
      [
        ["Office chair, blue", "573.00", null],
        ["Installation on site as agreed", "80.00", "SV-10023"],
        ["Delivery", "25.00", null],
      ],
    );
    assert.equal(table.checks.sumCheck?.closes, true);
  });

  it("gives a first stacked row its description wrapped over two lines, the first running across the figure columns", () => {
    const header: Cell[] = [
      ["No.", 0.06, 0.09],
      ["Description", 0.12, 0.22],
      ["Qty", 0.5, 0.53],
      ["Unit price", 0.6, 0.68],
      ["Amount", 0.86, 0.93],
    ];
    const table = extractLineItems(
      doc(
        [
          header,
          [left("Website maintenance including delivery and installation on site as agreed in the offer", 0.12)],
          [left("of the 3rd of March", 0.12)],
          [left("1", 0.06), left("VN-91989", 0.12), right("1", 0.53), right("32.00", 0.68), right("32.00", 0.93)],
          [left("Consulting services", 0.12)],
          [left("2", 0.06), left("TM-83925", 0.12), right("1", 0.53), right("672.60", 0.68), right("672.60", 0.93)],
          [],
          [left("Subtotal", 0.6), right("704.60", 0.93)],
        ],
        [0.1, 0.125, 0.137, 0.149, 0.164, 0.176, 0.19, 0.205],
      ),
      { ...en, subtotal: "704.60" },
    );
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.amount, r.productCode]),
      [
        [
          "Website maintenance including delivery and installation on site as agreed in the offer of the 3rd of March",
          "32.00",
          "VN-91989",
        ],
        ["Consulting services", "672.60", "TM-83925"],
      ],
    );
  });

  it("still gives wrapped lines under a row's figures to that row", () => {
    const header: Cell[] = [
      ["Description", 0.08, 0.2],
      ["Qty", 0.6, 0.63],
      ["Amount", 0.86, 0.93],
    ];
    const table = extractLineItems(
      doc([
        header,
        [left("Consulting", 0.08), right("2", 0.63), right("200.00", 0.93)],
        [left("March 2026", 0.08)],
        [left("Travel", 0.08), right("1", 0.63), right("50.00", 0.93)],
      ]),
      en,
    );
    assert.deepEqual(
      table?.rows.map((r) => r.description),
      ["Consulting March 2026", "Travel"],
    );
  });

  it("gives a description's upper lines to the row whose figures stand at its foot, by the wider space between rows", () => {
    const header: Cell[] = [
      ["Description", 0.08, 0.2],
      ["Qty", 0.6, 0.63],
      ["Amount", 0.86, 0.93],
    ];
    const figures = (text: string, qty: string, amount: string): Cell[] => [
      left(text, 0.08),
      right(qty, 0.63),
      right(amount, 0.93),
    ];
    const table = extractLineItems(
      doc(
        [
          header,
          figures("Consulting", "2", "200.00"),
          [left("Installation of the new", 0.08)],
          figures("office furniture", "1", "80.00"),
          [left("Delivery to the", 0.08)],
          [left("second floor", 0.08)],
          figures("as agreed", "1", "25.00"),
        ],
        // Lines 0.015 apart within a row, 0.022 between rows.
        [0.3, 0.317, 0.339, 0.354, 0.376, 0.391, 0.406],
      ),
      en,
    );
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.amount]),
      [
        ["Consulting", "200.00"],
        ["Installation of the new office furniture", "80.00"],
        ["Delivery to the second floor as agreed", "25.00"],
      ],
    );
  });

  it("reads a header cell over two lines whose lower line is wider than the upper one", () => {
    const table = extractLineItems(
      doc([
        [["Prijs per", 0.652, 0.71]],
        [
          left("Omschrijving", 0.078),
          ["Aantal", 0.521, 0.565],
          ["eenheid excl. BTW", 0.586, 0.71],
          ["Totaal excl. BTW", 0.723, 0.84],
          ["BTW %", 0.866, 0.922],
        ],
        [left("Bureaustoel", 0.078), right("2", 0.565), right("18,00", 0.71), right("36,00", 0.84), right("9%", 0.922)],
        [
          left("Verzendkosten", 0.078),
          right("1", 0.565),
          right("11,75", 0.71),
          right("11,75", 0.84),
          right("21%", 0.922),
        ],
      ]),
      { locale: localeHints("nl-NL") },
    );
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.quantity, r.unit, r.unitPrice, r.amount, r.taxRate]),
      [
        ["Bureaustoel", "2", null, "18.00", "36.00", "9.00"],
        ["Verzendkosten", "1", null, "11.75", "11.75", "21.00"],
      ],
    );
  });

  it("reads a money column under a header cell with a qualifier ('excl. VAT', 'net') as one column", () => {
    const header: Cell[] = [
      ["Description", 0.08, 0.2],
      ["Qty", 0.45, 0.48],
      ["Rate excl. VAT", 0.56, 0.7],
      ["Total net", 0.84, 0.93],
    ];
    const table = extractLineItems(
      doc([
        header,
        [left("Website maintenance", 0.08), right("3", 0.48), right("58.66", 0.7), right("175.98", 0.93)],
        [left("Hosting", 0.08), right("1", 0.48), right("20.00", 0.7), right("20.00", 0.93)],
      ]),
      en,
    );
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.quantity, r.unitPrice, r.amount, r.taxRate]),
      [
        ["Website maintenance", "3", "58.66", "175.98", null],
        ["Hosting", "1", "20.00", "20.00", null],
      ],
    );
  });
});
