import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveFields } from "../../src/catalog/lookup.js";
import type { Document } from "../../src/document/model.js";
import { extract } from "../../src/extract/index.js";
import { type ReceiptRow, receipt } from "../helpers/receipt-document.js";

const HEADER: ReceiptRow[] = [
  [["KEDAI RUNCIT MAJU SDN BHD", 40]],
  [["NO 12, JALAN MERANTI 3, 43000 KAJANG", 40]],
  [["TAX INVOICE", 120]],
  [["Date: 11/01/2019 14:05", 20]],
];

const row = (label: string, amount: string): ReceiptRow => [
  [label, 20],
  [amount, 300],
];

function totalOf(document: Document): { value: string | null; confidence: number } {
  const field = extract(document, resolveFields({ products: ["receipts"] })).find((f) => f.name === "receipt.total");
  return { value: typeof field?.value === "string" ? field.value : null, confidence: field?.confidence ?? 0 };
}

const total = (rows: ReceiptRow[]) => totalOf(receipt([...HEADER, ...rows]));

/** The receipt with the words of `text` read at OCR confidence `confidence`, the rest at 0.95. */
function withConfidence(rows: ReceiptRow[], text: string, confidence: number): Document {
  const document = receipt([...HEADER, ...rows]);
  for (const page of document.pages) {
    for (const word of page.words) if (word.text === text) word.confidence = confidence;
  }
  return document;
}

describe("receipt totals rounded to the coin", () => {
  it("takes the amount printed below a rounding line over the unrounded total above it", () => {
    const got = total([
      row("SOAP", "RM 177.22"),
      row("Total Sales (Inclusive GST)", "RM 177.22"),
      [["Rounding Adjustment R -02", 20]],
      row("Rounding", "RM 177.20"),
      row("CHANGE", "RM 0.00"),
    ]);
    assert.equal(got.value, "177.20");
  });

  it("takes the card payment that the total plus the rounding adjustment adds up to", () => {
    const got = total([
      row("MEE GORENG", "61.82"),
      row("Total (Inclusive of GST):", "65.53"),
      row("Rounding Adj:", "0.02"),
      row("VISA", "65.55"),
    ]);
    assert.equal(got.value, "65.55");
  });

  it("does not round to an amount the printed rounding adjustment does not explain", () => {
    const got = total([
      row("MEE GORENG", "61.82"),
      row("Total (Inclusive of GST):", "65.53"),
      row("Rounding Adj:", "0.02"),
      row("VISA", "65.58"),
    ]);
    assert.equal(got.value, "65.53");
  });

  it("confirms a doubtfully read payment as net plus tax after the rounding adjustment", () => {
    const rows: ReceiptRow[] = [
      row("PEN BLUE 1 28.00 7.14", "26.00"),
      row("SUB-TOTAL (EX)", "26.00"),
      row("TOTAL TAX :", "1.56"),
      row("ROUNDING", "-0.01"),
      row("CASH", "27.55"),
      row("CHANGE", "0.00"),
      [["GST SUMMARY", 20]],
      [
        ["SR 6.00", 20],
        ["26.00", 220],
        ["1.56", 300],
      ],
      [
        ["TOTAL :", 20],
        ["26.00", 220],
        ["1.56", 300],
      ],
    ];
    assert.equal(totalOf(withConfidence(rows, "27.55", 0.5)).value, "27.55");
  });

  it("takes net plus tax after the rounding adjustment over a net amount labelled total", () => {
    const got = total([
      row("PEN BLUE", "26.00"),
      row("SUB-TOTAL (EX)", "26.00"),
      row("TOTAL TAX :", "1.56"),
      row("ROUNDING", "-0.01"),
      row("CASH", "27.55"),
      row("CHANGE", "0.00"),
      [["GST SUMMARY", 20]],
      [
        ["TOTAL :", 20],
        ["26.00", 220],
        ["1.56", 300],
      ],
    ]);
    assert.equal(got.value, "27.55");
  });
});

