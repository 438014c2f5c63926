/**
 * Pure scoring of extraction results against labels (no I/O): per-field precision/recall/F1, calibration of
 * confidences, and the errors worth looking at first.
 *
 * Per field, over the documents where the field is labelled: a non-null prediction equal to the label is a true
 * positive; a non-null wrong one is a false positive and also a false negative; null is a false negative.
 * Fields a document does not label are not scored; non-null answers there are only counted.
 */
import { FIELD_SETS, type FieldType, PRODUCTS } from "../src/catalog/catalog.js";

export interface LabelLine {
  file: string;
  product: string;
  locale?: string;
  /** Scalar fields: normal-form strings. */
  fields: Record<string, string>;
  /** Array-valued fields (`invoice.lineItems`): scored by bench/line-items-score.ts, never as a scalar field. */
  lists?: Record<string, unknown[]>;
}

export interface PredictedField {
  value: string | null;
  confidence: number;
  /** The value when the field's value is an array (line items); `value` is then null. */
  rows?: unknown[];
}

export interface DocumentOutcome {
  label: LabelLine;
  /** Field name -> prediction; null when the document failed to process (every labelled field is then missed). */
  predicted: Map<string, PredictedField> | null;
}

export interface FieldScore {
  field: string;
  n: number;
  tp: number;
  fp: number;
  fn: number;
  accuracy: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface CalibrationBucket {
  from: number;
  to: number;
  count: number;
  meanConfidence: number;
  accuracy: number;
}

export interface ErrorCase {
  file: string;
  field: string;
  expected: string;
  got: string | null;
  confidence: number;
}

export interface AccuracyReport {
  documents: number;
  failedDocuments: number;
  fields: FieldScore[];
  overall: Omit<FieldScore, "field">;
  calibration: CalibrationBucket[];
  /** Non-null values returned for fields the document does not label (per field and in total). */
  unlabelled: { total: number; nonNull: number; byField: Record<string, number> };
  worst: ErrorCase[];
}

export type Comparison = "exact" | "amount" | "text" | "compact";

export function comparisonFor(type: FieldType): Comparison {
  if (type === "amount") return "amount";
  // Labels copy IBANs as printed ("DE67 1004 ..."); the catalogue's form is compact upper case.
  if (type === "iban" || type === "bic" || type === "taxId") return "compact";
  if (type === "name" || type === "address" || type === "text") return "text";
  return "exact";
}

/** Case-folded, punctuation removed (as a space, so "NO.53" = "NO. 53"), whitespace collapsed. */
export function foldText(value: string): string {
  return value
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Parses a normal-form amount ("1234.50", "-12.00"); anything else is not an amount. */
function parseAmount(value: string): number | null {
  const t = value.trim();
  if (!/^-?\d+(\.\d+)?$/.test(t)) return null;
  return Number(t);
}

export function valuesMatch(comparison: Comparison, expected: string, got: string): boolean {
  switch (comparison) {
    case "amount": {
      const a = parseAmount(expected);
      const b = parseAmount(got);
      return a !== null && b !== null && Math.abs(a - b) < 0.005;
    }
    case "text":
      return foldText(expected) === foldText(got);
    case "exact":
      return expected.trim() === got.trim();
    case "compact":
      return expected.replace(/\s+/g, "").toUpperCase() === got.replace(/\s+/g, "").toUpperCase();
  }
}

function rates(tp: number, fp: number, fn: number, n: number): Omit<FieldScore, "field" | "tp" | "fp" | "fn" | "n"> {
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { accuracy: n === 0 ? 0 : tp / n, precision, recall, f1 };
}

const BUCKET_EDGES = [0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];

function bucketIndex(confidence: number): number {
  for (let i = BUCKET_EDGES.length - 2; i >= 0; i--) if (confidence >= BUCKET_EDGES[i]!) return i;
  return 0;
}

/**
 * Scores documents. `fieldTypes` gives each catalogue field's type; `productFields` lists the fields each product
 * returns (used to count non-null answers on unlabelled fields).
 */
export function scoreDocuments(
  outcomes: readonly DocumentOutcome[],
  fieldTypes: ReadonlyMap<string, FieldType>,
  productFields: ReadonlyMap<string, readonly string[]>,
  worstCount = 15,
): AccuracyReport {
  const counts = new Map<string, { n: number; tp: number; fp: number; fn: number }>();
  const buckets = BUCKET_EDGES.slice(0, -1).map(() => ({ count: 0, correct: 0, confidenceSum: 0 }));
  const errors: ErrorCase[] = [];
  const unlabelled = { total: 0, nonNull: 0, byField: {} as Record<string, number> };
  let failed = 0;

  for (const { label, predicted } of outcomes) {
    if (predicted === null) failed++;
    for (const [field, expected] of Object.entries(label.fields)) {
      const type = fieldTypes.get(field);
      if (type === undefined) continue;
      const c = counts.get(field) ?? { n: 0, tp: 0, fp: 0, fn: 0 };
      counts.set(field, c);
      c.n++;
      const p = predicted?.get(field) ?? { value: null, confidence: 0 };
      if (p.value === null) {
        c.fn++;
        errors.push({ file: label.file, field, expected, got: null, confidence: p.confidence });
        continue;
      }
      const ok = valuesMatch(comparisonFor(type), expected, p.value);
      const b = buckets[bucketIndex(p.confidence)]!;
      b.count++;
      b.confidenceSum += p.confidence;
      if (ok) {
        c.tp++;
        b.correct++;
      } else {
        c.fp++;
        c.fn++;
        errors.push({ file: label.file, field, expected, got: p.value, confidence: p.confidence });
      }
    }
    if (predicted === null) continue;
    for (const field of productFields.get(label.product) ?? []) {
      if (field in label.fields) continue;
      unlabelled.total++;
      if ((predicted.get(field)?.value ?? null) !== null) {
        unlabelled.nonNull++;
        unlabelled.byField[field] = (unlabelled.byField[field] ?? 0) + 1;
      }
    }
  }

  const fields = [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([field, c]) => ({ field, ...c, ...rates(c.tp, c.fp, c.fn, c.n) }));
  const total = fields.reduce((t, f) => ({ n: t.n + f.n, tp: t.tp + f.tp, fp: t.fp + f.fp, fn: t.fn + f.fn }), {
    n: 0,
    tp: 0,
    fp: 0,
    fn: 0,
  });
  // Confident wrong answers hurt most: wrong values first, then confident misses, each by confidence.
  errors.sort((a, b) => Number(a.got === null) - Number(b.got === null) || b.confidence - a.confidence);
  return {
    documents: outcomes.length,
    failedDocuments: failed,
    fields,
    overall: { ...total, ...rates(total.tp, total.fp, total.fn, total.n) },
    calibration: buckets.map((b, i) => ({
      from: BUCKET_EDGES[i]!,
      to: BUCKET_EDGES[i + 1]!,
      count: b.count,
      meanConfidence: b.count === 0 ? 0 : b.confidenceSum / b.count,
      accuracy: b.count === 0 ? 0 : b.correct / b.count,
    })),
    unlabelled,
    worst: errors.slice(0, worstCount),
  };
}

const pct = (x: number): string => x.toFixed(3);

/** Plain-text rendering of a report for the terminal. */
export function formatReport(report: AccuracyReport): string {
  const out: string[] = [];
  out.push(`documents: ${report.documents} (failed: ${report.failedDocuments})`, "");
  out.push(
    `${"field".padEnd(26)} ${"n".padStart(5)} ${"acc".padStart(6)} ${"prec".padStart(6)} ${"rec".padStart(6)} ${"F1".padStart(6)}`,
  );
  for (const f of report.fields) {
    out.push(
      `${f.field.padEnd(26)} ${String(f.n).padStart(5)} ${pct(f.accuracy).padStart(6)} ${pct(f.precision).padStart(6)} ${pct(f.recall).padStart(6)} ${pct(f.f1).padStart(6)}`,
    );
  }
  const o = report.overall;
  out.push(
    `${"overall (micro)".padEnd(26)} ${String(o.n).padStart(5)} ${pct(o.accuracy).padStart(6)} ${pct(o.precision).padStart(6)} ${pct(o.recall).padStart(6)} ${pct(o.f1).padStart(6)}`,
    "",
  );
  out.push("calibration (non-null predictions on labelled fields)");
  out.push(`${"confidence".padEnd(12)} ${"count".padStart(6)} ${"mean".padStart(6)} ${"observed".padStart(9)}`);
  for (const b of report.calibration) {
    out.push(
      `${`${b.from.toFixed(1)}-${b.to.toFixed(1)}`.padEnd(12)} ${String(b.count).padStart(6)} ${pct(b.meanConfidence).padStart(6)} ${(b.count === 0 ? "-" : pct(b.accuracy)).padStart(9)}`,
    );
  }
  const u = report.unlabelled;
  const byField = Object.entries(u.byField)
    .sort(([, a], [, b]) => b - a)
    .map(([f, n]) => `${f} ${n}`)
    .join(", ");
  out.push(
    "",
    `unlabelled fields with a non-null value: ${u.nonNull} of ${u.total}${byField ? ` (${byField})` : ""}`,
    "",
  );
  out.push(`worst ${report.worst.length} errors`);
  for (const e of report.worst) {
    out.push(
      `  ${e.file}  ${e.field}  expected ${JSON.stringify(e.expected)}  got ${JSON.stringify(e.got)}  conf ${e.confidence.toFixed(2)}`,
    );
  }
  return `${out.join("\n")}\n`;
}

/** One line of `docsift extract --format jsonl` output, as far as scoring needs it. */
export interface CliLine {
  file?: unknown;
  status?: unknown;
  results?: { fields?: unknown };
  error?: unknown;
  /** Present with `extract --timings`. */
  timings?: { pages?: unknown; ingestMs?: unknown; extractMs?: unknown; einvoiceMs?: unknown };
}

export interface TimingSummary {
  documents: number;
  pages: number;
  medianExtractMsPerPage: number;
  medianIngestMsPerPage: number;
  /** Reading attachments and merging an embedded e-invoice, per document; only when some line reports it. */
  medianEInvoiceMs?: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Median per-page times over the lines that carry timings; null when none do. */
export function timingSummary(lines: readonly CliLine[]): TimingSummary | null {
  const perPage: { extract: number; ingest: number; pages: number }[] = [];
  const einvoice: number[] = [];
  for (const line of lines) {
    const t = line.timings;
    if (!t || typeof t.pages !== "number" || t.pages < 1) continue;
    if (typeof t.extractMs !== "number" || typeof t.ingestMs !== "number") continue;
    if (typeof t.einvoiceMs === "number") einvoice.push(t.einvoiceMs);
    perPage.push({ extract: t.extractMs / t.pages, ingest: t.ingestMs / t.pages, pages: t.pages });
  }
  if (perPage.length === 0) return null;
  return {
    documents: perPage.length,
    pages: perPage.reduce((sum, p) => sum + p.pages, 0),
    medianExtractMsPerPage: median(perPage.map((p) => p.extract)),
    medianIngestMsPerPage: median(perPage.map((p) => p.ingest)),
    ...(einvoice.length > 0 ? { medianEInvoiceMs: median(einvoice) } : {}),
  };
}

/** Reads labels.jsonl; blank lines are skipped, a malformed line is an error naming its line number. */
export function parseLabels(text: string): LabelLine[] {
  return text
    .split("\n")
    .map((line, i) => [line.trim(), i + 1] as const)
    .filter(([line]) => line !== "")
    .map(([line, n]) => {
      const v = JSON.parse(line) as { file?: unknown; product?: unknown; locale?: unknown; fields?: unknown };
      if (typeof v.file !== "string" || typeof v.product !== "string" || typeof v.fields !== "object" || !v.fields) {
        throw new Error(`labels line ${n}: needs "file", "product" and "fields"`);
      }
      const fields: Record<string, string> = {};
      const lists: Record<string, unknown[]> = {};
      for (const [name, value] of Object.entries(v.fields as Record<string, unknown>)) {
        if (typeof value === "string") fields[name] = value;
        else if (Array.isArray(value)) lists[name] = value;
      }
      return {
        file: v.file,
        product: v.product,
        fields,
        ...(Object.keys(lists).length > 0 ? { lists } : {}),
        ...(typeof v.locale === "string" ? { locale: v.locale } : {}),
      };
    });
}

/** Field predictions of one CLI jsonl line, or null when the document failed. */
export function predictionsOf(line: CliLine): Map<string, PredictedField> | null {
  if (line.status !== "FINALISED" || !Array.isArray(line.results?.fields)) return null;
  const out = new Map<string, PredictedField>();
  for (const f of line.results.fields as unknown[]) {
    if (typeof f !== "object" || f === null) continue;
    const { name, value, confidence } = f as { name?: unknown; value?: unknown; confidence?: unknown };
    if (typeof name !== "string") continue;
    out.set(name, {
      value: typeof value === "string" ? value : null,
      confidence: typeof confidence === "number" ? confidence : 0,
      ...(Array.isArray(value) ? { rows: value } : {}),
    });
  }
  return out;
}

/** Field types and each product's field list, from the catalogue. */
export function catalogueMaps(): { types: Map<string, FieldType>; productFields: Map<string, string[]> } {
  const types = new Map<string, FieldType>();
  for (const set of FIELD_SETS) for (const f of set.fields) types.set(f.name, f.type);
  const productFields = new Map<string, string[]>();
  for (const p of PRODUCTS) {
    productFields.set(
      p.id,
      FIELD_SETS.filter((s) => p.fieldSets.includes(s.id)).flatMap((s) => s.fields.map((f) => f.name)),
    );
  }
  return { types, productFields };
}
