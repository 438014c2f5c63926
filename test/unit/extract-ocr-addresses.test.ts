/**
 * Addresses OCR misread in ways the address's own conventions put right: the ordinal sign of a Spanish or Portuguese
 * floor ("Calle Mayor 111, 6º") read as a degree sign or a "2" (src/extract/ordinal-signs.ts), and a British postcode
 * read without its space ("SE81ZM", src/extract/postcode-spaces.ts). Decisions are built here, not taken from a corpus.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Word } from "../../src/document/model.js";
import type { FieldDecision } from "../../src/extract/decision.js";
import { withOrdinalSigns } from "../../src/extract/ordinal-signs.js";
import { withPostcodeSpaces } from "../../src/extract/postcode-spaces.js";

function address(value: string, source: Word["source"] = "ocr"): FieldDecision {
  const words = value.split(" ").map((text, id) => ({
    id,
    text,
    box: { x0: 0.1, y0: 0.1, x1: 0.2, y1: 0.12 },
    source,
    confidence: 0.9,
  }));
  return { family: "address", best: { value, score: 1, words } };
}

const repaired = (decision: FieldDecision) => decision.best?.value;

describe("ordinal signs in OCR'd addresses", () => {
  it("puts back a floor's sign read as a 2 or a degree sign in Spanish and Portuguese", () => {
    assert.equal(
      repaired(withOrdinalSigns(address("Calle Mayor 111, 62, 50001 Zaragoza"), "es")),
      "Calle Mayor 111, 6º, 50001 Zaragoza",
    );
    assert.equal(
      repaired(withOrdinalSigns(address("CALLE DE ALCALÁ 24, 2°, 41001 SEVILLA"), "es")),
      "CALLE DE ALCALÁ 24, 2º, 41001 SEVILLA",
    );
    assert.equal(
      repaired(withOrdinalSigns(address("Rua Augusta 10, 32, 1100-053 Lisboa"), "pt")),
      "Rua Augusta 10, 3º, 1100-053 Lisboa",
    );
  });

  it("leaves postcodes, house numbers, other languages and text layers alone", () => {
    for (const [value, language, source] of [
      ["Calle Mayor 12, 28012 Madrid", "es", "ocr"],
      ["Calle Mayor 112, 62 Madrid", "es", "ocr"],
      ["12 High Street, 62, Leeds", "en", "ocr"],
      ["Calle Mayor 111, 62, 50001 Zaragoza", "es", "text"],
    ] as const) {
      assert.equal(repaired(withOrdinalSigns(address(value, source), language)), value);
    }
  });
});

const spaced = (value: string, source: Word["source"] = "ocr") =>
  withPostcodeSpaces(address(value, source)).best?.value;

describe("British postcodes in OCR'd addresses", () => {
  it("spaces an outward code run into its inward code, whatever the outward code's shape", () => {
    assert.equal(
      spaced("129 Victoria Road, Manchester, SE81ZM, United Kingdom"),
      "129 Victoria Road, Manchester, SE8 1ZM, United Kingdom",
    );
    assert.equal(spaced("10 Station Road, Leeds, GN115MS"), "10 Station Road, Leeds, GN11 5MS");
    assert.equal(spaced("129 Station Road, Bristol, HD11DH"), "129 Station Road, Bristol, HD1 1DH");
    assert.equal(spaced("1 Downing St, London SW1A2AA"), "1 Downing St, London SW1A 2AA");
  });

  it("leaves spaced postcodes, other codes and text layers alone", () => {
    assert.equal(spaced("210 Baker Street, Glasgow, MQ8 1NA"), "210 Baker Street, Glasgow, MQ8 1NA");
    assert.equal(spaced("B-8, JALAN SS15/4D, 47500 SUBANG JAYA"), "B-8, JALAN SS15/4D, 47500 SUBANG JAYA");
    assert.equal(spaced("Stationsweg 202, 2046JI Den Haag"), "Stationsweg 202, 2046JI Den Haag");
    assert.equal(spaced("LOT PTD101051, 81750 MASAI"), "LOT PTD101051, 81750 MASAI");
    assert.equal(spaced("Unit 3, Leeds, LS12AB", "text"), "Unit 3, Leeds, LS12AB");
  });
});
