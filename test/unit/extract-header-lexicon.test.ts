import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Word } from "../../src/document/model.js";
import { headerRepairFor, isTradeWord, repairHeaderWord } from "../../src/extract/header-lexicon.js";
import { buildLayout } from "../../src/extract/layout.js";
import { merchant } from "../../src/extract/parties.js";
import { type ReceiptRow, receipt } from "../helpers/receipt-document.js";

function word(text: string, confidence = 0.8): Word {
  return { id: 1, text, box: { x0: 0.1, y0: 0.1, x1: 0.3, y1: 0.12 }, source: "ocr", confidence };
}

const repaired = (text: string, confidence?: number) => repairHeaderWord(word(text, confidence)).text;

describe("repairHeaderWord", () => {
  it("repairs a doubtful word one letter from a header word, keeping its case and punctuation", () => {
    assert.equal(repaired("Bahtu,"), "Bahru,");
    assert.equal(repaired("LKAWASAN"), "KAWASAN");
    assert.equal(repaired("dalan"), "jalan");
    assert.equal(repaired("BAKERES"), "BAKERIES");
    assert.equal(repaired("Dwner"), "Owner");
  });

  it("repairs each run of letters of a word OCR glued together", () => {
    assert.equal(repaired("Bahtu,Johor"), "Bahru,Johor");
    assert.equal(repaired("7/4,Kawasen"), "7/4,Kawasan");
  });

  it("keeps a word OCR was sure of, and the same object when nothing changes", () => {
    assert.equal(repaired("Bahtu", 0.97), "Bahtu");
    const sure = word("Selangor");
    assert.equal(repairHeaderWord(sure), sure);
  });

  it("keeps words two edits away, short words, plurals and words as close to two header words", () => {
    assert.equal(repaired("Alain"), "Alain");
    assert.equal(repaired("ALAN"), "ALAN");
    assert.equal(repaired("RESTAURANTS"), "RESTAURANTS");
    assert.equal(repaired("CENTEE"), "CENTEE", "one edit from both centre and center");
    assert.equal(repaired("GARDENIA"), "GARDENIA");
  });

  it("tells trade words in either number and case from other words", () => {
    assert.ok(isTradeWord("BORONG") && isTradeWord("Restaurants") && isTradeWord("pasaraya"));
    assert.ok(!isTradeWord("SEVEN") && !isTradeWord("JALAN"));
  });

  it("repairs only where the lexicon is the document's language", () => {
    assert.equal(headerRepairFor("en")(word("Bahtu")).text, "Bahru");
    assert.equal(headerRepairFor(null)(word("Bahtu")).text, "Bahru");
    assert.equal(headerRepairFor("de")(word("Markt")).text, "Markt");
    assert.equal(headerRepairFor("en")(word("Markt")).text, "Market");
  });
});

describe("merchant with header words repaired", () => {
  const rows = (...texts: string[]): ReceiptRow[] => texts.map((text) => [[text, 20]]);
  const doubtful = receipt(
    rows(
      "GOLDEN BAKERES SDN BHD",
      "12, JALAN MAPLE 7/4,",
      "81200 JOHOR BAHTU, JOHOR",
      "TEL: 07-5541 2200",
      "TAX INVOICE",
    ),
    0.8,
  );

  it("reads the name and address with their misread header words repaired", () => {
    const party = merchant(buildLayout(doubtful), headerRepairFor("en"));
    assert.equal(party.name.best?.value, "GOLDEN BAKERIES SDN BHD");
    assert.equal(party.address.best?.value, "12, JALAN MAPLE 7/4, 81200 JOHOR BAHRU, JOHOR");
  });

  it("leaves a trade name printed above the address out of it", () => {
    const shop = receipt(
      rows(
        "SUPER SEVEN CASH & CARRY SDN BHD",
        "PASARAYA BORONG SUPER SEVEN",
        "NO. 1 JALAN EURO 1",
        "40150 SHAH ALAM",
        "TEL: 03-7859 0861",
      ),
    );
    assert.equal(merchant(buildLayout(shop)).address.best?.value, "NO. 1 JALAN EURO 1, 40150 SHAH ALAM");
  });

  it("leaves them as read without a repair", () => {
    const party = merchant(buildLayout(doubtful));
    assert.equal(party.name.best?.value, "GOLDEN BAKERES SDN BHD");
    assert.match(party.address.best?.value ?? "", /BAHTU/);
  });
});
