/**
 * Scoring hand-set and learned decisions of already-decided documents (bench/kfold-fit.ts), and the out-of-sample
 * experiments: a held-out corpus, and group k-fold where each fold is scored by a model fitted without it.
 */
import type { FieldType } from "../src/catalog/catalog.js";
import { applyModel, toField } from "../src/extract/decision.js";
import type { RankerModel } from "../src/extract/model/ranker.js";
import { assignFolds, type DecidedDocument, type FitOptions, fitModel } from "./kfold-fit.js";
import { type AccuracyReport, type DocumentOutcome, type PredictedField, scoreDocuments } from "./score.js";

export interface Catalogue {
  types: Map<string, FieldType>;
  productFields: Map<string, string[]>;
}

/** Field predictions of a decided document under a model (null: the hand-set scoring). */
export function predict(doc: DecidedDocument, model: RankerModel | null): Map<string, PredictedField> {
  const out = new Map<string, PredictedField>();
  for (const [name, decision] of doc.decisions) {
    const field = toField(name, applyModel(decision, model), () => 1);
    out.set(name, { value: typeof field.value === "string" ? field.value : null, confidence: field.confidence });
  }
  return out;
}

export function report(
  docs: readonly DecidedDocument[],
  modelOf: (doc: DecidedDocument) => RankerModel | null,
  catalogue: Catalogue,
): AccuracyReport {
  const outcomes: DocumentOutcome[] = docs.map((doc) => ({ label: doc.label, predicted: predict(doc, modelOf(doc)) }));
  return scoreDocuments(outcomes, catalogue.types, catalogue.productFields, 0);
}

/**
 * Group k-fold: each document of `evaluated` is predicted by a model fitted on `pool` minus the documents of its
 * fold's groups (`pool` may hold documents of other corpora that are always trained on).
 */
export function kfoldModels(
  evaluated: readonly DecidedDocument[],
  pool: readonly DecidedDocument[],
  groupOf: (doc: DecidedDocument) => string,
  folds: number,
  seed: number,
  catalogue: Catalogue,
  fit: FitOptions,
): (doc: DecidedDocument) => RankerModel | null {
  const foldOfGroup = assignFolds(
    evaluated.map((d) => groupOf(d)),
    Math.min(folds, new Set(evaluated.map((d) => groupOf(d))).size),
    seed,
  );
  const models = new Map<number, RankerModel>();
  const modelFor = (fold: number): RankerModel => {
    let model = models.get(fold);
    if (!model) {
      const train = pool.filter((d) => foldOfGroup.get(groupOf(d)) !== fold);
      model = fitModel(train, catalogue.types, fit, { fold });
      models.set(fold, model);
    }
    return model;
  };
  return (doc) => {
    const fold = foldOfGroup.get(groupOf(doc));
    return fold === undefined ? null : modelFor(fold);
  };
}

/** The 0.9-1.0 confidence bucket: answers in it and the share right. */
export function topBucket(r: AccuracyReport): { count: number; accuracy: number } {
  const b = r.calibration.find((c) => c.from === 0.9);
  return { count: b?.count ?? 0, accuracy: b?.accuracy ?? 0 };
}

/** Per-key (field) F1 from a report, for choosing hand or learned per key. */
export function fieldF1(r: AccuracyReport): Map<string, { f1: number; n: number; tp: number }> {
  return new Map(r.fields.map((f) => [f.field, { f1: f.f1, n: f.n, tp: f.tp }]));
}
