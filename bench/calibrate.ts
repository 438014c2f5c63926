/**
 * Fits the confidence curves of src/extract/calibration.ts on labelled corpora.
 *   npm run bench:calibrate -- LABELS.jsonl[=WEIGHT]... [--limit N] [--cache DIR] [--ceiling P] [--with-locale]
 *
 * For every labelled field the engine answers (a non-null decision), it records the raw score, the mean OCR confidence
 * of the value's words and whether the value is right (bench/score.ts rules), grouped by field family. Per family it
 * then fits slope, intercept and OCR weight of the logistic curve by weighted maximum likelihood (Newton's method,
 * small ridge, starting from the current curve; slope >= 0.3 so confidence never falls as evidence grows, OCR weight
 * >= 0). Families the corpora answer almost always right are pulled back so no answer exceeds `--ceiling` (default
 * 0.97): unseen documents will not be as kind. It prints the fitted curves (paste them into calibration.ts) and, per
 * family, the calibration table before and after.
 *
 * WEIGHT (default 1) weighs a corpus: real documents are worth more than synthetic ones (the committed curves used
 * receipts-dev and invoices-dev at 3, synthetic digital and scans at 1). Ingested Documents are cached by content
 * hash under `--cache` (default bench/out/calibrate-cache): delete it after changing ingest.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { Document } from "../src/document/model.js";
import { curveOf, type Family } from "../src/extract/calibration.js";
import { rawDecisions } from "../src/extract/index.js";
import { mapConcurrent } from "../src/ingest/concurrency.js";
import { ingest } from "../src/ingest/index.js";
import { runMain } from "./run-main.js";
import { catalogueMaps, comparisonFor, type LabelLine, parseLabels, valuesMatch } from "./score.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** One answered field: raw score, OCR quality - 1 (0 for a text layer), right or not, corpus weight. */
export interface Observation {
  score: number;
  quality: number;
  right: boolean;
  weight: number;
}

export interface FittedCurve {
  slope: number;
  intercept: number;
  ocr: number;
}

function probability(c: FittedCurve, o: Observation): number {
  return 1 / (1 + Math.exp(-(c.slope * o.score + c.intercept + c.ocr * o.quality)));
}

/** Solves the 3x3 system h x = g by Gaussian elimination with partial pivoting. */
function solve3(h: number[][], g: number[]): number[] {
  const m = h.map((row, i) => [...row, g[i] ?? 0]);
  for (let i = 0; i < 3; i++) {
    let pivot = i;
    for (let k = i + 1; k < 3; k++) if (Math.abs(m[k]?.[i] ?? 0) > Math.abs(m[pivot]?.[i] ?? 0)) pivot = k;
    [m[i], m[pivot]] = [m[pivot] ?? [], m[i] ?? []];
    const rowI = m[i] ?? [];
    for (let k = 0; k < 3; k++) {
      const rowK = m[k] ?? [];
      if (k === i || (rowI[i] ?? 0) === 0) continue;
      const f = (rowK[i] ?? 0) / (rowI[i] ?? 1);
      for (let j = i; j < 4; j++) rowK[j] = (rowK[j] ?? 0) - f * (rowI[j] ?? 0);
    }
  }
  return [0, 1, 2].map((i) => (m[i]?.[3] ?? 0) / (m[i]?.[i] || 1));
}

/** Weighted logistic regression of `right` on (score, 1, quality), Newton steps clipped to 1, from `start`. */
export function fitCurve(rows: readonly Observation[], start: FittedCurve): FittedCurve {
  let th = [start.slope, start.intercept, start.ocr];
  for (let iteration = 0; iteration < 60; iteration++) {
    const g = [0, 0, 0];
    const h = [
      [1e-2, 0, 0],
      [0, 1e-2, 0],
      [0, 0, 1e-2],
    ];
    const curve = { slope: th[0] ?? 0, intercept: th[1] ?? 0, ocr: th[2] ?? 0 };
    for (const o of rows) {
      const x = [o.score, 1, o.quality];
      const p = probability(curve, o);
      for (let i = 0; i < 3; i++) {
        g[i] = (g[i] ?? 0) + o.weight * (p - (o.right ? 1 : 0)) * (x[i] ?? 0);
        const hi = h[i] ?? [];
        for (let j = 0; j < 3; j++) hi[j] = (hi[j] ?? 0) + o.weight * p * (1 - p) * (x[i] ?? 0) * (x[j] ?? 0);
      }
    }
    const step = solve3(h, g);
    th = th.map((t, i) => t - Math.max(-1, Math.min(1, step[i] ?? 0)));
    th[0] = Math.max(0.3, th[0] ?? 0);
    th[2] = Math.max(0, th[2] ?? 0);
  }
  return { slope: th[0] ?? 0, intercept: th[1] ?? 0, ocr: th[2] ?? 0 };
}

/**
 * Lowers the intercept until the 90th percentile of confidences is at most `ceiling` (a percentile, not the
 * maximum: one outlying score must not drag the whole family down).
 */
export function capCurve(rows: readonly Observation[], curve: FittedCurve, ceiling: number): FittedCurve {
  const linear = rows.map((o) => curve.slope * o.score + curve.ocr * o.quality).sort((a, b) => a - b);
  const top = linear[Math.floor(0.9 * (linear.length - 1))] ?? 0;
  const limit = Math.log(ceiling / (1 - ceiling));
  return top + curve.intercept > limit ? { ...curve, intercept: limit - top } : curve;
}

function logLoss(rows: readonly Observation[], curve: FittedCurve): number {
  let loss = 0;
  let weight = 0;
  for (const o of rows) {
    const p = Math.min(Math.max(probability(curve, o), 1e-6), 1 - 1e-6);
    loss -= o.weight * (o.right ? Math.log(p) : Math.log(1 - p));
    weight += o.weight;
  }
  return weight === 0 ? 0 : loss / weight;
}

