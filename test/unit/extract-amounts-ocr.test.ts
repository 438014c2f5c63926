import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveFields } from "../../src/catalog/lookup.js";
import { extract } from "../../src/extract/index.js";
import { correctLabelWord } from "../../src/extract/labels.js";
import { parseAmount } from "../../src/extract/normalise/amount.js";
import { receipt } from "../helpers/receipt-document.js";

const HEADER: Array<Array<[string, number]>> = [
  [["KEDAI RUNCIT MAJU SDN BHD", 40]],
  [["NO 12, JALAN MERANTI 3, 43000 KAJANG", 40]],
  [["TAX INVOICE", 120]],
  [["Date: 11/01/2019 14:05", 20]],
];

function values(rows: Array<Array<[string, number]>>): { total: string | null; tax: string | null } {
  const fields = extract(receipt([...HEADER, ...rows]), resolveFields({ products: ["receipts"] }));
  const value = (name: string) => {
    const found = fields.find((f) => f.name === name)?.value;
    return typeof found === "string" ? found : null;
  };
  return { total: value("receipt.total"), tax: value("receipt.tax") };
}

const row = (label: string, amount: string): Array<[string, number]> => [
  [label, 20],
  [amount, 300],
];

describe("parseAmount with a misread currency mark", () => {
  it("reads the amount behind a mark one OCR confusion from a currency, without claiming the currency", () => {
    assert.deepEqual(parseAmount("RH 61.65", {}), { value: 61.65, text: "61.65", currency: null });
    assert.deepEqual(parseAmount("FM1.00", {}), { value: 1, text: "1.00", currency: null });
    assert.deepEqual(parseAmount("EUK 12,50", {}), { value: 12.5, text: "12.50", currency: null });
  });

  it("still restores a faint decimal point after a misread mark", () => {
    assert.equal(parseAmount("RN 64 15", {})?.text, "64.15");
  });

  it("keeps words that are no near currency mark, and real marks, as before", () => {
    assert.equal(parseAmount("NO 3", {}), null);
    assert.equal(parseAmount("TOTAL 5.00", {}), null);
    assert.equal(parseAmount("SR 8.12", {}), null);
    assert.equal(parseAmount("RM 5.00", {})?.currency, "MYR");
  });
});

describe("correctLabelWord on amount labels", () => {
  it("reads digits OCR put for look-alike letters back as the label word", () => {
    assert.equal(correctLabelWord("t0ta1"), "total");
    assert.equal(correctLabelWord("5ubt0tal"), "subtotal");
    assert.equal(correctLabelWord("r0und1ng"), "rounding");
  });

  it("leaves numbers, rates and words that are no label alone", () => {
    assert.equal(correctLabelWord("1000"), "1000");
    assert.equal(correctLabelWord("sst10%"), "sst10%");
    assert.equal(correctLabelWord("a1b2c"), "a1b2c");
  });
});

describe("receipt totals from OCR-damaged lines", () => {
  it("takes a total whose currency mark OCR misread", () => {
    const got = values([
      row("MILO 1KG", "RM 50.00"),
      row("ROTI", "RM 11.65"),
      row("Total Sales (Inclusive GST)", "RH 61.65"),
      row("CASH", "RM 70.00"),
      row("CHANGE", "RM 8.35"),
    ]);
    assert.equal(got.total, "61.65");
  });

  it("takes tendered minus change when the total's own line is unreadable", () => {
    const got = values([
      row("MILO 1KG", "31.80"),
      row("ROTI", "7.20"),
      [["TOTAL * UO .", 20]],
      row("CASH", "50.00"),
      row("CHANGE", "11.00"),
    ]);
    assert.equal(got.total, "39.00");
  });

  it("keeps a total read surely over tendered minus change when a payment line was misread", () => {
    const got = values([
      row("ROTI", "5.00"),
      row("Total", "5.00"),
      row("Rounding Adjustment", "0.03"),
      row("Total After Rounding", "5.00"),
      row("Cash", "10.09"),
      row("CHANGE", "5.03"),
    ]);
    assert.equal(got.total, "5.00");
  });

  it("takes the tendered amount when no change was given and the total line is unreadable", () => {
    const got = values([
      row("ROTI", "6.60"),
      row("SUB-TOTAL", "6.60"),
      row("BST", "0.40"),
      [["TOTAL * UO .", 20]],
      row("CASH", "7.00"),
      row("CHANGE", "0.00"),
    ]);
    assert.equal(got.total, "7.00");
  });

  it("takes a card payment without change as the total when the total line is unreadable", () => {
    const got = values([row("OPT.O& -", "RM 149.00"), row("DP-O4 -", "RM 21.00"), row("Master Card", "170.00")]);
    assert.equal(got.total, "170.00");
  });

  it("does not take cash tendered for the total when a change line was printed, even one without its amount", () => {
    const got = values([row("ROTI", "RM 6.60"), [["TOTAL * UO .", 20]], row("CASH", "10.00"), [["Change :", 20]]]);
    assert.notEqual(got.total, "10.00");
  });

  it("prefers the total that the printed tax and net amounts confirm over a misread one", () => {
    const got = values([
      row("MARKER BLACK", "12.40"),
      row("Total", "12.40"),
      row("Round Adj", "0.00"),
      row("Final Total", "12.48"),
      row("CASH", "15.00"),
      row("CHANGE", "2.69"),
      [["Summary Amount(RM) Tax(RM)", 20]],
      [
        ["SR @ 6%", 20],
        ["11.70", 200],
        ["0.70", 300],
      ],
    ]);
    assert.equal(got.total, "12.40");
  });

  it("does not let the front of a split amount ('88. 1?') beat a full reading of the total", () => {
    const got = values([
      [["39.54 litre Pump # 07", 20]],
      [
        ["Total", 20],
        ["RM = 88. 1?", 260],
      ],
      [
        ["Visa", 20],
        ["RMN = 88. 17", 260],
      ],
      row("Relief GST", "0.00"),
      row("Total Gross C RN", "88.17"),
    ]);
    assert.equal(got.total, "88.17");
  });

  it("reads a gross amount under a label OCR turned into a tax label as the total, not the tax", () => {
    const got = values([
      row("PLASTIC BAGS", "0.20"),
      row("Total ine GST@6%", "RM 9.00"),
      row("CASH", "RM 10.00"),
      row("CHANGE", "RM 1.00"),
      row("GST @6% included in tota]", "RM 0.51"),
    ]);
    assert.equal(got.total, "9.00");
    assert.notEqual(got.tax, "9.00");
  });

  it("takes net plus tax as the total when the inclusive label lost its letters", () => {
    const got = values([
      row("FLYERS 100", "73.14"),
      row("DESIGN", "31.80"),
      row("Total Sales (Excluding GST) :", "94.34"),
      row("Total GST :", "5.66"),
      row("Rounding", "0.00"),
      row("Total Sales (i clusive of GST)", "100.00"),
    ]);
    assert.equal(got.total, "100.00");
  });
});