describe("receipt totals misread by one digit", () => {
  it("reads the total line as tendered minus change when they differ in one digit", () => {
    const got = total([row("NASI LEMAK", "48.10"), row("TOTAL", "48.60"), row("CASH", "50.00"), row("CHANGE", "1.90")]);
    assert.equal(got.value, "48.10");
  });

  it("reads the total line as the surer reading of an exact payment", () => {
    const rows = [row("TOTAL QUANTITY", "1"), row("TOTAL", "110.60"), row("CASH", "110.00"), row("CHANGE", "0.00")];
    assert.equal(totalOf(withConfidence(rows, "110.60", 0.7)).value, "110.00");
  });

  it("keeps a total printed twice over an exact payment one digit away, however surely read", () => {
    const rows: ReceiptRow[] = [
      row("Total Amount:", "$8.20"),
      row("Nett Total:", "$8.20"),
      row("CASH", "$3.20"),
      row("Change", "$0.00"),
    ];
    assert.equal(totalOf(withConfidence(rows, "$8.20", 0.7)).value, "8.20");
  });

  it("reads the total line as net plus tax when the printed rate confirms them", () => {
    const got = total([row("SUB TOTAL", "10.00"), row("GST 6%", "0.60"), row("TOTAL", "10.50")]);
    assert.equal(got.value, "10.60");
  });

  it("keeps a printed total that only a net plus tax without a rate puts one digit away", () => {
    const got = total([row("SUB TOTAL", "10.00"), row("SERVICE TAX", "0.70"), row("TOTAL", "10.50")]);
    assert.equal(got.value, "10.50");
  });

  it("keeps a total printed after a rounding line that the unrounded arithmetic misses by the rounding", () => {
    const got = total([
      row("(Excluded GST) Sub Total :", "234.00"),
      row("Total GST :", "14.04"),
      row("Rounding :", "0.0'1"),
      row("Total :", "248.05"),
      row("CASH :", "250.00"),
      row("Change :", "1.96"),
    ]);
    assert.equal(got.value, "248.05");
  });

  it("reads a total under a damaged rounding label in whole coins: net plus tax after the printed adjustment", () => {
    const rows: ReceiptRow[] = [
      row("(Excluded GST) Sub Total (RM) :", "106.10"),
      row("Total GST (RM) :", "6.37"),
      row("Roundlng (RM) :", "-0.02"),
      row("Total (RM) :", "112.46"),
      row("Change (RM) :", "0.00"),
    ];
    const got = totalOf(withConfidence(rows, "Roundlng", 0.65));
    assert.equal(got.value, "112.45");
  });

  it("counts a paid amount with change below it as tendered", () => {
    const got = total([
      row("Total (Incl GST)", "RM21.83"),
      row("Rounding", "RM0.02"),
      [["Grand Total RM2 1 .85", 20]],
      row("Total Paid", "RM50.00"),
      row("Change", "RM28.15"),
    ]);
    assert.equal(got.value, "21.85");
  });
});

describe("receipt totals over several tax rates", () => {
  const parts = (payable: string): ReceiptRow[] => [
    row("Total 0% supplies:", "20.67"),
    row("BUN-SBILIS 0.84 20", "16.80"),
    row("Total 6% supplies (excl. GST):", "69.36"),
    row("GST:", "4.16"),
    row("Total 6% supplies (Inc. GST):", "73.52"),
    row("Total 0% supplies:", "20.67"),
    row("Total Payable:", payable),
  ];

  it("takes the total to pay that the per-rate totals above add up to", () => {
    assert.equal(total(parts("94.19")).value, "94.19");
  });

  it("reads a total to pay that lost a digit as the sum of the per-rate totals", () => {
    assert.equal(total(parts("4.19")).value, "94.19");
  });

  it("reads a total to pay misread in one digit as the sum of the per-rate totals", () => {
    assert.equal(total(parts("94.16")).value, "94.19");
  });

  it("reads a total misread into the largest amount as the sum of the smaller per-rate totals", () => {
    const got = total([
      row("Total 0% supplies:", "26.61"),
      row("Total 6% supplies (Inc. GST):", "35.99"),
      row("Total Payable:", "62.66"),
    ]);
    assert.equal(got.value, "62.60");
  });
});

describe("receipt totals beside a rate", () => {
  it("does not take the rate of a tax label for the total", () => {
    const got = total([
      row("ITEM 766271", "22.00"),
      [
        ["Total Amt Incl. GST @ 6 % :", 20],
        ["27 00", 300],
      ],
      row("Rounding Adjustment", "0.00"),
      row("Total Amt Payable :", "27.00"),
      [["Total Qty Tender 6", 20]],
    ]);
    assert.equal(got.value, "27.00");
  });
});

