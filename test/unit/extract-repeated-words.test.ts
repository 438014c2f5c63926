import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveFields } from "../../src/catalog/lookup.js";
import type { Document, Word } from "../../src/document/model.js";
import { extract } from "../../src/extract/index.js";
import { repairFromRepeats } from "../../src/extract/repeated-words.js";
import { type ReceiptRow, receipt } from "../helpers/receipt-document.js";

let nextId = 0;
function word(text: string, confidence = 0.95, source: Word["source"] = "ocr"): Word {
  nextId++;
  return { id: nextId, text, box: { x0: 0.1, y0: 0.1, x1: 0.3, y1: 0.12 }, source, confidence };
}

/** `header` repaired against the document holding it and `others`. */
function repaired(header: Word, others: readonly Word[]): string {
  return repairFromRepeats([header, ...others])(header).text;
}

describe("repairFromRepeats", () => {
  it("puts a header word right to a reading printed twice elsewhere, one letter away, keeping its case", () => {
    const copies = [word("SANYU", 1), word("Sanyu.Stationery", 0.92)];
    assert.equal(repaired(word("SANYO"), copies), "SANYU");
    assert.equal(repaired(word("Sanyo"), copies), "Sanyu");
    assert.equal(repaired(word("(SANYO)"), copies), "(SANYU)");
  });

  it("keeps the word when the other reading is printed once, or read surely nowhere", () => {
    assert.equal(repaired(word("SANYO"), [word("SANYU", 1)]), "SANYO");
    assert.equal(repaired(word("Goardian"), [word("Guardian", 0.41), word("Guardian", 0.6)]), "Goardian");
  });

  it("keeps a word printed elsewhere itself, a header vocabulary word, and short words", () => {
    assert.equal(repaired(word("SANYO"), [word("SANYU"), word("SANYU"), word("SANYO")]), "SANYO");
    assert.equal(repaired(word("TAMAN"), [word("LAMAN"), word("LAMAN")]), "TAMAN");
    assert.equal(repaired(word("ABC"), [word("ABD"), word("ABD")]), "ABC");
  });

  it("keeps the word when two readings are as close, and a text layer's words always", () => {
    assert.equal(repaired(word("SANYO"), [word("SANYU"), word("SANYU"), word("SANYA"), word("SANYA")]), "SANYO");
    assert.equal(repaired(word("SANYO", 1, "text"), [word("SANYU"), word("SANYU")]), "SANYO");
  });
});

describe("a receipt's name read otherwise where it is printed again", () => {
  const rows: ReceiptRow[] = [
    [["SANYO STATIONERY SHOP", 40]],
    [["NO. 31G&33G, JALAN SETIA INDAH X", 20]],
    [["40170 SETIA ALAM", 40]],
    [["TAX INVOICE", 120]],
    [["Owned By :", 20]],
    [["SANYU SUPPLY SDN BHD (1135772-K)", 20]],
    [
      ["Date: 11/01/2019", 20],
      ["Time: 14:05", 240],
    ],
    [
      ["TOTAL", 20],
      ["RM 8.70", 280],
    ],
    [["Follow us in Facebook: Sanyu.Stationery", 20]],
  ];

  function merchantName(doc: Document): unknown {
    const fields = extract(doc, resolveFields({ products: ["receipts"] }));
    return fields.find((f) => f.name === "receipt.merchantName")?.value;
  }

  it("answers the name as its other copies read it", () => {
    assert.equal(merchantName(receipt(rows)), "SANYU STATIONERY SHOP");
  });

  it("answers the name as read when it is printed once", () => {
    assert.equal(merchantName(receipt(rows.slice(0, 8))), "SANYO STATIONERY SHOP");
  });
});
