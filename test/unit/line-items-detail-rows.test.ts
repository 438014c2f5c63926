import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document } from "../../src/document/model.js";
import { priceCell, quantityCell } from "../../src/extract/line-items/cells.js";
import { extractLineItems } from "../../src/extract/line-items/index.js";
import { localeHints } from "../../src/extract/normalise/locale.js";
import { type Cell, left as leftCell, right as rightCell, tablePage } from "../helpers/table-page.js";

const de = { locale: localeHints("de-DE") };

/** Cells about as wide as printed at 8 pt, their words at word spacing. */
const left = (text: string, x0: number): Cell => leftCell(text, x0, 0.007);
const right = (text: string, x1: number): Cell => rightCell(text, x1, 0.007);

/** One page from lines of cells at the given tops (a row's lines tighter than the rows). */
function page(pageNum: number, rows: readonly (readonly Cell[])[], tops: readonly number[], extra = {}) {
  return tablePage(pageNum, rows, { spacing: 0.0105, tops, ...extra });
}

// "Nettopreis", "Nettobetrag", "MwSt-%" and an article-number column: the header of many ERP invoices.
const header: Cell[] = [
  ["Pos", 0.12, 0.14],
  ["Art-Nr-Lief.", 0.2, 0.26],
  ["Beschreibung", 0.32, 0.39],
  ["Nettopreis", 0.57, 0.63],
  ["Menge", 0.67, 0.71],
  ["MwSt-%", 0.73, 0.79],
  ["Nettobetrag", 0.83, 0.9],
];

