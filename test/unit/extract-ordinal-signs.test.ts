/**
 * The ordinal sign of a Spanish or Portuguese floor ("Calle Mayor 111, 6º") as OCR misreads it: a degree sign or a
 * "2" (src/extract/ordinal-signs.ts). Decisions are built here, not taken from a corpus.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Word } from "../../src/document/model.js";
import type { FieldDecision } from "../../src/extract/decision.js";
import { withOrdinalSigns } from "../../src/extract/ordinal-signs.js";

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
