import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PRODUCTS } from "../../src/catalog/catalog.js";
import { resolveFields } from "../../src/catalog/lookup.js";
import type { Document, Word } from "../../src/document/model.js";
import { extract } from "../../src/extract/index.js";
import { receipt } from "../helpers/receipt-document.js";

const RECEIPT = receipt([
  [["KEDAI RUNCIT MAJU SDN BHD", 40]],
  [["(123456-X)", 120]],
  [["NO 12, JALAN MERANTI 3,", 40]],
  [["TAMAN MERANTI, 43000 KAJANG", 40]],
  [["TEL: 03-8734 1234", 40]],
  [["MEMBER 430017 KEDAIRUN", 40]],
  [["TAX INVOICE", 120]],
  [
    ["Date: 11/01/2019", 20],
    ["Time: 14:05", 240],
  ],
  [
    ["MILO 1KG", 20],
    ["2", 200],
    ["31.80", 300],
  ],
  [
    ["ROTI", 20],
    ["1", 200],
    ["2.50", 300],
  ],
  [
    ["SUB TOTAL", 20],
    ["34.30", 300],
  ],
  [
    ["GST 6%", 20],
    ["2.06", 300],
  ],
  [
    ["ROUNDING", 20],
    ["-0.01", 300],
  ],
  [
    ["TOTAL", 20],
    ["RM 36.35", 280],
  ],
  [
    ["CASH", 20],
    ["50.00", 300],
  ],
  [
    ["CHANGE", 20],
    ["13.65", 300],
  ],
  [["THANK YOU PLEASE COME AGAIN", 20]],
]);

function fieldValue(doc: Document, name: string, locale?: string): string | null {
  const fields = extract(doc, resolveFields({ products: ["receipts", "documents"] }), { locale });
  const value = fields.find((f) => f.name === name)?.value;
  return typeof value === "string" ? value : null;
}

describe("extract on a till receipt", () => {
  it("finds merchant, address, date, time, total, tax and currency", () => {
    // The item lines are receipt.lineItems' concern (test/unit/line-items-field.test.ts).
    const fields = extract(RECEIPT, resolveFields({ products: ["receipts"] })).filter(
      (f) => f.name !== "receipt.lineItems",
    );
    const byName = Object.fromEntries(fields.map((f) => [f.name, f.value]));
    assert.deepEqual(byName, {
      "receipt.merchantName": "KEDAI RUNCIT MAJU SDN BHD",
      "receipt.merchantAddress": "NO 12, JALAN MERANTI 3, TAMAN MERANTI, 43000 KAJANG",
      "receipt.date": "2019-01-11",
      "receipt.time": "14:05",
      "receipt.total": "36.35",
      "receipt.tax": "2.06",
      "receipt.currency": "MYR",
    });
  });

  it("takes the total paid, not the subtotal, the cash tendered or the change", () => {
    assert.equal(fieldValue(RECEIPT, "receipt.total"), "36.35");
  });

  it("calls a narrow page with cash and change a receipt", () => {
    assert.equal(fieldValue(RECEIPT, "document.type"), "receipt");
  });
});

/** A cafe receipt from elsewhere: the operator's registered name between the trading name and the address. */
const OPERATED = receipt([
  [["THE CORNER CAFE", 40]],
  [["Corner Foods Ltd (045123)", 40]],
  [["12 High Street,", 40]],
  [["London SW1A 1AA", 40]],
  [["Date: 03/05/2024 09:41", 20]],
  [
    ["Flat white", 20],
    ["3.40", 300],
  ],
  [
    ["Croissant", 20],
    ["2.75", 300],
  ],
  [["Total Amt Incl. Tax @20 4:", 20]],
  [["Total Amt Payable : 6.15", 20]],
  [
    ["CARD", 20],
    ["6.15", 300],
  ],
]);

