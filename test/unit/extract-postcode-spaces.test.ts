/**
 * British postcodes whose space OCR read away ("SE81ZM"), spaced again in OCR'd addresses
 * (src/extract/postcode-spaces.ts). Decisions are built here, not taken from a corpus.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Word } from "../../src/document/model.js";
import type { FieldDecision } from "../../src/extract/decision.js";
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
