/**
 * Learned scoring of field candidates. A field family's scorer (amounts.ts, dates.ts) lists its best candidates as
 * alternatives, each with named features (label strengths and directions, position, arithmetic, type checks, the
 * hand-set score itself); a logistic model per field key, fitted by `npm run train` (scripts/train.ts) and committed as
 * rankers.json, turns the features into the probability that the candidate is the right value. The most probable
 * alternative is the answer and its probability the confidence: ranking and calibration come out of one fit.
 * A key without a model (or an engine run with `model: null`) keeps the hand-set choice and calibration.ts.
 */
import type { Scored } from "../decision.js";

/** One logistic model: features are standardised ((x - mean) / scale) before the weights apply. */
export interface LinearModel {
  features: string[];
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
}

export interface RankerModel {
  version: 1;
  /** What the fit was told: seed, corpora, ridge; for the record, not read by the engine. */
  trainedOn: Record<string, unknown>;
  rankers: Record<string, LinearModel>;
  /**
   * Per field key without a kept ranker: a logistic model of whether the hand-set choice is right, from the features
   * of the chosen alternative (its gap to the runner-up, rival values, labels): the confidence of a hand-set choice
   * out of a fit, lower where the choice was contested. Kept by `npm run train` only where it beat the family curve of
   * calibration.ts out of sample.
   */
  calibrators?: Record<string, LinearModel>;
  /**
   * Per field key with a kept ranker: a logistic model of whether the ranker's pick is right, from how the pick stands
   * among its rivals (standingOf). The ranker scores each candidate alone, so on a page with six dates its pick can
   * lead the others by far and still be given 0.34, and the answer is withheld. Fitted by `npm run train` per field
   * family on picks made out of fold, and kept only where it beat the ranker's own probability out of sample.
   */
  pickCalibrators?: Record<string, LinearModel>;
}

export interface Alternative {
  scored: Scored;
  features: Record<string, number>;
}

export function logit(model: LinearModel, features: Readonly<Record<string, number>>): number {
  let z = model.bias;
  for (let i = 0; i < model.features.length; i++) {
    const name = model.features[i] ?? "";
    const x = features[name] ?? 0;
    z += (model.weights[i] ?? 0) * ((x - (model.mean[i] ?? 0)) / (model.scale[i] || 1));
  }
  return z;
}

export function probability(model: LinearModel, features: Readonly<Record<string, number>>): number {
  return 1 / (1 + Math.exp(-logit(model, features)));
}

/** A ranker's pick: the most probable alternative, its probability and how it stood among the others. */
export interface Pick {
  alternative: Alternative;
  probability: number;
  /** Features of the pick among its rivals, for the key's pick calibrator. */
  standing: Record<string, number>;
}

/** A logit gap this wide is as good as no rival at all (probability ratio e^8, about 3000). */
const MAX_MARGIN = 8;

/**
 * How a pick with logit `top` stands among alternatives with logits `logits` (the pick's among them): its logit, its
 * lead over the runner-up, its share of the softmax over all of them (the probability that it is the one right
 * value if exactly one is), and how many rivals it had (a lone amount is often a page that prints no such figure).
 */
export function standingOf(top: number, logits: readonly number[]): Record<string, number> {
  const others = [...logits].sort((a, b) => b - a).slice(1);
  const second = others[0];
  const margin = second === undefined ? MAX_MARGIN : Math.min(MAX_MARGIN, top - second);
  const share = 1 / logits.reduce((sum, z) => sum + Math.exp(z - top), 0);
  return { logit: top, margin, share, rivals: Math.log1p(others.length) };
}

/**
 * A standardised feature of a pick calibrator is held within this many of its training spreads: a pick standing as
 * no training pick did is judged as the most extreme seen, not by a straight line run far past the data. Scorers list
 * up to five alternatives and nearly every amount pick in training had five (log(1 + rivals) spread 0.03): unheld, a
 * lone "Total: 1.234,50" stood 48 spreads out and its confidence fell to nothing. Held within 3 spreads, a poor
 * candidate's own logit was held too, and two wrong subtotals of the synthetic seed-1 corpus were answered at 0.55
 * (born-digital F1 0.997 -> 0.996, scans 0.965 -> 0.964); within 6 every kfold figure is as unheld.
 */
const PICK_FEATURE_LIMIT = 6;

/** The confidence a key's pick calibrator gives a pick that stands `standing` among its rivals. */
export function pickConfidence(calibrator: LinearModel, standing: Readonly<Record<string, number>>): number {
  const held = Object.fromEntries(
    calibrator.features.map((name, i) => {
      const mean = calibrator.mean[i] ?? 0;
      const spread = PICK_FEATURE_LIMIT * (calibrator.scale[i] || 1);
      return [name, Math.min(mean + spread, Math.max(mean - spread, standing[name] ?? 0))];
    }),
  );
  return probability(calibrator, held);
}

/** The most probable alternative and how it stands among the others, or null when there is none. */
export function pick(model: LinearModel, alternatives: readonly Alternative[]): Pick | null {
  const logits = alternatives.map((a) => logit(model, a.features));
  let best = -1;
  for (let i = 0; i < logits.length; i++) if (best < 0 || (logits[i] ?? 0) > (logits[best] ?? 0)) best = i;
  const alternative = alternatives[best];
  if (!alternative) return null;
  const top = logits[best] ?? 0;
  return { alternative, probability: 1 / (1 + Math.exp(-top)), standing: standingOf(top, logits) };
}

/** The alternative that stands for the hand-set choice: the same printed value (the first such, as ranked). */
export function chosenAlternative(alternatives: readonly Alternative[], best: Scored | null): Alternative | null {
  if (!best) return null;
  return alternatives.find((a) => a.scored === best) ?? alternatives.find((a) => a.scored.value === best.value) ?? null;
}
