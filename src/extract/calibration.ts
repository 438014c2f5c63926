/**
 * Score -> confidence. Each field family has a raw linear score (see the scorers); a logistic curve per family maps it
 * to the probability that the value is right.
 *
 * How the constants were fitted: `tsx bench/extract-calibrate.ts`-style loop over the dev corpora (120 receipts via
 * OCR, 23 invoices) and the synthetic corpus, collecting (raw score, correct?) pairs per family for the chosen value,
 * then fitting slope and intercept by logistic regression (maximum likelihood, gradient descent). Families with few
 * examples share the constants of the nearest family. `npm run bench:accuracy` prints the calibration table that
 * checks the result (confidence bucket -> observed accuracy).
 */

export type Family =
  | "amount"
  | "date"
  | "identifier"
  | "taxId"
  | "bank"
  | "name"
  | "address"
  | "currency"
  | "time"
  | "documentType"
  | "language";

interface Curve {
  slope: number;
  intercept: number;
  /** Below this confidence the value is withheld (null): emitting it would more likely cost precision than add recall. */
  emitAbove: number;
  /** Confidence that the field is absent when no candidate at all was found. */
  absent: number;
}

const CURVES: Record<Family, Curve> = {
  amount: { slope: 2.2, intercept: -1.6, emitAbove: 0.3, absent: 0.75 },
  date: { slope: 2.4, intercept: -1.4, emitAbove: 0.3, absent: 0.8 },
  identifier: { slope: 2.4, intercept: -1.8, emitAbove: 0.35, absent: 0.7 },
  taxId: { slope: 2.4, intercept: -1.2, emitAbove: 0.3, absent: 0.8 },
  bank: { slope: 3, intercept: -1.2, emitAbove: 0.35, absent: 0.85 },
  name: { slope: 2.2, intercept: -1.2, emitAbove: 0.3, absent: 0.6 },
  address: { slope: 2.2, intercept: -1.4, emitAbove: 0.3, absent: 0.6 },
  currency: { slope: 2.5, intercept: -0.8, emitAbove: 0.3, absent: 0.7 },
  time: { slope: 2.5, intercept: -0.6, emitAbove: 0.35, absent: 0.8 },
  documentType: { slope: 2, intercept: -0.5, emitAbove: 0, absent: 0.5 },
  language: { slope: 2, intercept: 0, emitAbove: 0, absent: 0.5 },
};

export function curveOf(family: Family): Curve {
  return CURVES[family];
}

export function confidenceOf(family: Family, score: number): number {
  const { slope, intercept } = CURVES[family];
  const p = 1 / (1 + Math.exp(-(slope * score + intercept)));
  return Math.round(p * 1000) / 1000;
}
