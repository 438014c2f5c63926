/** What a field scorer decides: a value with its raw score and words, turned into a calibrated Field at the end. */
import type { Word } from "../document/model.js";
import type { BoundingBox, Field } from "../domain/result.js";
import { confidenceOf, curveOf, type Family } from "./calibration.js";
import { unionBox } from "./layout.js";
import {
  type Alternative,
  chosenAlternative,
  type LinearModel,
  pick,
  pickConfidence,
  probability,
  type RankerModel,
} from "./model/ranker.js";

export interface Scored {
  value: string;
  /** Raw score on the family's scale (see calibration.ts). */
  score: number;
  words: Word[];
}

export interface FieldDecision {
  family: Family;
  best: Scored | null;
  /** Confidence adjustment multiplier (e.g. an ambiguous date whose order was guessed). */
  penalty?: number;
  /** Field key of the learned ranker ("amount.total", "date.issue"): set by scorers that list alternatives. */
  key?: string;
  /** The scorer's best candidates with their features, for the learned ranker (model/ranker.ts). */
  alternatives?: Alternative[];
  /**
   * Confidence the learned ranker gave `best`: replaces the family curve; a date's penalty still applies
   * (applyModel says why).
   */
  probability?: number;
}

/**
 * The decision with its value put right by `repair` where OCR read some of its words (an OCR misreading the value's
 * own conventions undo); a text layer's value stays as printed.
 */
export function withOcrRepair(decision: FieldDecision, repair: (value: string) => string): FieldDecision {
  const best = decision.best;
  if (!best?.words.some((w) => w.source === "ocr")) return decision;
  const value = repair(best.value);
  return value === best.value ? decision : { ...decision, best: { ...best, value } };
}

/**
 * The decision the learned ranker of its key makes among its alternatives, with the confidence its pick calibrator
 * gives the pick where the model has one (else the ranker's own probability); the hand-set decision when the model
 * has no ranker for the key (or no model is given).
 */
export function applyModel(decision: FieldDecision, model: RankerModel | null): FieldDecision {
  const ranker = decision.key && model ? model.rankers[decision.key] : undefined;
  if (!ranker && decision.key && decision.alternatives) return calibrated(decision, model?.calibrators?.[decision.key]);
  if (!ranker || !decision.alternatives) return decision;
  const chosen = pick(ranker, decision.alternatives);
  const pickCalibrator = model?.pickCalibrators?.[decision.key ?? ""];
  if (!chosen) return { family: decision.family, best: null, key: decision.key ?? "" };
  // The ranker learns which value is right, not which of the places printing it is the field's (every one of them is
  // right to it): the value is read where the hand-set order puts it first ("SUB TOTAL 10.00", not an item's 10.00).
  const value = chosen.alternative.scored.value;
  const printed = decision.alternatives.find((a) => a.scored.value === value)?.scored ?? chosen.alternative.scored;
  return {
    family: decision.family,
    key: decision.key ?? "",
    best: printed,
    probability: pickCalibrator ? pickConfidence(pickCalibrator, chosen.standing) : chosen.probability,
    // The date corpora the ranker is fitted on rarely leave the day/month order to a guess (their dates are
    // unambiguous or their locale given), so it cannot learn what a guess costs: a date's penalty still applies. An
    // amount's penalty (a total the payment contradicts) is a feature the ranker weighs, so it is not applied twice.
    ...(decision.family === "date" && decision.penalty !== undefined ? { penalty: decision.penalty } : {}),
  };
}

/**
 * The hand-set choice with the confidence its key's calibrator (model/ranker.ts) gives it; unchanged without one. As
 * with a ranker, a date keeps its order-guess penalty and an amount's penalty is one of the features weighed.
 */
function calibrated(decision: FieldDecision, calibrator: LinearModel | undefined): FieldDecision {
  const chosen = calibrator ? chosenAlternative(decision.alternatives ?? [], decision.best) : null;
  if (!calibrator || !chosen) return decision;
  const { penalty, ...rest } = decision;
  return {
    ...rest,
    probability: probability(calibrator, chosen.features),
    ...(decision.family === "date" && penalty !== undefined ? { penalty } : {}),
  };
}

export function boundingBox(words: readonly Word[], pageOfWord: (id: number) => number): BoundingBox | null {
  const first = words[0];
  if (!first) return null;
  const pageNum = pageOfWord(first.id);
  const onPage = words.filter((w) => pageOfWord(w.id) === pageNum);
  const box = unionBox(onPage.map((w) => w.box));
  return {
    pageNum,
    topLeft: { x: box.x0, y: box.y0 },
    bottomRight: { x: box.x1, y: box.y1 },
    tokenIds: onPage.map((w) => w.id),
  };
}

export function toField(name: string, decision: FieldDecision, pageOfWord: (id: number) => number): Field {
  const curve = curveOf(decision.family);
  const best = decision.best;
  if (!best) return { name, value: null, confidence: curve.absent, boundingBox: null };
  const quality = best.words.length > 0 ? best.words.reduce((a, w) => a + w.confidence, 0) / best.words.length : 1;
  const confidence =
    Math.round(
      (decision.probability ?? confidenceOf(decision.family, best.score, quality)) * (decision.penalty ?? 1) * 1000,
    ) / 1000;
  if (confidence < curve.emitAbove) {
    // A withheld candidate is likely wrong, not proof that the field is missing: the field is no surer to be absent
    // than when nothing at all was found (an address misread is still an address on the page).
    const absent = Math.min(1 - confidence, curve.absent);
    return { name, value: null, confidence: Math.round(absent * 1000) / 1000, boundingBox: null };
  }
  return { name, value: best.value, confidence, boundingBox: boundingBox(best.words, pageOfWord) };
}