describe("extract on receipts with a legal name and registration numbers", () => {
  it("leaves the operator's registered name out of the address", () => {
    assert.equal(fieldValue(OPERATED, "receipt.merchantName"), "THE CORNER CAFE");
    assert.equal(fieldValue(OPERATED, "receipt.merchantAddress"), "12 High Street, London SW1A 1AA");
  });

  it("does not take a number followed by a colon for the total", () => {
    assert.equal(fieldValue(OPERATED, "receipt.total"), "6.15");
  });

  it("cuts a bracketed registration number from the name but keeps a bracketed branch", () => {
    const doc = receipt([
      [["SUNRISE BAKERIES (KL) SDN BHD (139386 X)", 40]],
      [["LOT 3, JALAN PELABUR 23/1,", 40]],
      [["40300 SHAH ALAM, SELANGOR.", 40]],
      [
        ["TOTAL", 20],
        ["12.40", 300],
      ],
    ]);
    assert.equal(fieldValue(doc, "receipt.merchantName"), "SUNRISE BAKERIES (KL) SDN BHD");
  });

  it("puts right a premises word and a place OCR read as other glyphs of the same shape", () => {
    const doc = receipt([
      [["KEDAI RUNCIT MAJU SDN BHD", 40]],
      [["Bik 2, Unit G1, Jalan SS 2/6,", 40]],
      [["47300 Fetaling Jaya, Selangor", 40]],
      [
        ["TOTAL", 20],
        ["12.40", 300],
      ],
    ]);
    assert.equal(
      fieldValue(doc, "receipt.merchantAddress"),
      "Blk 2, Unit G1, Jalan SS 2/6, 47300 Petaling Jaya, Selangor",
    );
  });

  it("ends the address at a line of till chatter: a guest check, a payment", () => {
    for (const chatter of ["Guest Check", "CARRY OUT NOW Pay By: CASH"]) {
      const doc = receipt([
        [["KEDAI RUNCIT MAJU SDN BHD", 40]],
        [["Lot 50, Floor T2, Sky Avenue,", 40]],
        [["69000 Genting Highlands, Pahang", 40]],
        [[chatter, 40]],
        [
          ["TOTAL", 20],
          ["12.40", 300],
        ],
      ]);
      assert.equal(
        fieldValue(doc, "receipt.merchantAddress"),
        "Lot 50, Floor T2, Sky Avenue, 69000 Genting Highlands, Pahang",
      );
    }
  });

  it("reads a date OCR glued to the next label or a smudge", () => {
    for (const [line, date] of [
      ["Date: 21/05/2018Time: 11:12:56AM", "2018-05-21"],
      ["INV NO: CS-0118810 Date : 20/10/2017*--.", "2017-10-20"],
    ]) {
      const doc = receipt([
        [["KEDAI RUNCIT MAJU SDN BHD", 40]],
        [[line ?? "", 20]],
        [
          ["TOTAL", 20],
          ["12.40", 300],
        ],
      ]);
      assert.equal(fieldValue(doc, "receipt.date"), date);
    }
  });

  it("runs a name on over three lines where a bracket OCR read as a brace closes on the last", () => {
    const doc = receipt([
      [["AIK HUAT HARDWARE", 60]],
      [["ENTERPRISE {SETIA", 60]],
      [["ALAM) SDN BHD", 60]],
      [["NO. 17-G, JALAN SETIA INDAH,", 40]],
      [["40170 SHAH ALAM, SELANGOR.", 40]],
      [
        ["TOTAL", 20],
        ["12.40", 300],
      ],
    ]);
    assert.equal(fieldValue(doc, "receipt.merchantName"), "AIK HUAT HARDWARE ENTERPRISE (SETIA ALAM) SDN BHD");
  });
});