function table(rows: readonly Observation[], curve: FittedCurve): string {
  const edges = [0, 0.5, 0.7, 0.8, 0.9, 0.95, 1.01];
  const cells: string[] = [];
  for (let i = 0; i < edges.length - 1; i++) {
    const lo = edges[i] ?? 0;
    const hi = edges[i + 1] ?? 1;
    const bucket = rows.filter((o) => {
      const p = probability(curve, o);
      return p >= lo && p < hi;
    });
    if (bucket.length > 0)
      cells.push(`${lo}:${bucket.length}/${(bucket.filter((o) => o.right).length / bucket.length).toFixed(2)}`);
  }
  return cells.join(" ");
}

/** The ingested Document of a file, from the cache when its bytes were ingested before. */
async function documentOf(path: string, cacheDir: string): Promise<Document | null> {
  const bytes = new Uint8Array(readFileSync(path));
  const cached = join(cacheDir, `${createHash("sha256").update(bytes).digest("hex")}.json`);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, "utf8")) as Document;
  try {
    const document = await ingest(bytes, { concurrency: 1 });
    writeFileSync(cached, JSON.stringify(document));
    return document;
  } catch (err) {
    process.stderr.write(`skipped ${path}: ${err instanceof Error ? err.message : String(err)}\n`);
    return null;
  }
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      limit: { type: "string" },
      cache: { type: "string", default: join(REPO, "bench/out/calibrate-cache") },
      ceiling: { type: "string", default: "0.97" },
      concurrency: { type: "string", default: "2" },
      "with-locale": { type: "boolean", default: false },
    },
  });
  if (positionals.length === 0) {
    process.stderr.write(
      "Usage: npm run bench:calibrate -- LABELS.jsonl[=WEIGHT]... [--limit N] [--cache DIR] [--ceiling P] [--with-locale]\n",
    );
    return 2;
  }
  const cacheDir = resolve(values.cache ?? "");
  mkdirSync(cacheDir, { recursive: true });
  const ceiling = Number(values.ceiling);
  const { types } = catalogueMaps();
  const byFamily = new Map<Family, Observation[]>();
  for (const arg of positionals) {
    const match = /^(.*?)(?:=(\d+(?:\.\d+)?))?$/.exec(arg);
    const labelsPath = resolve(match?.[1] ?? arg);
    const weight = Number(match?.[2] ?? 1);
    let labels: LabelLine[] = parseLabels(readFileSync(labelsPath, "utf8"));
    if (values.limit !== undefined) labels = labels.slice(0, Number(values.limit));
    const root = dirname(labelsPath);
    let done = 0;
    await mapConcurrent(labels, Math.max(1, Number(values.concurrency)), async (label) => {
      const document = await documentOf(resolve(root, label.file), cacheDir);
      done++;
      if (process.stderr.isTTY) process.stderr.write(`\r${labelsPath}: ${done}/${labels.length}`);
      if (!document) return;
      const options = values["with-locale"] && label.locale ? { locale: label.locale } : {};
      const decisions = rawDecisions(document, Object.keys(label.fields), options);
      for (const [name, decision] of decisions) {
        const best = decision.best;
        const expected = label.fields[name];
        const type = types.get(name);
        if (!best || expected === undefined || !type) continue;
        const quality =
          best.words.length === 0 ? 0 : best.words.reduce((a, w) => a + w.confidence, 0) / best.words.length - 1;
        const right = valuesMatch(comparisonFor(type), expected, best.value);
        const rows = byFamily.get(decision.family) ?? [];
        byFamily.set(decision.family, rows);
        rows.push({ score: best.score, quality, right, weight });
      }
    });
    if (process.stderr.isTTY) process.stderr.write("\n");
  }
  const lines: string[] = [];
  for (const [family, rows] of [...byFamily].sort(([a], [b]) => a.localeCompare(b))) {
    const current = curveOf(family);
    const accuracy = rows.filter((o) => o.right).length / rows.length;
    let fitted = fitCurve(rows, current);
    if (accuracy >= ceiling) fitted = capCurve(rows, fitted, ceiling);
    // Nearly separable families (almost every answer right) have no finite optimum: keep what fits better.
    const kept = logLoss(rows, fitted) > logLoss(rows, current);
    if (kept) fitted = { slope: current.slope, intercept: current.intercept, ocr: current.ocr };
    const round = (v: number) => Math.round(v * 100) / 100;
    process.stdout.write(
      `${family.padEnd(12)} n=${rows.length} right=${accuracy.toFixed(3)}\n` +
        `  current slope ${current.slope} intercept ${current.intercept} ocr ${current.ocr}` +
        ` log-loss ${logLoss(rows, current).toFixed(3)} | ${table(rows, current)}\n` +
        `  fitted  slope ${round(fitted.slope)} intercept ${round(fitted.intercept)} ocr ${round(fitted.ocr)}` +
        ` log-loss ${logLoss(rows, fitted).toFixed(3)}${kept ? " (refit was worse: current kept)" : ""}` +
        ` | ${table(rows, fitted)}\n`,
    );
    lines.push(
      `  ${family}: { slope: ${round(fitted.slope)}, intercept: ${round(fitted.intercept)}, ocr: ${round(fitted.ocr)}, ` +
        `emitAbove: ${current.emitAbove}, absent: ${current.absent} },`,
    );
  }
  process.stdout.write(`\nFitted curves (families not observed keep their current curve):\n${lines.join("\n")}\n`);
  return 0;
}

runMain(main);
