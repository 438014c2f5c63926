/**
 * Extraction speed: median milliseconds per page of extract() alone, on Documents already ingested.
 *   npm run bench:extract -- [--product ID]... [--repeat N] [--locale TAG] PATH...
 * PATH is a Document JSON (as printed by `docsift ocr`), a PDF/PNG/JPG (ingested once, not timed) or a folder of
 * either; every file is read or ingested before the first extraction is timed. Every document is extracted `--repeat`
 * times after one warm-up run; its time is the median run divided by its page count, and the report gives the median
 * and 90th percentile over documents.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { resolveFields } from "../src/catalog/lookup.js";
import type { Document } from "../src/document/model.js";
import { extract } from "../src/extract/index.js";
import { defaultOcrEngine, ingest } from "../src/ingest/index.js";

const INPUT = /\.(json|pdf|png|jpe?g)$/i;

async function expand(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  const names = (await readdir(path)).filter((n) => INPUT.test(n) && n !== "labels.jsonl").sort();
  return names.map((n) => join(path, n));
}

async function load(path: string): Promise<Document> {
  const bytes = await readFile(path);
  if (/\.json$/i.test(path)) return JSON.parse(bytes.toString("utf8")) as Document;
  return ingest(new Uint8Array(bytes));
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      product: { type: "string", multiple: true },
      repeat: { type: "string", default: "5" },
      locale: { type: "string" },
    },
  });
  if (positionals.length === 0) {
    process.stderr.write("Usage: npm run bench:extract -- [--product ID]... [--repeat N] [--locale TAG] PATH...\n");
    process.exitCode = 2;
    return;
  }
  const products = values.product ?? ["invoices", "receipts", "documents"];
  const fields = resolveFields({ products });
  const repeat = Math.max(1, Number(values.repeat));
  const files = (await Promise.all(positionals.map(expand))).flat();
  // Every file is ingested before any extraction is timed: ingest's garbage (page images, OCR), collected during a
  // timed run, was counted as extraction's (2026-11-30: receipts-dev median 16.8 ms per page timed between ingests,
  // 10.5 after; the real invoices 15.1-15.9 and 13.9-15.5).
  const documents: Document[] = [];
  for (const file of files) documents.push(await load(file));
  const perPage: number[] = [];
  let pages = 0;
  for (const document of documents) {
    if (document.pages.length === 0) continue;
    extract(document, fields, { locale: values.locale });
    const runs: number[] = [];
    for (let i = 0; i < repeat; i++) {
      const started = performance.now();
      extract(document, fields, { locale: values.locale });
      runs.push(performance.now() - started);
    }
    runs.sort((a, b) => a - b);
    perPage.push(percentile(runs, 0.5) / document.pages.length);
    pages += document.pages.length;
  }
  await defaultOcrEngine().close?.();
  perPage.sort((a, b) => a - b);
  process.stdout.write(
    `${JSON.stringify(
      {
        documents: perPage.length,
        pages,
        products,
        medianMsPerPage: Math.round(percentile(perPage, 0.5) * 100) / 100,
        p90MsPerPage: Math.round(percentile(perPage, 0.9) * 100) / 100,
      },
      null,
      2,
    )}\n`,
  );
}

await main();
