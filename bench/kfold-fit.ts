/**
 * Fitting the learned rankers (src/extract/model/ranker.ts): rows of (features, right?) per field key from the raw
 * decisions of labelled documents, a weighted L2-regularised logistic regression per key (Newton's method on
 * standardised features; deterministic: no random start, no sampling), and group k-fold splits from a seed.
 * Used by scripts/train.ts (the committed model) and bench/kfold.ts (out-of-sample figures).
 */
import type { FieldType } from "../src/catalog/catalog.js";
import type { FieldDecision } from "../src/extract/decision.js";
import { rawDecisions } from "../src/extract/index.js";
import { chosenAlternative, type LinearModel, pick, type RankerModel } from "../src/extract/model/ranker.js";
import type { LabelledDocument } from "./kfold-data.js";
import { comparisonFor, valuesMatch } from "./score.js";

/** A labelled document with the engine's raw (hand-scored) decisions of its labelled fields. */
export interface DecidedDocument extends LabelledDocument {
  decisions: Map<string, FieldDecision>;
  /** Corpus weight in the fit: real documents count more than synthetic ones. */
  weight: number;
}

export function decide(doc: LabelledDocument, weight: number, withLocale = false): DecidedDocument {
  const options = withLocale && doc.label.locale ? { locale: doc.label.locale, model: null } : { model: null };
  const decisions = rawDecisions(doc.document, Object.keys(doc.label.fields), options);
  return { ...doc, decisions, weight };
}

interface Row {
  x: Record<string, number>;
  y: 0 | 1;
  weight: number;
}

/** Each labelled decision with a field key and alternatives: its document, the label and how values compare. */
export function* labelledDecisions(docs: readonly DecidedDocument[], types: ReadonlyMap<string, FieldType>) {
  for (const doc of docs) {
    for (const [name, decision] of doc.decisions) {
      const expected = doc.label.fields[name];
      const type = types.get(name);
      if (expected === undefined || !type || !decision.key || !decision.alternatives) continue;
      yield {
        doc,
        decision,
        key: decision.key,
        alternatives: decision.alternatives,
        expected,
        comparison: comparisonFor(type),
      };
    }
  }
}

function pushRow(rows: Map<string, Row[]>, key: string, row: Row): void {
  const list = rows.get(key) ?? [];
  rows.set(key, list);
  list.push(row);
}

/** Training rows per field key: every alternative of every labelled field, right or not. */
export function rowsOf(docs: readonly DecidedDocument[], types: ReadonlyMap<string, FieldType>): Map<string, Row[]> {
  const rows = new Map<string, Row[]>();
  for (const { doc, key, alternatives, expected, comparison } of labelledDecisions(docs, types)) {
    const n = Math.max(1, alternatives.length);
    for (const alternative of alternatives) {
      const y = valuesMatch(comparison, expected, alternative.scored.value) ? 1 : 0;
      // Each document weighs the same whatever the number of its alternatives.
      pushRow(rows, key, { x: alternative.features, y, weight: doc.weight / Math.sqrt(n) });
    }
  }
  return rows;
}

/**
 * Calibration rows per field key: the hand-set choice of every labelled field that has one, with the features of its
 * alternative, right or not (a choice is scored whatever the number of alternatives it was made among).
 */
export function calibrationRowsOf(
  docs: readonly DecidedDocument[],
  types: ReadonlyMap<string, FieldType>,
): Map<string, Row[]> {
  const rows = new Map<string, Row[]>();
  for (const { doc, decision, key, alternatives, expected, comparison } of labelledDecisions(docs, types)) {
    const chosen = chosenAlternative(alternatives, decision.best);
    if (!chosen || !decision.best) continue;
    const y = valuesMatch(comparison, expected, decision.best.value) ? 1 : 0;
    pushRow(rows, key, { x: chosen.features, y, weight: doc.weight });
  }
  return rows;
}

function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] ?? 0]);
  for (let i = 0; i < n; i++) {
    let pivot = i;
    for (let k = i + 1; k < n; k++) if (Math.abs(m[k]?.[i] ?? 0) > Math.abs(m[pivot]?.[i] ?? 0)) pivot = k;
    [m[i], m[pivot]] = [m[pivot] ?? [], m[i] ?? []];
    const rowI = m[i] ?? [];
    const d = rowI[i] ?? 0;
    if (Math.abs(d) < 1e-12) continue;
    for (let k = 0; k < n; k++) {
      if (k === i) continue;
      const rowK = m[k] ?? [];
      const f = (rowK[i] ?? 0) / d;
      if (f === 0) continue;
      for (let j = i; j <= n; j++) rowK[j] = (rowK[j] ?? 0) - f * (rowI[j] ?? 0);
    }
  }
  return Array.from({ length: n }, (_, i) => (m[i]?.[n] ?? 0) / (m[i]?.[i] || 1));
}

