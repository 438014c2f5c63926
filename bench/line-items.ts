import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { extractLineItems, type LineItemRow } from "../src/extract/line-items/index.js";
import { localeHints } from "../src/extract/normalise/locale.js";
import { mapConcurrent } from "../src/ingest/concurrency.js";
import { ingest } from "../src/ingest/index.js";
import { runMain } from "./run-main.js";
import { stripAttachments } from "./strip-attachments.js";

const COLUMNS = ["description", "quantity", "unit", "unitPrice", "amount", "taxRate", "productCode", "date"] as const;
type Column = (typeof COLUMNS)[number];
type TruthRow = Partial<Record<Column, string | null>>;

interface Labelled {
  file: string;
  product: string;
  locale?: string;
  rows: TruthRow[];
  subtotal: string | null;
  total: string | null;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function truthRow(v: unknown): TruthRow {
  const row: TruthRow = {};
  if (!isRecord(v)) return row;
  for (const c of COLUMNS) {
    const cell = v[c];
    if (cell === null) row[c] = null;
    else if (typeof cell === "string") row[c] = cell;
  }
  return row;
}

/** Labelled documents with a line-item array; others are skipped. */
function parseLineItemLabels(text: string): Labelled[] {
  const out: Labelled[] = [];
  for (const [i, raw] of text.split("\n").entries()) {
    if (raw.trim() === "") continue;
    const v: unknown = JSON.parse(raw);
    if (!isRecord(v) || typeof v.file !== "string" || typeof v.product !== "string" || !isRecord(v.fields)) {
      throw new Error(`labels line ${i + 1}: needs "file", "product" and "fields"`);
    }
    const f = v.fields;
    const prefix = v.product === "receipts" ? "receipt" : "invoice";
    const items = f[`${prefix}.lineItems`];
    if (!Array.isArray(items)) continue;
    const str = (key: string): string | null => (typeof f[key] === "string" ? f[key] : null);
    out.push({
      file: v.file,
      product: v.product,
      ...(typeof v.locale === "string" ? { locale: v.locale } : {}),
      rows: items.map(truthRow),
      subtotal: str(`${prefix}.subtotal`),
      total: str(`${prefix}.total`),
    });
  }
  return out;
}

/** Lower case, no accents, letters and digits only. */
export function foldDescription(text: string | null | undefined): string {
  return (text ?? "")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");
}

function sameNumber(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return a === b || (a ?? null) === (b ?? null);
  const x = Number(a);
  const y = Number(b);
  return Number.isFinite(x) && Number.isFinite(y) ? Math.abs(x - y) < 0.005 : a === b;
}

function cellMatches(column: Column, truth: string | null, got: string | null): boolean {
  if (column === "description") return foldDescription(truth) === foldDescription(got);
  if (column === "quantity" || column === "unitPrice" || column === "amount" || column === "taxRate") {
    return sameNumber(truth, got);
  }
  return (truth ?? "").trim().toLowerCase() === (got ?? "").trim().toLowerCase();
}

interface DocScore {
  truth: number;
  predicted: number;
  matched: [TruthRow, LineItemRow][];
}

export function scoreRows(truth: readonly TruthRow[], predicted: readonly LineItemRow[]): DocScore {
  const used = new Set<number>();
  const matched: [TruthRow, LineItemRow][] = [];
  for (const t of truth) {
    const i = predicted.findIndex(
      (p, j) =>
        !used.has(j) &&
        foldDescription(t.description) === foldDescription(p.description) &&
        sameNumber(t.amount, p.amount),
    );
    if (i < 0) continue;
    used.add(i);
    const p = predicted[i];
    if (p !== undefined) matched.push([t, p]);
  }
  return { truth: truth.length, predicted: predicted.length, matched };
}

function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      "strip-attachments": { type: "boolean", default: false },
      from: { type: "string", default: "0" },
      limit: { type: "string" },
      concurrency: { type: "string", default: "4" },
      show: { type: "boolean", default: false },
      cells: { type: "boolean", default: false },
    },
  });
  const labelsPath = positionals[0];
  if (!labelsPath || positionals.length > 1) {
    process.stderr.write(
      "Usage: npm run bench:line-items -- LABELS.jsonl [--strip-attachments] [--from N] [--limit N] [--show]\n",
    );
    return 2;
  }
  let labels = parseLineItemLabels(await readFile(labelsPath, "utf8")).slice(Number(values.from));
  if (values.limit !== undefined) labels = labels.slice(0, Number(values.limit));
  const base = dirname(resolve(labelsPath));
  const root = values["strip-attachments"] ? await stripAttachments(labels, base) : base;
  const msPerPage: number[] = [];
  const results = await mapConcurrent(labels, Math.max(1, Number(values.concurrency)), async (label) => {
    const document = await ingest(new Uint8Array(await readFile(resolve(root, label.file))), { concurrency: 1 });
    const hints = {
      locale: localeHints(label.locale),
      kind: label.product === "receipts" ? ("receipt" as const) : ("invoice" as const),
      subtotal: label.subtotal,
      total: label.total,
    };
    extractLineItems(document, hints); // warm-up: the first call pays for JIT compilation
    const started = performance.now();
    const table = extractLineItems(document, hints);
    msPerPage.push((performance.now() - started) / Math.max(1, document.pages.length));
    return { label, table, score: scoreRows(label.rows, table?.rows ?? []) };
  });
  let truth = 0;
  let predicted = 0;
  let tp = 0;
  const cells = new Map<Column, { n: number; ok: number }>();
  let sumChecked = 0;
  let sumClosed = 0;
  for (const { label, table, score } of results) {
    truth += score.truth;
    predicted += score.predicted;
    tp += score.matched.length;
    for (const [t, p] of score.matched) {
      for (const c of COLUMNS) {
        const expected = t[c];
        if (expected === undefined) continue;
        const s = cells.get(c) ?? { n: 0, ok: 0 };
        cells.set(c, s);
        s.n++;
        if (cellMatches(c, expected, p[c])) s.ok++;
        else if (values.cells) process.stdout.write(`${label.file} ${c}: want ${expected} got ${p[c]}\n`);
      }
    }
    if (table?.checks.sumCheck) {
      sumChecked++;
      if (table.checks.sumCheck.closes) sumClosed++;
    }
    if (values.show && score.matched.length !== Math.max(score.truth, score.predicted)) {
      process.stdout.write(
        `\n${label.file}: ${score.matched.length} of ${score.truth} rows (${score.predicted} read)\n`,
      );
      for (const t of label.rows) process.stdout.write(`  want ${JSON.stringify(t.description)} ${t.amount}\n`);
      for (const p of table?.rows ?? []) process.stdout.write(`  got  ${JSON.stringify(p.description)} ${p.amount}\n`);
    }
  }
  const f1Of = (t: number, p: number, m: number): number => (t + p === 0 ? 0 : (2 * m) / (t + p));
  const precision = predicted === 0 ? 0 : tp / predicted;
  const recall = truth === 0 ? 0 : tp / truth;
  const f1 = f1Of(truth, predicted, tp);
  const byProduct = new Map<string, { t: number; p: number; m: number; docs: number }>();
  for (const { label, score } of results) {
    const b = byProduct.get(label.product) ?? { t: 0, p: 0, m: 0, docs: 0 };
    byProduct.set(label.product, b);
    b.t += score.truth;
    b.p += score.predicted;
    b.m += score.matched.length;
    b.docs++;
  }
  const lines = [
    `labels: ${labelsPath}${values["strip-attachments"] ? " (attachments stripped)" : ""}, ${labels.length} documents`,
    `rows: ${truth} labelled, ${predicted} read, ${tp} matched`,
    `row F1 ${f1.toFixed(3)} (precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)})`,
    ...[...byProduct].map(
      ([product, b]) =>
        `  ${product}: row F1 ${f1Of(b.t, b.p, b.m).toFixed(3)} (${b.m} of ${b.t} rows, ${b.p} read, ${b.docs} documents)`,
    ),
    "cell accuracy over matched rows:",
    ...COLUMNS.filter((c) => cells.has(c)).map((c) => {
      const s = cells.get(c) ?? { n: 0, ok: 0 };
      return `  ${c.padEnd(12)} ${(s.ok / Math.max(1, s.n)).toFixed(3)} (${s.ok}/${s.n})`;
    }),
    `sum check closes on ${sumClosed} of ${sumChecked} tables`,
    `extractLineItems median ${median(msPerPage).toFixed(2)} ms per page over ${msPerPage.length} documents`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}

runMain(main);
