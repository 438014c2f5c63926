/**
 * Ruling lines out before OCR, or not (issue #16, src/ingest/ocr/rule-removal.ts):
 *   npx tsx bench/ocr-rules.ts LABELS.jsonl [LABELS.jsonl ...] [--limit N] [--seed N] [--keep-shading] [--verbose]
 * Every PDF of the labels is made a scan as bench/scan-invoices.ts makes it (bench/synth/scan.ts, 200 dpi, seed + the
 * document's index), and each of its pages, as ingest prepares it for OCR (the page source's PGM), is read twice by
 * ingest's engine (tesseract CLI, pages turned upright and levelled, doubtful lines re-read, faint pages read again):
 * as it is, and with its rules and shading removed after levelling. Reported per document: the share of the
 * born-digital PDF's words (pdftotext) found in each reading (as a multiset of words, punctuation at their ends left
 * out), the words won and lost with --verbose, and per page the OCR CPU ms of each way (this process and its OCR
 * children, one page at a time, in the same run) and the CPU ms the rule removal itself took. `--keep-shading`: the
 * rules only, shaded bands left as they are.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { parseArgs, promisify } from "node:util";
import { recogniseFaintPage } from "../src/ingest/faint-page.js";
import { createOcrEngine, type OcrEngine, type OcrResult } from "../src/ingest/index.js";
import { withUprightPages } from "../src/ingest/ocr/orientation-engine.js";
import { lineRereading } from "../src/ingest/ocr/rereading.js";
import { removeRules } from "../src/ingest/ocr/rule-removal.js";
import { sourceOf } from "../src/ingest/page-source.js";
import type { GreyImage } from "../src/ingest/pgm.js";
import { OCR_DPI } from "../src/ingest/rasterise.js";
import { cpuMs } from "./cpu-time.js";
import { runMain } from "./run-main.js";
import { parseLabels } from "./score.js";
import { degradeToScan } from "./synth/scan.js";

const run = promisify(execFile);

/** Words of a text: split at white space, brackets, quotes and separators at their ends left out. */
function words(text: string): string[] {
  return text
    .normalize("NFC")
    .split(/\s+/)
    .map((w) => w.replace(/^[([{"'«]+|[)\]}"'»,;:]+$/gu, ""))
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
}

function counts(list: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of list) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/** Words of `reference` (a multiset) found in `read`, and those not found. */
function found(
  reference: Map<string, number>,
  read: Map<string, number>,
): { hit: number; missing: Map<string, number> } {
  let hit = 0;
  const missing = new Map<string, number>();
  for (const [w, n] of reference) {
    const k = Math.min(n, read.get(w) ?? 0);
    hit += k;
    if (k < n) missing.set(w, n - k);
  }
  return { hit, missing };
}

const textOf = (result: OcrResult): string => result.words.map((w) => w.text).join(" ");

interface Way {
  name: string;
  engine: OcrEngine;
  cpu: number;
}

async function measuredRead(way: Way, image: Buffer): Promise<OcrResult> {
  const before = cpuMs() ?? Number.NaN;
  const result = await recogniseFaintPage(way.engine, image);
  way.cpu += (cpuMs() ?? Number.NaN) - before;
  return result;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      limit: { type: "string" },
      seed: { type: "string", default: "16" },
      verbose: { type: "boolean", default: false },
      "keep-shading": { type: "boolean", default: false },
    },
  });
  if (positionals.length === 0) {
    process.stderr.write("Usage: tsx bench/ocr-rules.ts LABELS.jsonl [...] [--limit N] [--seed N] [--verbose]\n");
    return 2;
  }
  const tesseract = createOcrEngine("tesseract-cli");
  const reread = lineRereading(tesseract.name);
  let rulesMs = 0;
  let rulesPages = 0;
  const cleaned = (page: GreyImage): GreyImage => {
    // CPU of this thread's synchronous work (wall time would count the other processes sharing the cores).
    const started = process.cpuUsage();
    const out = removeRules(page, { shading: !values["keep-shading"] });
    const used = process.cpuUsage(started);
    rulesMs += (used.user + used.system) / 1000;
    if (out.image !== page) rulesPages++;
    return out.image;
  };
  const asIs: Way = { name: "as is", engine: withUprightPages(tesseract, reread, (page) => page), cpu: 0 };
  const noRules: Way = { name: "rules out", engine: withUprightPages(tesseract, reread, cleaned), cpu: 0 };
  for (const labelsPath of positionals.map((p) => resolve(p))) {
    const root = dirname(labelsPath);
    let labels = parseLabels(await readFile(labelsPath, "utf8")).filter((l) => /\.pdf$/i.test(l.file));
    if (values.limit !== undefined) labels = labels.slice(0, Number(values.limit));
    const seed = Number(values.seed);
    for (const way of [asIs, noRules]) way.cpu = 0;
    rulesMs = 0;
    rulesPages = 0;
    let pages = 0;
    let readsOfRules = 0;
    const totals = { words: 0, asIs: 0, noRules: 0 };
    process.stdout.write(`${labelsPath}: ${labels.length} documents, scans at 200 dpi (seed ${seed})\n`);
    process.stdout.write(`  ${"document".padEnd(48)} words  as-is  rules-out  diff\n`);
    for (const [i, label] of labels.entries()) {
      const file = resolve(root, label.file);
      const pdf = new Uint8Array(await readFile(file));
      const reference = counts(words((await run("pdftotext", ["-enc", "UTF-8", file, "-"])).stdout));
      const scan = await degradeToScan(pdf, seed + i);
      const texts = { asIs: "", noRules: "" };
      const { source } = sourceOf(scan.bytes);
      await source.open(scan.bytes, async (opened) => {
        for (let p = 1; p <= opened.pageCount; p++) {
          const { image } = await opened.ocrImage(p, OCR_DPI);
          // The first page warms the engines up (models, the recogniser's process): read once, not counted.
          if (pages === 0 && i === 0) await recogniseFaintPage(noRules.engine, image);
          texts.asIs += `${textOf(await measuredRead(asIs, image))}\n`;
          const before = rulesPages;
          texts.noRules += `${textOf(await measuredRead(noRules, image))}\n`;
          if (rulesPages > before) readsOfRules++;
          pages++;
        }
      });
      const total = [...reference.values()].reduce((s, n) => s + n, 0);
      const a = found(reference, counts(words(texts.asIs)));
      const b = found(reference, counts(words(texts.noRules)));
      totals.words += total;
      totals.asIs += a.hit;
      totals.noRules += b.hit;
      const share = (n: number): string => (total === 0 ? "  -  " : (n / total).toFixed(3));
      process.stdout.write(
        `  ${basename(label.file).slice(0, 48).padEnd(48)} ${String(total).padStart(5)}  ${share(a.hit)}  ${share(b.hit)}      ${b.hit - a.hit >= 0 ? "+" : ""}${b.hit - a.hit}\n`,
      );
      if (values.verbose) {
        const won = [...a.missing].filter(([w, n]) => (b.missing.get(w) ?? 0) < n).map(([w]) => w);
        const lost = [...b.missing].filter(([w, n]) => (a.missing.get(w) ?? 0) < n).map(([w]) => w);
        process.stdout.write(`    won: ${won.join(" ")}\n    lost: ${lost.join(" ")}\n`);
      }
    }
    const per = (ms: number): string => (ms / Math.max(1, pages)).toFixed(0);
    process.stdout.write(
      `  all: ${totals.words} words, found as is ${(totals.asIs / totals.words).toFixed(3)}, rules out ` +
        `${(totals.noRules / totals.words).toFixed(3)} (${totals.noRules - totals.asIs >= 0 ? "+" : ""}${totals.noRules - totals.asIs} words)\n` +
        `  ${pages} pages, ${readsOfRules} with rules found; OCR CPU per page as is ${per(asIs.cpu)} ms, rules out ` +
        `${per(noRules.cpu)} ms, of which rule removal ${per(rulesMs)} ms CPU (all readings of the page)\n`,
    );
  }
  await tesseract.close?.();
  return 0;
}

runMain(main);
