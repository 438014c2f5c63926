import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { extractLineItems } from "../../src/extract/line-items/index.js";
import { ownLinesFrom, type TextLine } from "../../src/extract/line-items/offset-rows.js";
import { localeHints } from "../../src/extract/normalise/locale.js";
import { type Cell, left as leftCell, right as rightCell, tableDocument, tablePage } from "../helpers/table-page.js";

const fr = { locale: localeHints("fr-FR") };
const en = { locale: localeHints("en-GB") };

const left = (text: string, x0: number): Cell => leftCell(text, x0, 0.007);
const right = (text: string, x1: number): Cell => rightCell(text, x1, 0.007);

describe("extractLineItems: rows whose figures stand between their name and a detail line", () => {
  it("reads the name over a figures line holding only a running number, blocks far apart", () => {
    /** A block: gross price, name (a code beside it), figures with the running number far left, detail, net price. */
    const block = (n: string, name: string, detail: string, quantity: string, amount: string): Cell[][] => [
      [right(`(Brut: ${amount})`, 0.6)],
      [left(`# ligne BC: ${n}`, 0.1), left(name, 0.22)],
      [left(n, 0.08), left("(Rabais: 0,00)", 0.52), left("PCE", 0.62), right(quantity, 0.72), right(amount, 0.87)],
      [left(detail, 0.22)],
      [right(`(Net): ${amount}`, 0.6)],
    ];
    const lines: Cell[][] = [
      [
        left("Référence", 0.1),
        left("Désignation", 0.22),
        left("P.U. HT", 0.52),
        left("Unité", 0.61),
        left("Qté", 0.68),
        left("Total HT", 0.8),
      ],
      ...block("1", "PRESTATION SUPPORT - Description", "Période de 01/01/2026 au 31/01/2026", "1,00", "60,00"),
      ...block("2", "FOURNITURES DIVERSES - Description", "Date début : 01/01/2026", "3,00", "30,00"),
      ...block("3", "APPEL - Description", "Date fin : 31/01/2026", "1,00", "5,00"),
      [left("Total HT", 0.6), right("95,00", 0.87)],
    ];
    // Each block's five lines 0.006 apart (overlapping, as printed), blocks 0.07 apart, the first 0.035 under the header.
    const tops = [0.3];
    for (let b = 0; b < 3; b++) for (let l = 0; l < 5; l++) tops.push(0.335 + b * 0.07 + l * 0.006);
    tops.push(0.56);
    const table = extractLineItems(tableDocument(tablePage(1, lines, { tops })), { ...fr, subtotal: "95.00" });
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => [r.description, r.quantity, r.amount]),
      [
        // The running number is no description. The line under the figures continues the row's description; a "Key: value" line is a detail of it.
        ["PRESTATION SUPPORT - Description", "1", "60.00"],
        ["FOURNITURES DIVERSES - Description", "3", "30.00"],
        ["APPEL - Description", "1", "5.00"],
      ],
    );
  });

  it("splits the lines between two figures lines where rows stand apart, a discount row keeping its own text", () => {
    const figures = (quantity: string, price: string, amount: string): Cell[] => [
      right(quantity, 0.62),
      right(price, 0.75),
      right(amount, 0.9),
    ];
    const lines: Cell[][] = [
      [left("Description", 0.1), left("Qty", 0.58), left("Unit price", 0.66), left("Amount", 0.84)],
      [left("Website maintenance", 0.1)],
      figures("1", "400.00", "400.00"),
      [left("Period from 01/03/2026 to 28/03/2026", 0.1)],
      [left("Cloud hosting (monthly)", 0.1)],
      figures("3", "25.00", "75.00"),
      [left("for the period of the attached schedule", 0.1)],
      [left("Loyalty discount 5%", 0.1), right("-23.75", 0.9)],
      [left("Consulting services", 0.1)],
      figures("2", "150.00", "300.00"),
      [left("Period from 01/04/2026 to 28/04/2026", 0.1)],
      [left("Subtotal", 0.6), right("751.25", 0.9)],
    ];
    // Lines 0.016 apart within a row, 0.02 between rows.
    const tops = [0.3, 0.32, 0.336, 0.352, 0.372, 0.388, 0.404, 0.424, 0.444, 0.46, 0.476, 0.5];
    const table = extractLineItems(tableDocument(tablePage(1, lines, { tops })), { ...en, subtotal: "751.25" });
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => [r.description, r.amount]),
      [
        ["Website maintenance", "400.00"],
        ["Cloud hosting (monthly) for the period of the attached schedule", "75.00"],
        ["Loyalty discount 5%", "-23.75"],
        ["Consulting services", "300.00"],
      ],
    );
    assert.equal(table.checks.sumCheck?.closes, true);
  });

  it("keeps each description under its figures where the first row's figures stand right under the header", () => {
    // A till's layout: item code and figures on one line, the item's name on the line under them.
    const figures = (code: string, quantity: string, price: string, amount: string): Cell[] => [
      left(code, 0.05),
      right(quantity, 0.45),
      right(price, 0.65),
      right(amount, 0.85),
    ];
    const lines: Cell[][] = [
      [left("Item", 0.05), left("Qty", 0.4), left("S/Price", 0.55), left("Amount", 0.75)],
      figures("1938", "2", "6.89", "13.78"),
      [left('4" ROLLER SET', 0.05)],
      figures("1618", "1", "40.28", "40.28"),
      [left("7LT TOPLUS EMULSION PAINT", 0.05)],
      figures("2430", "2", "18.02", "36.04"),
      [left("CEMENT (50KG)", 0.05)],
      [left("Total Sales (Excluding GST)", 0.05), right("90.10", 0.85)],
    ];
    const table = extractLineItems(tableDocument(tablePage(1, lines, { spacing: 0.02 })), {
      ...en,
      subtotal: "90.10",
    });
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => [r.description, r.amount]),
      [
        ['4" ROLLER SET', "13.78"],
        ["7LT TOPLUS EMULSION PAINT", "40.28"],
        ["CEMENT (50KG)", "36.04"],
      ],
    );
  });
});

