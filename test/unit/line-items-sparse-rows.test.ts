import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document } from "../../src/document/model.js";
import { extractLineItems } from "../../src/extract/line-items/index.js";
import { localeHints } from "../../src/extract/normalise/locale.js";
import { type Cell, left as leftCell, right as rightCell, tablePage } from "../helpers/table-page.js";

const fr = { locale: localeHints("fr-FR") };
const de = { locale: localeHints("de-DE") };

const left = (text: string, x0: number): Cell => leftCell(text, x0, 0.007);
const right = (text: string, x1: number): Cell => rightCell(text, x1, 0.007);

/** A row printed as a block: its gross price over the figures, its discount beside them, its net price under them. */
function block(
  description: string,
  gross: string,
  quantity: string,
  net: string,
  amount: string,
  words: readonly [string, string, string] = ["Brut", "Rabais", "Net"],
): Cell[][] {
  const [grossWord, discountWord, netWord] = words;
  return [
    [right(`(${grossWord}: ${gross})`, 0.58)],
    [
      left(description, 0.15),
      left(`(${discountWord}: 0,00)`, 0.5),
      right(quantity, 0.7),
      right(amount, 0.86),
      right("20,00%", 0.95),
    ],
    [right(`(${netWord}): ${net}`, 0.58)],
  ];
}

describe("extractLineItems: sparse rows with labelled figures over and under them", () => {
  it("reads each block as one row, past the wide gaps between them and the header's own second line", () => {
    const lines: Cell[][] = [
      [left("Désignation", 0.15), left("P.U. HT", 0.52), left("Qté", 0.68), left("Total HT", 0.8), left("TVA", 0.92)],
      // The header's cells over three lines, tight: the last one no row's description.
      [left("Référence", 0.15), left("(EUR)", 0.53), left("(EUR)", 0.81)],
      [left("Note", 0.15)],
      ...block("Prestation support", "60,00", "1,00", "60,00", "60,00"),
      ...block("Fournitures diverses", "10,00", "3,00", "10,00", "30,00"),
      ...block("Appel", "5,00", "1,00", "5,00", "5,00"),
      // A tax breakdown under the rows: its titles over the figure columns end the table, its figures are no row.
      [
        left("Détail TVA (motif si exonération, code E, O, K, AE)", 0.05),
        left("Code", 0.6),
        left("Taux", 0.68),
        left("Base TVA", 0.76),
        left("Montant TVA", 0.86),
      ],
      [left("S", 0.6), right("20,00%", 0.72), right("95,00", 0.8), right("19,00", 0.93)],
      [left("Total HT", 0.6), right("95,00", 0.86)],
    ];
    // Blocks 0.08 apart, their lines tight: far wider gaps between rows than within them.
    const tops = [0.3, 0.3115, 0.323, 0.36, 0.3715, 0.383, 0.44, 0.4515, 0.463, 0.52, 0.5315, 0.543, 0.57, 0.59, 0.63];
    const document: Document = { type: "pdf", pages: [tablePage(1, lines, { tops })] };
    const table = extractLineItems(document, { ...fr, subtotal: "95.00" });
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => [r.description, r.quantity, r.amount, r.taxRate]),
      [
        ["Prestation support", "1", "60.00", "20.00"],
        ["Fournitures diverses", "3", "30.00", "20.00"],
        ["Appel", "1", "5.00", "20.00"],
      ],
    );
    assert.equal(table.checks.sumCheck?.closes, true);
  });

  it("reads a discount row as far below the blocks as they stand apart, and a net price labelled like a total", () => {
    const words = ["Brutto", "Rabatt", "Netto"] as const;
    const lines: Cell[][] = [
      [
        left("Beschreibung", 0.15),
        left("Einzelpreis", 0.5),
        left("Menge", 0.66),
        left("Betrag", 0.81),
        left("MwSt", 0.91),
      ],
      ...block("Projektmanagement", "130,00", "2", "120,00", "240,00", words),
      ...block("Netzwerkkabel", "12,50", "4", "12,50", "50,00", words),
      // No quantity or unit price: the gap above it is as wide as those between the blocks.
      [left("Nachlass 5%", 0.15), right("-14,50", 0.86), right("20,00%", 0.95)],
      // The net total labelled where the amounts stand ends the table; a credit under it is no row.
      [right("Netto: 275,50", 0.86)],
      [left("Rücksendung Palette", 0.15), right("-12,00", 0.86)],
    ];
    // Blocks 0.1 apart (rows of text 0.011 high): the discount's gap, 0.08 under the last net price, over six lines.
    const tops = [0.3, 0.34, 0.3515, 0.363, 0.44, 0.4515, 0.463, 0.554, 0.6, 0.62];
    const document: Document = { type: "pdf", pages: [tablePage(1, lines, { tops })] };
    const table = extractLineItems(document, { ...de, subtotal: "275.50" });
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => [r.description, r.quantity, r.unitPrice, r.amount]),
      [
        // The unit price from the labelled figures: the net one, which quantity x price = amount closes on.
        ["Projektmanagement", "2", "120.00", "240.00"],
        ["Netzwerkkabel", "4", "12.50", "50.00"],
        ["Nachlass 5%", null, null, "-14.50"],
      ],
    );
    assert.equal(table.checks.sumCheck?.closes, true);
  });

  it("reads a discount row under the first block, the gap measured from the block's last line", () => {
    const lines: Cell[][] = [
      [left("Désignation", 0.15), left("P.U. HT", 0.52), left("Qté", 0.68), left("Total HT", 0.8), left("TVA", 0.92)],
      ...block("Prestation support", "60,00", "1,00", "60,00", "60,00"),
      // 0.06 under the net price (under six lines of text), 0.0715 under the figures (over six).
      [left("Remise commerciale", 0.15), right("-5,00", 0.86), right("20,00%", 0.95)],
      [left("Total HT", 0.6), right("55,00", 0.86)],
    ];
    const tops = [0.28, 0.3, 0.3115, 0.323, 0.394, 0.45];
    const table = extractLineItems(
      { type: "pdf", pages: [tablePage(1, lines, { tops })] },
      { ...fr, subtotal: "55.00" },
    );
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => [r.description, r.amount]),
      [
        ["Prestation support", "60.00"],
        ["Remise commerciale", "-5.00"],
      ],
    );
  });
});
