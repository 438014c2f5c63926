/**
 * npm run train [-- --seed 1 --folds 5 --out src/extract/model/rankers.json --limit N --cached-only]
 *
 * Fits the learned rankers of src/extract/model/ranker.ts and writes the committed model file. Training pool:
 * synthetic born-digital documents (bench/synth, seed 7, 400 documents, a quarter of the invoices in the SaaS layouts
 * of render-saas.ts; generated into bench/out/synth-train when missing), receipts-train, invoices-dev and einvoices-dev (../shared/data). receipts-dev is never trained on: it is
 * the held-out receipt corpus. For every field key a logistic model is fitted (bench/kfold-fit.ts); a key keeps its
 * learned ranker only when, out of sample (group k-fold over the pool: receipts one by one, invoices by
 * producer), its F1 on the pool's real documents is at least the hand-set scoring's; otherwise the hand rule stays and
 * the file says so. Same seed and same cached Documents -> byte-identical file.
 */
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { CORPORA, decidedCorpus, FIT, WEIGHTS } from "../bench/kfold.js";
import { type Catalogue, kfoldModels, report } from "../bench/kfold-eval.js";
import { type DecidedDocument, fitModel, labelledDecisions, mergeGroups } from "../bench/kfold-fit.js";
import { runMain } from "../bench/run-main.js";
import { catalogueMaps, valuesMatch } from "../bench/score.js";
import { confidenceOf } from "../src/extract/calibration.js";
import { chosenAlternative, pick, pickConfidence, probability, type RankerModel } from "../src/extract/model/ranker.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** F1 per field over the real documents of the pool: hand-set scoring and learned out of sample. */
function perField(
  docs: readonly DecidedDocument[],
  modelOf: (d: DecidedDocument) => RankerModel | null,
  catalogue: Catalogue,
): Map<string, { hand: number; learned: number; n: number }> {
  const hand = report(docs, () => null, catalogue);
  const learned = report(docs, modelOf, catalogue);
  const out = new Map<string, { hand: number; learned: number; n: number }>();
  for (const f of hand.fields) {
    out.set(f.field, { hand: f.f1, learned: learned.fields.find((l) => l.field === f.field)?.f1 ?? 0, n: f.n });
  }
  return out;
}

/** Mean OCR confidence of a value's words (1 for a text layer), as decision.ts computes it. */
function quality(words: readonly { confidence: number }[]): number {
  return words.length > 0 ? words.reduce((a, w) => a + w.confidence, 0) / words.length : 1;
}

/** Squared errors per field key of two confidences given the same answers: a reference and a fitted one. */
type Brier = Map<string, { curve: number; fitted: number; n: number }>;

function addBrier(into: Brier, key: string, y: number, curve: number, fitted: number): void {
  const s = into.get(key) ?? { curve: 0, fitted: 0, n: 0 };
  s.curve += (curve - y) ** 2;
  s.fitted += (fitted - y) ** 2;
  s.n += 1;
  into.set(key, s);
}

/**
 * Brier score per field key of the hand-set choice's confidence over real documents, out of sample: from the family
 * curve of calibration.ts, and from the key's calibrator in the model fitted without the document's fold.
 */
function calibrationScores(
  docs: readonly DecidedDocument[],
  modelOf: (d: DecidedDocument) => RankerModel | null,
  types: Catalogue["types"],
  into: Brier,
): void {
  for (const { doc, decision, key, alternatives, expected, comparison } of labelledDecisions(docs, types)) {
    const best = decision.best;
    if (!best) continue;
    const y = valuesMatch(comparison, expected, best.value) ? 1 : 0;
    const penalty = decision.penalty ?? 1;
    const curve = confidenceOf(decision.family, best.score, quality(best.words)) * penalty;
    const calibrator = modelOf(doc)?.calibrators?.[key];
    const chosen = chosenAlternative(alternatives, best);
    const fitted =
      calibrator && chosen
        ? probability(calibrator, chosen.features) * (decision.family === "date" ? penalty : 1)
        : curve;
    addBrier(into, key, y, curve, fitted);
  }
}

