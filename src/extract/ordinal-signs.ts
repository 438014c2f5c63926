/**
 * Spanish and Portuguese addresses give a floor or door after the house number with an ordinal sign ("Calle Mayor 5,
 * 2º", "Rua Augusta 10, 3º"). OCR reads the small raised o as a degree sign ("2°") or as a "2" ("5, 22,"): in an
 * address of those languages read by OCR, both are put back as "º". A "2" is taken for the sign only after a single
 * digit standing alone between two commas right after the house number, a place where a floor or door is printed
 * and a two-digit number ending in 2 would be one with its sign lost.
 */
import { type FieldDecision, withOcrRepair } from "./decision.js";

const LANGUAGES: ReadonlySet<string | null> = new Set(["es", "pt"]);
const DEGREE = /(\d)°/g;
const TWO_FOR_SIGN = /(\d{1,5}[a-z]?, \d)2(?=,)/giu;

/** The address decision with the ordinal signs OCR misread put back (unchanged for other languages and text layers). */
export function withOrdinalSigns(decision: FieldDecision, language: string | null): FieldDecision {
  if (!LANGUAGES.has(language)) return decision;
  return withOcrRepair(decision, (value) => value.replace(DEGREE, "$1º").replace(TWO_FOR_SIGN, "$1º"));
}
