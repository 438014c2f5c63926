/**
 * A British postcode is printed with a space between its outward and inward codes ("SE8 1ZM"); OCR often reads the
 * narrow space away ("SE81ZM"). In an address read by OCR, a word of that shape alone is split again before its
 * inward code (a digit and two letters). Text layers keep what the producer wrote.
 */
import { type FieldDecision, withOcrRepair } from "./decision.js";

/** Outward code (A9, A99, A9A, AA9, AA99, AA9A) run into the inward code (9AA), as a word of its own. */
const GLUED_POSTCODE = /(?<![\p{L}\d])([A-Z]{1,2}\d[A-Z\d]?)(\d[A-Z]{2})(?![\p{L}\d])/gu;

/** The address decision with glued British postcodes spaced (unchanged for text layers). */
export function withPostcodeSpaces(decision: FieldDecision): FieldDecision {
  return withOcrRepair(decision, (value) => value.replace(GLUED_POSTCODE, "$1 $2"));
}