/**
 * Brier score per field key of the learned ranker's pick over real documents, out of sample: with the ranker's own
 * probability, and with the key's pick calibrator, both from the model fitted without the document's fold.
 */
function pickScores(
  docs: readonly DecidedDocument[],
  modelOf: (d: DecidedDocument) => RankerModel | null,
  types: Catalogue["types"],
  into: Brier,
): void {
  for (const { doc, decision, key, alternatives, expected, comparison } of labelledDecisions(docs, types)) {
    const model = modelOf(doc);
    const ranker = model?.rankers[key];
    const chosen = ranker ? pick(ranker, alternatives) : null;
    if (!chosen) continue;
    const y = valuesMatch(comparison, expected, chosen.alternative.scored.value) ? 1 : 0;
    const penalty = decision.family === "date" ? (decision.penalty ?? 1) : 1;
    const calibrator = model?.pickCalibrators?.[key];
    const fitted = calibrator ? pickConfidence(calibrator, chosen.standing) : chosen.probability;
    addBrier(into, key, y, chosen.probability * penalty, fitted * penalty);
  }
}

/** The field a ranker key decides ("invoice.date" -> invoice.date; the keys are named after their fields). */
const fieldOfKey = (key: string): string => key;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      seed: { type: "string", default: "1" },
      folds: { type: "string", default: "5" },
      out: { type: "string", default: join(REPO, "src/extract/model/rankers.json") },
      limit: { type: "string" },
      "cached-only": { type: "boolean", default: false },
    },
  });
  const seed = Number(values.seed);
  const folds = Number(values.folds);
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  const cachedOnly = values["cached-only"] ?? false;
  if (!existsSync(CORPORA.synthTrain)) {
    const run = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "bench/synth/generate.ts",
        "--out",
        "bench/out/synth-train",
        "--count",
        "400",
        "--seed",
        "7",
        "--no-scans",
        "--saas-share",
        "0.25",
      ],
      { cwd: REPO, stdio: "inherit" },
    );
    if (run.status !== 0) return 1;
  }
  const { types, productFields } = catalogueMaps();
  const catalogue: Catalogue = { types, productFields };
  const synth = await decidedCorpus(CORPORA.synthTrain, "synth-train", WEIGHTS.synthetic ?? 1, limit, cachedOnly);
  const receipts = await decidedCorpus(CORPORA.receiptsTrain, "receipts-train", WEIGHTS.real ?? 1, limit, cachedOnly);
  const invoices = [
    ...(await decidedCorpus(CORPORA.invoicesDev, "invoices-dev", WEIGHTS.real ?? 1, limit, cachedOnly)),
    ...(await decidedCorpus(CORPORA.einvoicesDev, "einvoices-dev", WEIGHTS.real ?? 1, limit, cachedOnly)),
  ];
  const merged = mergeGroups(invoices.map((d) => d.group));
  const pool = [...synth, ...receipts, ...invoices];

  // Out of sample on the pool's real documents: receipts by receipt, invoices by producer.
  const receiptFolds = kfoldModels(receipts, pool, (d) => d.group, folds, seed, catalogue, FIT);
  const invoiceFolds = kfoldModels(invoices, pool, (d) => merged.get(d.group) ?? d.group, folds, seed, catalogue, FIT);
  const scores = new Map<string, { hand: number; learned: number; n: number }>();
  // A ranker is kept or not on its own picks with its own probability; its pick calibrator is judged after.
  const withoutPicks =
    (modelOf: (d: DecidedDocument) => RankerModel | null) =>
    (d: DecidedDocument): RankerModel | null => {
      const model = modelOf(d);
      return model ? { ...model, pickCalibrators: {} } : null;
    };
  for (const [docs, modelOf] of [
    [receipts, receiptFolds],
    [invoices, invoiceFolds],
  ] as const) {
    for (const [field, s] of perField(docs, withoutPicks(modelOf), catalogue)) scores.set(field, s);
  }

  const brier: Brier = new Map();
  calibrationScores(receipts, receiptFolds, types, brier);
  calibrationScores(invoices, invoiceFolds, types, brier);

  const picks: Brier = new Map();
  pickScores(receipts, receiptFolds, types, picks);
  pickScores(invoices, invoiceFolds, types, picks);

  const full = fitModel(pool, types, FIT, {});
  const kept: Record<string, unknown> = {};
  const handKept: Record<string, unknown> = {};
  const rankers: RankerModel["rankers"] = {};
  for (const [key, ranker] of Object.entries(full.rankers)) {
    const s = scores.get(fieldOfKey(key));
    const round = (v: number) => Math.round(v * 1000) / 1000;
    const record = s ? { n: s.n, handF1: round(s.hand), learnedF1: round(s.learned) } : { n: 0 };
    // Without real documents to judge it, a key keeps the hand rule: synthetic figures alone do not decide.
    if (s && s.n >= 10 && s.learned >= s.hand) {
      rankers[key] = ranker;
      kept[key] = record;
    } else handKept[key] = record;
  }
  // A hand-set choice takes its confidence from its key's calibrator where that beat the family curve out of sample.
  const calibrators: NonNullable<RankerModel["calibrators"]> = {};
  const calibrated: Record<string, unknown> = {};
  for (const [key, calibrator] of Object.entries(full.calibrators ?? {})) {
    const b = brier.get(key);
    if (rankers[key] || !b || b.n < 10) continue;
    const round = (v: number) => Math.round(v * 10000) / 10000;
    const record = { n: b.n, curveBrier: round(b.curve / b.n), fittedBrier: round(b.fitted / b.n) };
    calibrated[key] = { ...record, kept: b.fitted < b.curve };
    if (b.fitted < b.curve) calibrators[key] = calibrator;
  }
  // A kept ranker's pick takes its confidence from the key's pick calibrator where that beat the ranker's own
  // probability out of sample.
  const pickCalibrators: NonNullable<RankerModel["pickCalibrators"]> = {};
  const pickCalibrated: Record<string, unknown> = {};
  for (const [key, calibrator] of Object.entries(full.pickCalibrators ?? {})) {
    const b = picks.get(key);
    if (!rankers[key] || !b || b.n < 10) continue;
    const round = (v: number) => Math.round(v * 10000) / 10000;
    pickCalibrated[key] = {
      n: b.n,
      rankerBrier: round(b.curve / b.n),
      fittedBrier: round(b.fitted / b.n),
      kept: b.fitted < b.curve,
    };
    if (b.fitted < b.curve) pickCalibrators[key] = calibrator;
  }
  const model: RankerModel = {
    version: 1,
    trainedOn: {
      seed,
      folds,
      ridge: FIT.ridge,
      corpora: {
        "synth-train (seed 7)": synth.length,
        "receipts-train": receipts.length,
        "invoices-dev + einvoices-dev": invoices.length,
      },
      learned: kept,
      handRuleKept: handKept,
      calibrators: calibrated,
      pickCalibrators: pickCalibrated,
    },
    rankers,
    calibrators,
    pickCalibrators,
  };
  writeFileSync(values.out, `${JSON.stringify(model, null, 2)}\n`);
  // The committed file is kept in the repository's format (biome packs number arrays), so re-running train on the
  // same data leaves it byte for byte as it is.
  spawnSync(join(REPO, "node_modules/.bin/biome"), ["format", "--write", values.out], { cwd: REPO, stdio: "ignore" });
  process.stdout.write(
    `wrote ${values.out}: learned ${Object.keys(kept).join(", ") || "none"}; hand rule kept for ${Object.keys(handKept).join(", ") || "none"}\n` +
      `${JSON.stringify({ learned: kept, handRuleKept: handKept, calibrators: calibrated, pickCalibrators: pickCalibrated }, null, 1)}\n`,
  );
  return 0;
}

runMain(main);
