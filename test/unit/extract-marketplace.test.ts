/**
 * Cues of an online marketplace's order invoice (bench/synth/render-html.ts, family "marketplace"): an item table
 * whose every row prints its net, tax and gross figures under "Net Amount  Tax Amount  Total Amount", its TOTAL row
 * adding up rows set apart by wrapped descriptions and identifier lines, column titles wrapped onto two lines ("USt-"
 * over "Betrag"), and the billing address set flush right under its heading. Pages are generated here (text layers),
 * not taken from any corpus.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { invoiceFields } from "../helpers/invoice-fields.js";
import { textDocument } from "../helpers/receipt-document.js";

type Cell = [string, number];

/** A cell ending at `x1` (textDocument sets 8 px per character and between words). */
function right(text: string, x1: number): Cell {
  return [text, x1 - (text.replace(/ /g, "").length * 8 + (text.split(" ").length - 1) * 8)];
}

const SELLER: Cell[][] = [
  [["Sold By :", 20], right("Billing Address :", 820)],
  [["Pioneer Industries LLC", 20], right("Blue Ridge Industries Inc.", 820)],
  [["5230 Elm Street", 20], right("1268 Congress Ave", 820)],
  [["Denver, CO 80202", 20], right("Denver, CO 80202", 820)],
  [right("USA", 820)],
  [["Invoice Number : 1300171994", 20]],
  [["Invoice Date : Sep 27, 2022", 20]],
];

/** An item's figures: unit price, quantity, net, rate, tax, gross, right-aligned in their columns. */
function figures(values: readonly string[]): Cell[] {
  const ends = [400, 440, 540, 620, 710, 820];
  return values.map((v, i) => right(v, ends[i] ?? 820));
}

describe("extract: a marketplace's order invoice", () => {
  it("takes the tax and total of the table's TOTAL row, not an item's figures under the column titles", () => {
    const doc = textDocument(
      [
        ...SELLER,
        [
          ["Description", 60],
          right("Unit Price", 400),
          right("Qty", 440),
          right("Net Amount", 540),
          right("Tax Rate", 620),
          right("Tax Amount", 710),
          right("Total Amount", 820),
        ],
        [["Wireless mouse, black", 60], ...figures(["$263.88", "1", "$263.88", "10%", "$26.39", "$290.27"])],
        [["ASIN: B0NM666629 ( XNQ-8619 )", 60]],
        [["Ceramic coffee mug 350 ml,", 60]],
        [["white", 60], ...figures(["$12.00", "2", "$24.00", "10%", "$2.40", "$26.40"])],
        [["ASIN: B0WW344682 ( GWE-8837 )", 60]],
        [["TOTAL:", 20], right("$28.79", 710), right("$316.67", 820)],
      ],
      900,
    );
    const fields = invoiceFields(doc);
    assert.equal(fields.get("invoice.total"), "316.67");
    assert.equal(fields.get("invoice.tax"), "28.79");
  });

  it("reads no item's net, tax and gross as the invoice's subtotal, tax and total, though they add up", () => {
    const doc = textDocument(
      [
        ...SELLER,
        [
          ["Description", 60],
          right("Unit Price", 400),
          right("Qty", 440),
          right("Net Amount", 540),
          right("Tax Rate", 620),
          right("Tax Amount", 710),
          right("Total Amount", 820),
        ],
        [["Wireless mouse, black", 60], ...figures(["$131.94", "2", "$263.88", "8.875%", "$23.42", "$287.30"])],
        [["ASIN: B0NM666629 ( XNQ-8619 )", 60]],
        [["Shipping Charges", 60], right("$6.99", 540), right("8.875%", 620), right("$0.62", 710), right("$7.61", 820)],
        [["TOTAL:", 20], right("$24.04", 710), right("$294.91", 820)],
      ],
      900,
    );
    const fields = invoiceFields(doc);
    assert.equal(fields.get("invoice.tax"), "24.04");
    assert.equal(fields.get("invoice.total"), "294.91");
  });

  it("reads a column title wrapped onto two lines whole ('USt-' over 'Betrag' is the tax, not the total)", () => {
    const doc = textDocument(
      [
        ...SELLER,
        [
          ["Beschreibung", 60],
          right("Stückpreis", 400),
          right("Menge", 440),
          right("Nettobetrag", 540),
          right("USt-", 620),
          right("USt-", 710),
          right("Gesamtbetrag", 820),
        ],
        [right("Satz", 620), right("Betrag", 710)],
        [["Yogamatte 6 mm", 60], ...figures(["263,34 €", "1", "263,34 €", "19%", "50,03 €", "313,37 €"])],
        [["Versandkosten", 60], ...figures(["8,95 €", "1", "8,95 €", "19%", "1,70 €", "10,65 €"])],
        [["GESAMT:", 20], right("51,73 €", 710), right("324,02 €", 820)],
      ],
      900,
    );
    const fields = invoiceFields(doc);
    assert.equal(fields.get("invoice.tax"), "51.73");
    assert.equal(fields.get("invoice.total"), "324.02");
  });

  it("reads the customer's name from a billing address set flush right under its heading", () => {
    const doc = textDocument(
      [
        ...SELLER,
        [["Description", 60], right("Qty", 440), right("Total Amount", 820)],
        [["Yoga mat 6 mm, non-slip", 60], right("1", 440), right("$62.70", 820)],
        [["TOTAL:", 20], right("$62.70", 820)],
      ],
      900,
    );
    assert.equal(invoiceFields(doc).get("customer.name"), "Blue Ridge Industries Inc.");
  });
});