describe("ownLinesFrom", () => {
  const line = (y0: number, keyed = false): TextLine => ({ chunks: [], y0, y1: y0 + 0.01, height: 0.01, keyed });

  it("reads a first row's name printed right under the header as the row's, not as the header's lower line", () => {
    // "Consulting services" under "Service": a header word among others, on no header's line.
    const header: Cell[] = [
      left("Code", 0.08),
      left("Service", 0.2),
      right("Qty", 0.54),
      right("Unit price", 0.78),
      right("Amount", 0.92),
    ];
    const figures = (code: string, quantity: string, price: string, amount: string): Cell[] => [
      left(code, 0.08),
      right(quantity, 0.54),
      right(price, 0.78),
      right(amount, 0.92),
    ];
    const lines: Cell[][] = [
      header,
      [left("Consulting services", 0.2)],
      figures("RS-3221", "1", "397.77", "397.77"),
      [left("including delivery and installation", 0.2)],
      [left("on site as agreed", 0.2)],
      [left("Installation labour", 0.2)],
      figures("UG-3370", "18", "816.86", "14,703.48"),
      [left("including delivery and installation", 0.2)],
      [left("on site as agreed", 0.2)],
    ];
    // Lines 0.0144 apart, the blocks a little further (a third of a line).
    const tops = [0.1, 0.1144, 0.1288, 0.1432, 0.1576, 0.1763, 0.1907, 0.2051, 0.2195];
    const table = extractLineItems(tableDocument(tablePage(1, lines, { spacing: 0.0144, tops })), en);
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.amount, r.productCode]),
      [
        ["Consulting services including delivery and installation on site as agreed", "397.77", "RS-3221"],
        ["Installation labour including delivery and installation on site as agreed", "14703.48", "UG-3370"],
      ],
    );
  });

  it("takes the lines after the clearly widest gap, else the nearest one, never a Key: value line", () => {
    // Under the figures at 0.31: a detail line tight, then the next row's name after a wider gap.
    assert.equal(ownLinesFrom([line(0.315), line(0.335)], 0.31, 0.35, 0.01, "nearest"), 1);
    // Evenly spaced: the nearest line is the name; a stacked row takes them all.
    assert.equal(ownLinesFrom([line(0.315), line(0.33)], 0.31, 0.345, 0.01, "nearest"), 1);
    assert.equal(ownLinesFrom([line(0.315), line(0.33)], 0.31, 0.345, 0.01, "all"), 0);
    assert.equal(ownLinesFrom([line(0.315, true), line(0.33)], 0.31, 0.345, 0.01, "all"), 1);
    // The text stands apart from the figures: none of it is the row's.
    assert.equal(ownLinesFrom([line(0.315)], 0.31, 0.36, 0.01, "nearest"), 1);
  });
});