export interface FitOptions {
  /** L2 penalty on the standardised weights (not on the bias), per unit of total row weight. */
  ridge: number;
  iterations?: number;
}

/** Weighted logistic regression of y on the named features; rounded to 4 decimals so the file is stable. */
export function fitLogistic(rows: readonly Row[], options: FitOptions): LinearModel | null {
  if (rows.length === 0 || !rows.some((r) => r.y === 1) || !rows.some((r) => r.y === 0)) return null;
  const features = [...new Set(rows.flatMap((r) => Object.keys(r.x)))].sort();
  const d = features.length;
  const total = rows.reduce((a, r) => a + r.weight, 0);
  const mean = features.map((f) => rows.reduce((a, r) => a + r.weight * (r.x[f] ?? 0), 0) / total);
  const scale = features.map((f, i) => {
    const v = rows.reduce((a, r) => a + r.weight * ((r.x[f] ?? 0) - (mean[i] ?? 0)) ** 2, 0) / total;
    return Math.sqrt(v) > 1e-9 ? Math.sqrt(v) : 1;
  });
  const xs = rows.map((r) => [1, ...features.map((f, i) => ((r.x[f] ?? 0) - (mean[i] ?? 0)) / (scale[i] ?? 1))]);
  let theta = new Array<number>(d + 1).fill(0);
  const lambda = options.ridge * total;
  for (let iteration = 0; iteration < (options.iterations ?? 40); iteration++) {
    const g = new Array<number>(d + 1).fill(0);
    const h = Array.from({ length: d + 1 }, (_, i) => {
      const row = new Array<number>(d + 1).fill(0);
      row[i] = i === 0 ? 1e-6 : lambda;
      return row;
    });
    for (let k = 0; k < rows.length; k++) {
      const x = xs[k] ?? [];
      const r = rows[k];
      if (!r) continue;
      let z = 0;
      for (let i = 0; i <= d; i++) z += (theta[i] ?? 0) * (x[i] ?? 0);
      const p = 1 / (1 + Math.exp(-z));
      const w = r.weight;
      for (let i = 0; i <= d; i++) {
        const xi = x[i] ?? 0;
        if (xi === 0) continue;
        g[i] = (g[i] ?? 0) + w * (p - r.y) * xi;
        const hi = h[i] ?? [];
        const c = w * p * (1 - p) * xi;
        for (let j = 0; j <= d; j++) hi[j] = (hi[j] ?? 0) + c * (x[j] ?? 0);
      }
    }
    for (let i = 1; i <= d; i++) g[i] = (g[i] ?? 0) + lambda * (theta[i] ?? 0);
    const step = solve(h, g);
    theta = theta.map((t, i) => t - (step[i] ?? 0));
    if (Math.max(...step.map(Math.abs)) < 1e-7) break;
  }
  const round = (v: number) => Math.round(v * 10000) / 10000;
  return {
    features,
    mean: mean.map(round),
    scale: scale.map(round),
    weights: theta.slice(1).map(round),
    bias: round(theta[0] ?? 0),
  };
}

function fitRankers(
  docs: readonly DecidedDocument[],
  types: ReadonlyMap<string, FieldType>,
  options: FitOptions,
): Record<string, LinearModel> {
  const rankers: Record<string, LinearModel> = {};
  for (const [key, rows] of [...rowsOf(docs, types)].sort(([a], [b]) => a.localeCompare(b))) {
    const model = fitLogistic(rows, options);
    if (model) rankers[key] = model;
  }
  return rankers;
}

/** Folds the pick calibrators' rows are made out of: each pick made by rankers fitted without its document's fold. */
const PICK_FOLDS = 3;
const PICK_SEED = 1;

/**
 * Pick-calibration rows per field family ("date", "amount"): every labelled decision of `docs` picked by rankers
 * fitted on the other folds (groups as k-fold deals them), with how the pick stood among its rivals and whether it
 * was right. Picks made by a ranker that saw the document would be surer than the engine's picks on new documents.
 * Pooled by family because a key's own picks can all be right (invoice.date: 265 of 265 on the pool), which leaves
 * nothing to fit, while the ranker's own probability still withholds some of them.
 */
