/**
 * Letters a reading of a scan in the page's language still loses (issue #16: accented names exact on scanned
 * invoices): the "ß" and "ü" a German reading read as "B" and "ii", put back inside lower-case words, never in
 * camel-cased brand names or upper-case words; the "è" a French reading read as "é" before a consonant and a final
 * mute "e".
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { frenchLetters, germanLetters, inLanguage, inPageLanguage } from "../../src/ingest/ocr/lost-letters.js";

describe("germanLetters", () => {
  it("puts back the ß read as B inside and at the end of a word", () => {
    assert.equal(germanLetters("LieferantenstraBe"), "Lieferantenstraße");
    assert.equal(germanLetters("GroBhandel"), "Großhandel");
    assert.equal(germanLetters("heiBt"), "heißt");
    assert.equal(germanLetters("FuB,"), "Fuß,");
    assert.equal(germanLetters("AuBendienst"), "Außendienst");
  });

  it("puts back the ü read as ii between letters", () => {
    assert.equal(germanLetters("griin"), "grün");
    assert.equal(germanLetters("fiir"), "für");
    assert.equal(germanLetters("Miinchen"), "München");
  });

  it("keeps a B that is no ß and an ii that is no ü", () => {
    for (const word of [
      "PayBack",
      "DropBox",
      "eBay",
      "CLUB",
      "GmbH",
      "BeiSpiel",
      "ABB",
      "Bad",
      "AB12B",
      "Hawaii",
      "II",
    ]) {
      assert.equal(germanLetters(word), word);
    }
  });

  it("repairs German and French pages only, keeping each word's box and confidence", () => {
    const box = { x0: 0.1, y0: 0.2, x1: 0.3, y1: 0.25 };
    const [word] = inPageLanguage([{ text: "StraBe", box, confidence: 0.8 }], "deu");
    assert.deepEqual(word, { text: "Straße", box, confidence: 0.8 });
    assert.equal(inLanguage("StraBe", undefined), "StraBe");
    assert.equal(inLanguage("griin", "nld"), "griin");
    assert.equal(inLanguage("Lumiére", "fra"), "Lumière");
    assert.equal(inLanguage("Lumiére", "deu"), "Lumiére");
  });
});

describe("frenchLetters", () => {
  it("puts back the è read as é before a consonant and a final mute e", () => {
    assert.equal(frenchLetters("Lumiére"), "Lumière");
    assert.equal(frenchLetters("Riviéres,"), "Rivières,");
    assert.equal(frenchLetters("piéce"), "pièce");
    assert.equal(frenchLetters("Héléne"), "Hélène");
    assert.equal(frenchLetters("LUMIÉRE"), "LUMIÈRE");
  });

  it("keeps an é that French writes", () => {
    for (const word of ["Société", "Renée", "André", "Hôtelière", "événement", "réglementé", "Élodie"]) {
      assert.equal(frenchLetters(word), word);
    }
  });
});
