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

/** The most probable alternative and its probability, or null when there is none. */
export function pick(
  model: LinearModel,
  alternatives: readonly Alternative[],
): { alternative: Alternative; probability: number } | null {
  let best: { alternative: Alternative; probability: number } | null = null;
  for (const alternative of alternatives) {
    const p = probability(model, alternative.features);
    if (!best || p > best.probability) best = { alternative, probability: p };
  }
  return best;
}

/** The alternative that stands for the hand-set choice: the same printed value (the first such, as ranked). */
export function chosenAlternative(alternatives: readonly Alternative[], best: Scored | null): Alternative | null {
  if (!best) return null;
  return alternatives.find((a) => a.scored === best) ?? alternatives.find((a) => a.scored.value === best.value) ?? null;
}
