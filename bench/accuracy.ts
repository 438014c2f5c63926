/**
 * Accuracy benchmark: runs the real `docsift extract` CLI over a labelled corpus and scores it.
 * With `--folds K --group source [--seed N] [--fields]` it prints instead the out-of-sample figures of the learned
 * rankers beside in-sample and hand-set ones, over every corpus (bench/kfold.ts).
 *   npm run bench:accuracy -- LABELS.jsonl [--with-locale] [--strip-attachments] [--limit N] [--concurrency N] [--chunk N] [--json OUT]
 * --strip-attachments copies each PDF's pages as they are, without its embedded files (`qpdf --empty --pages`,
 * bench/strip-attachments.ts), into bench/out/stripped/ first: the page-extraction figure of an e-invoice corpus
 * beside its XML figure.
 * Files in the labels are relative to the labels file's folder. Documents are grouped by product (and by locale with
 * --with-locale, which passes each label line's "locale" as --locale) and run in chunks, several CLI processes at once.
 */
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { mapConcurrent } from "../src/ingest/concurrency.js";
import { kfoldMain } from "./kfold.js";
import { formatLineItems, producerGroup, scoreLineItemOutcomes } from "./line-items-score.js";
import { runMain } from "./run-main.js";
import {
  type CliLine,
  catalogueMaps,
  type DocumentOutcome,
  formatReport,
  type LabelLine,
  parseLabels,
  predictionsOf,
  scoreDocuments,
  timingSummary,
} from "./score.js";
import { stripAttachments } from "./strip-attachments.js";
import { readXmlWordings, type XmlWordings } from "./xml-wordings.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));

interface Chunk {
  product: string;
  locale: string | null;
  files: string[];
}

function chunksOf(labels: readonly LabelLine[], root: string, withLocale: boolean, size: number): Chunk[] {
  const groups = new Map<string, Chunk>();
  for (const label of labels) {
    const locale = withLocale ? (label.locale ?? null) : null;
    const key = `${label.product}\u0000${locale ?? ""}`;
    const group = groups.get(key) ?? { product: label.product, locale, files: [] };
    groups.set(key, group);
    group.files.push(resolve(root, label.file));
  }
  const chunks: Chunk[] = [];
  for (const g of groups.values()) {
    for (let i = 0; i < g.files.length; i += size) chunks.push({ ...g, files: g.files.slice(i, i + size) });
  }
  return chunks;
}

function runChunk(chunk: Chunk): Promise<CliLine[]> {
  const args = ["--import", "tsx", "src/cli/main.ts", "extract", "--format", "jsonl", "--timings"];
  args.push("--product", chunk.product);
  if (chunk.locale) args.push("--locale", chunk.locale);
  args.push(...chunk.files);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const lines = stdout
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as CliLine);
      // Exit 1 with per-file lines means some documents failed: they are scored as misses, not fatal.
      if (lines.length === 0 && code !== 0) {
        reject(new Error(`extract exited ${code} with no output: ${stderr.slice(0, 2000)}`));
        return;
      }
      resolvePromise(lines);
    });
  });
}

/**
 * Runs `docsift extract` over the labelled documents (files relative to `root`), `chunk` files per CLI process and
 * `concurrency` processes at once: each document's predictions (null when it failed) and the CLI's output lines.
 */
export async function extractCorpus(
  labels: readonly LabelLine[],
  root: string,
  options: { withLocale: boolean; chunk: number; concurrency: number },
): Promise<{ outcomes: DocumentOutcome[]; lines: CliLine[] }> {
  const chunks = chunksOf(labels, root, options.withLocale, options.chunk);
  let done = 0;
  const results = await mapConcurrent(chunks, options.concurrency, async (chunk) => {
    const lines = await runChunk(chunk);
    done += chunk.files.length;
    if (process.stderr.isTTY) process.stderr.write(`\r${done}/${labels.length} documents`);
    return lines;
  });
  if (process.stderr.isTTY) process.stderr.write("\n");
  const lines = results.flat();
  const byFile = new Map<string, CliLine>();
  for (const line of lines) if (typeof line.file === "string") byFile.set(resolve(REPO, line.file), line);
  const outcomes = labels.map((label): DocumentOutcome => {
    const line = byFile.get(resolve(root, label.file));
    return { label, predicted: line ? predictionsOf(line) : null };
  });
  return { outcomes, lines };
}

