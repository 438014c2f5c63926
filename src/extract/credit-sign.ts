/**
 * The catalogue gives a credit's amounts negative ("invoice.total: negative for credits"). Many credit notes print
 * them positive under a title that says what they are ("AVOIR N°", "Gutschrift", "Credit note"): there the totals
 * read are turned, the printed words kept as their evidence (line items stay as printed, as the README says). Pure
 * functions; index.ts decides when a document is such a credit note (its type, and a total printed positive).
 */
import type { FieldDecision } from "./decision.js";

/** "-12.50" for "12.50"; the value as it is when zero, negative already, or no number. */
export function negated(value: string): string {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || !/^\d/.test(value)) return value;
  return `-${value}`;
}

/**
 * A decision with its amount negated, and its alternatives' (the same words, scores and features): a learned ranker
 * that chooses among them again gives the sign too.
 */
export function creditSigned(decision: FieldDecision): FieldDecision {
  const best = decision.best;
  const alternatives = decision.alternatives?.map((a) => ({
    ...a,
    scored: { ...a.scored, value: negated(a.scored.value) },
  }));
  return {
    ...decision,
    best: best === null ? null : { ...best, value: negated(best.value) },
    ...(alternatives === undefined ? {} : { alternatives }),
  };
}