describe("extractLineItems: ERP rows with details under them", () => {
  it("reads rows whose amount stands under the other figures, past codes, detail lines and notes", () => {
    const lines: Cell[][] = [
      header,
      // A note across the table under its header: no row's description.
      [
        [
          "Wichtige Information: Bei Bestellungen bis zum 19. erfolgt die Lieferung frei Haus und garantiert",
          0.32,
          0.93,
        ],
      ],
      [
        left("1", 0.12),
        left("KR3M", 0.2),
        left("Kunstrasen grün", 0.32),
        right("3,3333", 0.63),
        right("3 m²", 0.71),
        right("19 %", 0.79),
      ],
      [left("4012345001235", 0.2), left("3m breit", 0.32), right("10,00", 0.9)],
      [left("(GTIN)", 0.2)],
      // Notes and "Key: value" details between the rows: the table runs on past them, no description takes them.
      [left("1", 0.12), left("Aus Lieferung 51112 berechnet", 0.32)],
      [left("Lieferdatum: 01.09.2013", 0.32)],
      [left("Verpackung: Karton", 0.32)],
      // The description on the code column's next line.
      [
        left("2", 0.12),
        left("4000050986428", 0.2),
        right("5,5000", 0.63),
        right("1 kg", 0.71),
        right("7 %", 0.79),
        right("5,50", 0.9),
      ],
      [left("SFK5", 0.2), left("Schweinesteak", 0.32)],
      // A credit line printed with U+2010 hyphens as minus signs.
      [
        left("3", 0.12),
        left("ZS997", 0.2),
        left("Zitronensäure 100ml", 0.32),
        right("1,0000", 0.63),
        right("‐5 Stk", 0.71),
        right("19 %", 0.79),
      ],
      [left("4123456000014", 0.2), right("‐5,00", 0.9)],
      [left("Verpackung: Flasche", 0.32)],
      [left("Positionssumme", 0.36), right("10,50", 0.9)],
    ];
    const tops = [0.12, 0.133, 0.16, 0.1705, 0.181, 0.2, 0.222, 0.233, 0.29, 0.3005, 0.33, 0.3405, 0.351, 0.38];
    // Text set up the page's left edge (taller than wide) beside the rows.
    const margin = [{ text: "-Copyright", box: { x0: 0.033, y0: 0.158, x1: 0.0425, y1: 0.19 }, confidence: 1 }];
    const document: Document = { type: "pdf", pages: [page(1, lines, tops, { extra: margin })] };
    const table = extractLineItems(document, { ...de, subtotal: "10.50" });
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => [r.description, r.quantity, r.unitPrice, r.amount, r.productCode]),
      [
        ["Kunstrasen grün 3m breit", "3", "3.3333", "10.00", "KR3M"],
        ["Schweinesteak", "1", "5.50", "5.50", "4000050986428"],
        ["Zitronensäure 100ml", "-5", "1.00", "-5.00", "ZS997"],
      ],
    );
    assert.equal(table.checks.sumCheck?.closes, true);
  });

  it("ends a table that ran on to a page without its header at the totals there", () => {
    const first = page(
      1,
      [
        [left("Pos", 0.12), left("Beschreibung", 0.32), left("Menge", 0.67), left("Nettobetrag", 0.83)],
        [left("1", 0.12), left("Physiotherapie", 0.32), right("10", 0.71), right("260,00", 0.9)],
        [left("2", 0.12), left("Hausbesuch", 0.32), right("10", 0.71), right("120,00", 0.9)],
        [left("Seite 1 von 2", 0.8)],
      ],
      [0.5, 0.53, 0.56, 0.97],
    );
    const second = page(
      2,
      [
        [left("Belegsummen", 0.11)],
        [left("Positionssumme", 0.36), right("380,00", 0.9)],
        [left("Bruttosumme", 0.36), right("380,00", 0.9)],
      ],
      [0.1, 0.13, 0.16],
    );
    const table = extractLineItems({ type: "pdf", pages: [first, second] }, de);
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => [r.description, r.amount]),
      [
        ["Physiotherapie", "260.00"],
        ["Hausbesuch", "120.00"],
      ],
    );
  });

  it("reads no row off a scan's labelled gross price whose discount OCR read into the price and quantity columns", () => {
    const lines: Cell[][] = [
      header,
      [
        left("6", 0.12),
        left("Mischpalette Joghurt", 0.32),
        right("29,1000", 0.63),
        right("2 Stk", 0.71),
        right("7 %", 0.79),
        right("58,20", 0.9),
      ],
      [left("MP107", 0.2)],
      // "Bruttopreis :30,0000 Abschlag :0,9000 Artikelrabatt", the discount's colon lost and a "1" read at its end.
      [left("Bruttopreis :30,0000 Abschlag", 0.32), right("0,9000", 0.59), left("Artikelrabatt", 0.6), right("1", 0.7)],
      [left("Anzahl Packstücke: 1 Palette", 0.32)],
    ];
    const scanned = page(1, lines, [0.12, 0.16, 0.1705, 0.19, 0.21], { source: "ocr" });
    const table = extractLineItems({ type: "pdf", pages: [scanned] }, de);
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.quantity, r.amount]),
      [["Mischpalette Joghurt", "2", "58.20"]],
    );
  });

  it("keeps a long gross price label set against a narrow price column out of the name beside it", () => {
    const lines: Cell[][] = [
      [left("Beschreibung", 0.1), right("E-Preis", 0.63), right("Menge", 0.72), right("Betrag", 0.9)],
      [left("Monitor 27 Zoll", 0.1), right("(Brutto: 38,00)", 0.63)],
      [right("(Rabatt: 0,00)", 0.63), right("2,5", 0.72), right("95,00", 0.9)],
      [right("(Netto): 38,00", 0.63)],
      [left("Bürostuhl, ergonomisch", 0.1), right("(Brutto: 3.692,83)", 0.63)],
      [right("(Rabatt: 0,00)", 0.63), right("33", 0.72), right("121.863,39", 0.9)],
      [right("(Netto): 3.692,83", 0.63)],
      [left("Reisekosten", 0.1), right("(Brutto: 76,26)", 0.63)],
      [right("(Rabatt: 5,26)", 0.63), right("1", 0.72), right("71,00", 0.9)],
      [right("(Netto): 71,00", 0.63)],
    ];
    const tops = [0.1, 0.13, 0.1405, 0.151, 0.2, 0.2105, 0.221, 0.27, 0.2805, 0.291];
    const table = extractLineItems({ type: "pdf", pages: [page(1, lines, tops)] }, de);
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.quantity, r.amount]),
      [
        ["Monitor 27 Zoll", "2.5", "95.00"],
        ["Bürostuhl, ergonomisch", "33", "121863.39"],
        ["Reisekosten", "1", "71.00"],
      ],
    );
  });

  it("reads labelled figures under a unit's title as details, and ends the table at a tax breakdown's titles", () => {
    // "(Rabatt: ...)" and "(Netto): ..." overlap the unit's column; the tax breakdown's titles name no column of the
    // items' header ("MwSt-Aufstellung | MwSt-Satz | Nettobetrag | MwSt-Betrag" under "Einheit", "Preis", "Gesamt").
    const lines: Cell[][] = [
      [
        left("Beschreibung", 0.1),
        right("Menge", 0.5),
        left("Einheit", 0.52),
        right("Preis", 0.75),
        right("Gesamt", 0.9),
      ],
      [left("Monitor 27 Zoll", 0.1), left("(Brutto: 38,00)", 0.55)],
      [right("2,5", 0.5), left("Stk", 0.52), left("(Rabatt: 0,00)", 0.57), right("38,00", 0.75), right("95,00", 0.9)],
      [left("(Netto): 38,00", 0.55)],
      [left("Reisekosten", 0.1), left("(Brutto: 76,26)", 0.55)],
      [right("1", 0.5), left("(Rabatt: 5,26)", 0.55), right("71,00", 0.75), right("71,00", 0.9)],
      [left("(Netto): 71,00", 0.55)],
      [left("MwSt-Aufstellung", 0.1), left("MwSt-Satz", 0.55), left("Nettobetrag", 0.7), left("MwSt-Betrag", 0.83)],
      [right("19%", 0.6), right("166,00", 0.78), right("31,54", 0.9)],
    ];
    const tops = [0.1, 0.13, 0.1405, 0.151, 0.2, 0.2105, 0.221, 0.27, 0.2805];
    const table = extractLineItems({ type: "pdf", pages: [page(1, lines, tops)] }, de);
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.quantity, r.unit, r.amount]),
      [
        ["Monitor 27 Zoll", "2.5", "Stk", "95.00"],
        ["Reisekosten", "1", null, "71.00"],
      ],
    );
  });

  it("reads unit prices and quantities with four decimals and U+2010 minus signs", () => {
    assert.equal(priceCell("3,3333", de.locale), "3.3333");
    assert.equal(priceCell("1.000,0000", de.locale), "1000.00");
    assert.equal(priceCell("‐2,90", de.locale), "-2.90");
    assert.deepEqual(quantityCell("-5,0000 Stk.", de.locale), { quantity: "-5", unit: "Stk." });
  });
});