async function main(): Promise<number> {
  // Out-of-sample figures of the learned rankers (bench/kfold.ts): `--folds 5 --group source [--seed N]`.
  if (process.argv.slice(2).some((a) => a === "--folds" || a.startsWith("--folds="))) {
    return kfoldMain(process.argv.slice(2));
  }
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      "with-locale": { type: "boolean", default: false },
      limit: { type: "string" },
      concurrency: { type: "string", default: "2" },
      chunk: { type: "string", default: "20" },
      json: { type: "string" },
      "strip-attachments": { type: "boolean", default: false },
    },
  });
  const labelsPath = positionals[0];
  if (!labelsPath || positionals.length > 1) {
    process.stderr.write(
      "Usage: npm run bench:accuracy -- LABELS.jsonl [--with-locale] [--limit N] [--concurrency N] [--chunk N] [--json OUT]\n",
    );
    return 2;
  }
  let labels = parseLabels(await readFile(labelsPath, "utf8"));
  if (values.limit !== undefined) labels = labels.slice(0, Number(values.limit));
  const strip = values["strip-attachments"] ?? false;
  const root = strip ? await stripAttachments(labels, dirname(resolve(labelsPath))) : dirname(resolve(labelsPath));
  const withLocale = values["with-locale"] ?? false;
  const started = Date.now();
  const { outcomes, lines } = await extractCorpus(labels, root, {
    withLocale,
    chunk: Math.max(1, Number(values.chunk)),
    concurrency: Math.max(1, Number(values.concurrency)),
  });
  const { types, productFields } = catalogueMaps();
  const report = scoreDocuments(outcomes, types, productFields);
  const timing = timingSummary(lines);
  const seconds = (Date.now() - started) / 1000;
  const timingText = timing
    ? `median per page over ${timing.pages} pages: extract ${timing.medianExtractMsPerPage.toFixed(2)} ms, ingest ${timing.medianIngestMsPerPage.toFixed(0)} ms\n` +
      (timing.medianEInvoiceMs === undefined
        ? ""
        : `median per document: e-invoice (attachments, XML, merge) ${timing.medianEInvoiceMs.toFixed(2)} ms\n`)
    : "no timings reported by the CLI\n";
  const heading = `labels: ${labelsPath}${withLocale ? " (with locale hints)" : ""}${strip ? " (attachments stripped)" : ""}\n`;
  process.stdout.write(`${heading}${formatReport(report)}${timingText}wall time: ${seconds.toFixed(1)} s\n`);
  // Line items (issue #18): the pipeline's invoice.lineItems / receipt.lineItems, rows matched per document.
  const base = dirname(resolve(labelsPath));
  const groups = new Map<string, string | null>();
  const xml = new Map<string, XmlWordings | null>();
  for (const label of labels) {
    const bytes = new Uint8Array(await readFile(resolve(base, label.file)));
    groups.set(label.file, await producerGroup(bytes));
    xml.set(label.file, await readXmlWordings(bytes));
  }
  const lineItems = scoreLineItemOutcomes(
    outcomes,
    (file) => groups.get(file) ?? null,
    (file) => xml.get(file) ?? null,
  );
  const withLists = labels.some((l) => l.lists !== undefined);
  if (lineItems !== null) process.stdout.write(`\n${formatLineItems(lineItems)}`);
  else if (withLists) process.stdout.write("\nline items: labelled, but the pipeline returned no line-item field\n");
  if (values.json) {
    const json = { labels: labelsPath, withLocale, seconds, timing, ...report };
    await writeFile(values.json, `${JSON.stringify(json, null, 2)}\n`);
  }
  return 0;
}

// Imported by other benchmarks (bench/scan-invoices.ts) for extractCorpus: run only as a script.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) runMain(main);