export function pickRowsOf(
  docs: readonly DecidedDocument[],
  types: ReadonlyMap<string, FieldType>,
  options: FitOptions,
): Map<string, Row[]> {
  const foldOf = assignFolds(
    docs.map((d) => d.group),
    PICK_FOLDS,
    PICK_SEED,
  );
  const rows = new Map<string, Row[]>();
  for (let fold = 0; fold < PICK_FOLDS; fold++) {
    const held = docs.filter((d) => foldOf.get(d.group) === fold);
    if (held.length === 0) continue;
    const rankers = fitRankers(
      docs.filter((d) => foldOf.get(d.group) !== fold),
      types,
      options,
    );
    for (const { doc, decision, key, alternatives, expected, comparison } of labelledDecisions(held, types)) {
      const ranker = rankers[key];
      const chosen = ranker ? pick(ranker, alternatives) : null;
      if (!chosen) continue;
      const y = valuesMatch(comparison, expected, chosen.alternative.scored.value) ? 1 : 0;
      pushRow(rows, decision.family, { x: chosen.standing, y, weight: doc.weight });
    }
  }
  return rows;
}

export function fitModel(
  docs: readonly DecidedDocument[],
  types: ReadonlyMap<string, FieldType>,
  options: FitOptions,
  trainedOn: Record<string, unknown>,
): RankerModel {
  const rankers = fitRankers(docs, types, options);
  const calibrators: Record<string, LinearModel> = {};
  for (const [key, rows] of [...calibrationRowsOf(docs, types)].sort(([a], [b]) => a.localeCompare(b))) {
    const model = fitLogistic(rows, options);
    if (model) calibrators[key] = model;
  }
  const byFamily = new Map<string, LinearModel | null>();
  for (const [family, rows] of pickRowsOf(docs, types, options)) byFamily.set(family, fitLogistic(rows, options));
  const familyOfKey = new Map<string, string>();
  for (const { key, decision } of labelledDecisions(docs, types)) familyOfKey.set(key, decision.family);
  const pickCalibrators: Record<string, LinearModel> = {};
  for (const key of Object.keys(rankers)) {
    const model = byFamily.get(familyOfKey.get(key) ?? "");
    if (model) pickCalibrators[key] = model;
  }
  return { version: 1, trainedOn, rankers, calibrators, pickCalibrators };
}

/** mulberry32: the fold assignment is a pure function of the seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Fold of each group: groups shuffled by the seed, then dealt to the fold with the fewest documents so far (largest
 * groups first), so folds are balanced and a group never straddles two folds.
 */
export function assignFolds(groups: readonly string[], folds: number, seed: number): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const g of groups) sizes.set(g, (sizes.get(g) ?? 0) + 1);
  const random = prng(seed);
  const order = [...sizes.keys()]
    .sort()
    .map((g) => ({ g, r: random() }))
    .sort((a, b) => (sizes.get(b.g) ?? 0) - (sizes.get(a.g) ?? 0) || a.r - b.r);
  const load = new Array<number>(folds).fill(0);
  const out = new Map<string, number>();
  for (const { g } of order) {
    let fold = 0;
    for (let f = 1; f < folds; f++) if ((load[f] ?? 0) < (load[fold] ?? 0)) fold = f;
    out.set(g, fold);
    load[fold] = (load[fold] ?? 0) + (sizes.get(g) ?? 0);
  }
  return out;
}

/**
 * Groups that share a distinctive word of their producer are one group ("intarsys ZUGFeRD Toolkit" and "jPod
 * intarsys"; every "via mustangproject" tool): a generator family never straddles train and test.
 */
export function mergeGroups(groups: readonly string[]): Map<string, string> {
  const GENERIC = new Set(["library", "consulting", "based", "suite", "reports", "services", "server", "office"]);
  const parent = new Map<string, string>();
  const find = (g: string): string => {
    let p = g;
    while (parent.get(p) !== p) p = parent.get(p) ?? p;
    return p;
  };
  const byToken = new Map<string, string>();
  for (const g of groups) {
    if (!parent.has(g)) parent.set(g, g);
    const producer = g.slice(g.indexOf(":") + 1).toLowerCase();
    for (const token of producer.match(/[a-z]{5,}/g) ?? []) {
      if (GENERIC.has(token)) continue;
      const seen = byToken.get(token);
      if (seen) parent.set(find(g), find(seen));
      else byToken.set(token, g);
    }
  }
  return new Map(groups.map((g) => [g, find(g)]));
}