describe("extract on OCR-damaged receipt headers", () => {
  const header = (name: string, extra: Array<Array<[string, number]>> = []) =>
    receipt([
      [[name, 40]],
      ...extra,
      [
        ["TOTAL", 20],
        ["12.40", 300],
      ],
    ]);

  it("puts misread legal forms right, in the name's case", () => {
    assert.equal(
      fieldValue(header("SUPER SEVEN CASH & CARRY SDN 3HD"), "receipt.merchantName"),
      "SUPER SEVEN CASH & CARRY SDN BHD",
    );
    assert.equal(fieldValue(header("AMANO MALAYSIA SON BHD"), "receipt.merchantName"), "AMANO MALAYSIA SDN BHD");
    assert.equal(fieldValue(header("BEMED (SP) SON. BUD."), "receipt.merchantName"), "BEMED (SP) SDN. BHD.");
    assert.equal(fieldValue(header("Harbour Trading Pty LTO"), "receipt.merchantName"), "Harbour Trading Pty Ltd");
    assert.equal(fieldValue(header("Bäckerei Huber GnbH"), "receipt.merchantName"), "Bäckerei Huber GmbH");
  });

  it("leaves names that only end in a word like a legal form alone", () => {
    assert.equal(fieldValue(header("BLUE LID"), "receipt.merchantName"), "BLUE LID");
    assert.equal(fieldValue(header("KEDAI RUNCIT ZBH"), "receipt.merchantName"), "KEDAI RUNCIT ZBH");
  });

  it("drops a label before the legal name but keeps a name that only contains a colon", () => {
    assert.equal(fieldValue(header("OWNED BY: CHEF LEE SDN BHD"), "receipt.merchantName"), "CHEF LEE SDN BHD");
    assert.equal(fieldValue(header("Betreiber: Huber Handels GmbH"), "receipt.merchantName"), "Huber Handels GmbH");
    assert.equal(fieldValue(header("CAFE: THE CORNER"), "receipt.merchantName"), "CAFE: THE CORNER");
  });

  it("reads currency signs inside a name as the letters OCR took them for", () => {
    assert.equal(fieldValue(header("99 SPEED MART $/B"), "receipt.merchantName"), "99 SPEED MART S/B");
    assert.equal(fieldValue(header("MR. D.I.¥. (M) SDN BHD"), "receipt.merchantName"), "MR. D.I.Y. (M) SDN BHD");
  });

  it("cuts an unbracketed registration number after the name and still prefers the legal name", () => {
    const doc = receipt([
      [["MOONLIGHT CAKE HOUSE SDN BHD 862725-U", 40]],
      [["No.1, Jalan Permas 10/5,", 40]],
      [["81750 Johor Bahru", 40]],
      [
        ["TOTAL", 20],
        ["12.40", 300],
      ],
    ]);
    assert.equal(fieldValue(doc, "receipt.merchantName"), "MOONLIGHT CAKE HOUSE SDN BHD");
  });

  it("reads an address across specks and a village line that starts with a legal-form word", () => {
    const doc = receipt([
      [["SIN THYE & COMPANY", 40]],
      [["NO.54, BATU 5,JALAN IPOH,", 40]],
      [["|", 60]],
      [["KG. BATU", 40]],
      [["5220@ KUALA LUMPUR", 40]],
      [["TEL: 03-6258 0869", 40]],
      [
        ["TOTAL", 20],
        ["12.40", 300],
      ],
    ]);
    assert.equal(fieldValue(doc, "receipt.merchantAddress"), "NO.54, BATU 5,JALAN IPOH, KG. BATU, 5220@ KUALA LUMPUR");
  });
});

describe("extract output", () => {
  it("has exactly the catalogue's fields, in order, for every product", () => {
    for (const product of PRODUCTS) {
      const wanted = resolveFields({ products: [product.id] });
      const fields = extract(RECEIPT, wanted);
      assert.deepEqual(
        fields.map((f) => f.name),
        wanted.map((f) => f.name),
        product.id,
      );
      for (const f of fields) {
        assert.ok(f.confidence >= 0 && f.confidence <= 1, `${f.name} confidence ${f.confidence}`);
        if (f.value === null) assert.equal(f.boundingBox, null, `${f.name}: no box without a value`);
      }
    }
  });

  it("boxes name existing words and are the union of their boxes", () => {
    const words = new Map(RECEIPT.pages[0]?.words.map((w) => [w.id, w]));
    const fields = extract(RECEIPT, resolveFields({ products: ["invoices", "receipts", "documents"] }));
    for (const f of fields) {
      if (!f.boundingBox) continue;
      const own = f.boundingBox.tokenIds.map((id) => words.get(id));
      assert.ok(
        own.every((w) => w !== undefined),
        `${f.name} tokenIds exist`,
      );
      const boxes = own.map((w) => (w as Word).box);
      assert.equal(f.boundingBox.topLeft.x, Math.min(...boxes.map((b) => b.x0)), f.name);
      assert.equal(f.boundingBox.topLeft.y, Math.min(...boxes.map((b) => b.y0)), f.name);
      assert.equal(f.boundingBox.bottomRight.x, Math.max(...boxes.map((b) => b.x1)), f.name);
      assert.equal(f.boundingBox.bottomRight.y, Math.max(...boxes.map((b) => b.y1)), f.name);
    }
  });

  it("does not take bare six-digit numbers or capital words for bank codes", () => {
    const fields = extract(RECEIPT, resolveFields({ fieldSets: ["payment"] }));
    for (const f of fields) assert.equal(f.value, null, `${f.name} = ${f.value}`);
  });

  it("returns every field null with a confidence on an empty document", () => {
    const empty: Document = {
      type: "png",
      pages: [{ pageNum: 1, width: 100, height: 100, source: "ocr", words: [], lines: [] }],
    };
    const fields = extract(empty, resolveFields({ products: ["invoices", "receipts"] }));
    for (const f of fields) {
      assert.equal(f.value, null, f.name);
      assert.ok(f.confidence > 0 && f.confidence <= 1, f.name);
    }
  });
});
