/**
 * Labelled corpora as ingested Documents, for the out-of-sample benches (bench/kfold.ts) and training
 * (scripts/train.ts): each file is ingested once and cached by content hash under bench/out/calibrate-cache (the
 * cache bench/calibrate.ts uses; delete it after changing ingest). Each document carries its group: the unit k-fold
 * splits by, so that no fold trains on a document's siblings (same generator/producer, same source).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Document } from "../src/document/model.js";
import { mapConcurrent } from "../src/ingest/concurrency.js";
import { ingest } from "../src/ingest/index.js";
import { type LabelLine, parseLabels } from "./score.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));
export const DEFAULT_CACHE = join(REPO, "bench/out/calibrate-cache");

export interface LabelledDocument {
  corpus: string;
  label: LabelLine;
  document: Document;
  /** What k-fold groups by: PDF producer/creator for PDFs, the synthetic seed family, or the file itself. */
  group: string;
}

/** Producer and creator of a PDF's Info dictionary, read from the raw bytes (uncompressed in every corpus here). */
export function pdfProducer(bytes: Uint8Array): string | null {
  const text = Buffer.from(bytes.subarray(0, Math.min(bytes.length, 4_000_000))).toString("latin1");
  const pick = (key: string): string | null => {
    const m = new RegExp(`/${key}\\s*\\(((?:\\\\.|[^\\\\)])*)\\)`).exec(text);
    if (m?.[1]) return m[1].replace(/\\(.)/g, "$1").trim();
    const hex = new RegExp(`/${key}\\s*<([0-9A-Fa-f\\s]+)>`).exec(text);
    if (!hex?.[1]) return null;
    const raw = Buffer.from(hex[1].replace(/\s/g, ""), "hex");
    const decoded =
      raw[0] === 0xfe && raw[1] === 0xff ? raw.subarray(2).swap16().toString("utf16le") : raw.toString("latin1");
    return decoded.trim();
  };
  const xmp = /<(?:pdf:Producer|xmp:CreatorTool)>([^<]+)</.exec(text)?.[1]?.trim() ?? null;
  const producer = pick("Producer") ?? xmp;
  const creator = pick("Creator");
  const parts = [creator, producer].filter((p): p is string => !!p);
  // Version numbers and dates are not the generator: "iText 5.5.13 ©2000-2018" and "iText 7.1" are one producer.
  const name = parts
    .join(" / ")
    .replace(/[\d.]+|©|\(c\)/gi, "")
    .replace(/\s+/g, " ")
    .trim();
  return name || null;
}

export async function documentOf(path: string, cacheDir = DEFAULT_CACHE, cachedOnly = false): Promise<Document | null> {
  const bytes = new Uint8Array(readFileSync(path));
  const cached = join(cacheDir, `${createHash("sha256").update(bytes).digest("hex")}.json`);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, "utf8")) as Document;
  if (cachedOnly) return null;
  try {
    const document = await ingest(bytes, { concurrency: 1 });
    writeFileSync(cached, JSON.stringify(document));
    return document;
  } catch (err) {
    process.stderr.write(`skipped ${path}: ${err instanceof Error ? err.message : String(err)}\n`);
    return null;
  }
}

export interface LoadOptions {
  limit?: number;
  concurrency?: number;
  cacheDir?: string;
  /** Name of the corpus in reports; the labels file's folder name by default. */
  corpus?: string;
  /** Only documents already in the cache (no ingest): quick runs while the cache is still being filled. */
  cachedOnly?: boolean;
}

/** Loads (ingesting what is not cached) every labelled document of a labels.jsonl. */
export async function loadCorpus(labelsPath: string, options: LoadOptions = {}): Promise<LabelledDocument[]> {
  const cacheDir = options.cacheDir ?? DEFAULT_CACHE;
  mkdirSync(cacheDir, { recursive: true });
  const root = dirname(resolve(labelsPath));
  const corpus = options.corpus ?? basename(root);
  let labels = parseLabels(readFileSync(labelsPath, "utf8"));
  if (options.limit !== undefined) labels = labels.slice(0, options.limit);
  let done = 0;
  const loaded = await mapConcurrent(labels, Math.max(1, options.concurrency ?? 2), async (label) => {
    const path = resolve(root, label.file);
    const document = await documentOf(path, cacheDir, options.cachedOnly ?? false);
    done++;
    if (process.stderr.isTTY) process.stderr.write(`\r${corpus}: ${done}/${labels.length}`);
    if (!document) return null;
    const bytes = new Uint8Array(readFileSync(path));
    const producer = label.file.toLowerCase().endsWith(".pdf") ? pdfProducer(bytes) : null;
    return { corpus, label, document, group: producer ? `${corpus}:${producer}` : `${corpus}:${label.file}` };
  });
  if (process.stderr.isTTY) process.stderr.write("\n");
  return loaded.filter((d): d is LabelledDocument => d !== null);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Warms the cache: tsx bench/kfold-data.ts LABELS.jsonl...
  for (const path of process.argv.slice(2)) {
    const docs = await loadCorpus(path, { concurrency: 2 });
    const groups = new Map<string, number>();
    for (const d of docs) groups.set(d.group, (groups.get(d.group) ?? 0) + 1);
    process.stdout.write(`${path}: ${docs.length} documents, ${groups.size} groups\n`);
    if (groups.size < 20) for (const [g, n] of groups) process.stdout.write(`  ${n}  ${g}\n`);
  }
}