describe("receipt totals the payment speaks against", () => {
  it("lowers the confidence of a total that tendered minus change contradicts", () => {
    const contradicted = total([row("TOTAL", "45.60"), row("CASH", "50.00"), row("CHANGE", "1.90")]);
    const consistent = total([row("TOTAL", "45.60"), row("CASH", "50.00"), row("CHANGE", "4.40")]);
    assert.equal(contradicted.value, "45.60");
    assert.ok(contradicted.confidence < 0.8, `confidence ${contradicted.confidence}`);
    assert.ok(consistent.confidence > 0.9, `confidence ${consistent.confidence}`);
  });
});

describe("receipt totals rounded without the rounded amount printed", () => {
  it("moves the total to the nearest coin when the printed adjustment is that move", () => {
    const got = total([
      row("SERVICE CHARGE", "RM 5.83"),
      row("Total Sales (Incl GST 6%)", "RM 64.13"),
      row("Rounding Adjustment", "RM 0.02"),
      row("GST Summary", "3.63"),
    ]);
    assert.equal(got.value, "64.15");
    const tenCents = total([row("SERVICE CHARGE", "5.83"), row("TOTAL", "64.13"), row("Rounding", "-0.03")]);
    assert.equal(tenCents.value, "64.10");
  });

  it("keeps the printed total when the rounding line stands under the payment: it rounds the change", () => {
    const got = total([
      row("SUBTOTAL", "13.78"),
      row("TOTAL", "13.78"),
      row("CASH", "20.00"),
      row("ROUNDING ADJUSTMENTS", "0.02"),
      row("CHANGE DUE", "6.20"),
    ]);
    assert.equal(got.value, "13.78");
  });

  it("reads no lost total line off a payment that the printed rounding adjustment explains", () => {
    const got = total([
      row("SUBTOTAL", "478.33"),
      row("SALES TAX 8.875%", "42.45"),
      row("AMOUNT DUE", "$520.78"),
      row("Cash", "530.00"),
      row("Rounding Adj", "0.02"),
      row("CHANGE DUE", "9.20"),
    ]);
    assert.equal(got.value, "520.78");
  });

  it("keeps the printed total when the adjustment is no move to a coin", () => {
    assert.equal(total([row("SERVICE CHARGE", "5.83"), row("TOTAL", "64.13"), row("Rounding", "0.01")]).value, "64.13");
  });
});

describe("receipt amounts whose cents OCR set apart", () => {
  it("reads 'RM96. 20' as an amount with cents: cash minus change makes it the total", () => {
    const got = total([
      row("FRIED RICE", "RM5.90"),
      row("ICED TEA", "RM15.90"),
      row("SUBTOTAL", "RM96. 20"),
      row("CASH", "RM100 .00"),
      row("YOUR CHANGE", "RM3. 80"),
    ]);
    assert.equal(got.value, "96.20");
  });

  it("takes cash paid exactly, its cents set apart, when the parts add up to it", () => {
    const got = total([row("DEPT 05", "RM 149.00"), row("DEPT 84", "RM 21.00"), row("CASH", "RM 170. 00")]);
    assert.equal(got.value, "170.00");
  });
});

describe("receipt total labels", () => {
  it("reads 'TOTAL (GST INCL)' as the total: the tax named before its inclusion is the qualifier's", () => {
    const got = total([
      row("SUBTOTAL", "2.56"),
      row("TOTAL (GST INCL)", "2.56"),
      row("CASH", "50.55"),
      row("ROUNDING ADJUSTMENTS", "0.01-"),
      row("CHANGE DUE", "48.00"),
    ]);
    assert.equal(got.value, "2.56");
  });

  it("reads a pay station's 'Accepted total' as the amount handed over, not the total", () => {
    const got = total([
      row("010100 Pay parking ticket", "1.50 RM"),
      row("Total amount", "1.50 RM"),
      row("Accepted total", "2.00 RM"),
      row("Change", "0.50 RM"),
    ]);
    assert.equal(got.value, "1.50");
  });
});
