/**
 * Golden answers (issue #21): the `docsift extract` JSON of every document of a fixed synthetic sample and of the
 * development corpora, stored under test/golden/<corpus>/<document>.json and compared field by field, so any change
 * of what extraction answers shows up as "which document, which field, old -> new".
 *
 * Accept today's answers (after checking the reported moves are improvements):
 *   UPDATE_GOLDEN=1 npm test -- test/integration/golden.test.ts
 * The synthetic inputs are committed (test/golden/inputs/synthetic/); delete that folder before updating to draw them
 * again from bench/synth (test/helpers/golden-synth.ts).
 *
 * The dev corpora live beside the repository (../shared/data, see its README); without them their tests are skipped.
 * OCR'd documents depend on the tesseract build: test/golden/ocr-setup.json names the one the answers were made
 * with, and on a machine with another one those documents are skipped (with the reason), not failed.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it, type TestContext } from "node:test";
import { fileURLToPath } from "node:url";
import { resolveFields } from "../../src/catalog/lookup.js";
import { mapConcurrent } from "../../src/ingest/concurrency.js";
import { defaultOcrEngine } from "../../src/ingest/index.js";
import { extractAnswer, goldenJson, isObject, type JsonObject, stableAnswer } from "../helpers/golden-answer.js";
import { answerChanges } from "../helpers/golden-diff.js";
import { type SynthInput, writeSynthSample } from "../helpers/golden-synth.js";

const UPDATE = process.env.UPDATE_GOLDEN === "1";
const UPDATE_COMMAND = "UPDATE_GOLDEN=1 npm test -- test/integration/golden.test.ts";
const GOLDEN = fileURLToPath(new URL("../golden/", import.meta.url));
const SYNTH_INPUTS = join(GOLDEN, "inputs", "synthetic");
const OCR_SETUP_FILE = join(GOLDEN, "ocr-setup.json");
const MAIN = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
/** Documents extracted at once (each with one OCR page at a time), as `docsift extract` does on two cores. */
const CONCURRENCY = 2;

function sharedCorpus(name: string): string {
  return fileURLToPath(new URL(`../../../shared/data/${name}/`, import.meta.url));
}

/** One document to answer: its name in the corpus, where its bytes are, the product asked for. */
interface GoldenDocument {
  name: string;
  path: string;
  product: string;
  /** Read by OCR (an image or a scan), so its answer depends on the tesseract build. */
  ocr: boolean;
}

/** The OCR the answers depend on: the engine `docsift extract` picks here, its version, and the re-reading. */
function ocrSetup(): string {
  const configured = process.env.DOCSIFT_OCR_ENGINE;
  const version = spawnSync("tesseract", ["--version"], { encoding: "utf8" });
  const cli = version.status === 0 ? (version.stdout.split("\n")[0] ?? "").trim() : undefined;
  const engine =
    configured === "tesseract-js" || (!configured && cli === undefined) ? "tesseract.js" : (cli ?? "tesseract");
  const reread = process.env.DOCSIFT_OCR_REREAD || "doubtful";
  return `${engine}, reread ${reread}`;
}

const OCR_SETUP = ocrSetup();
const storedSetup = existsSync(OCR_SETUP_FILE)
  ? (JSON.parse(readFileSync(OCR_SETUP_FILE, "utf8")) as { ocr?: string }).ocr
  : undefined;

function labelledDocuments(dir: string, keep: (name: string, index: number) => boolean = () => true) {
  return readFileSync(join(dir, "labels.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { file: string; product: string })
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
    .filter((entry, index) => keep(entry.file, index))
    .map(
      (entry): GoldenDocument => ({
        name: entry.file,
        path: join(dir, entry.file),
        product: entry.product,
        ocr: !entry.file.toLowerCase().endsWith(".pdf"),
      }),
    );
}

async function synthDocuments(): Promise<GoldenDocument[]> {
  const manifestFile = join(SYNTH_INPUTS, "manifest.json");
  let manifest: SynthInput[];
  if (existsSync(manifestFile)) manifest = JSON.parse(await readFile(manifestFile, "utf8")) as SynthInput[];
  else if (UPDATE) manifest = await writeSynthSample(SYNTH_INPUTS);
  else throw new Error(`${manifestFile} is missing: run ${UPDATE_COMMAND} to draw the synthetic sample again`);
  return manifest.map((input) => ({
    name: input.file,
    path: join(SYNTH_INPUTS, input.file),
    product: input.product,
    ocr: input.scan,
  }));
}

/**
 * Answers the corpus's documents and compares them with (or, under UPDATE_GOLDEN=1, stores them as) the golden
 * answers in test/golden/<corpus>/; fails naming every document and field that moved.
 */
async function checkCorpus(t: TestContext, corpus: string, documents: GoldenDocument[]): Promise<void> {
  const dir = join(GOLDEN, corpus);
  const skipOcr = !UPDATE && storedSetup !== OCR_SETUP;
  const run = documents.filter((d) => !(skipOcr && d.ocr));
  const skipped = documents.length - run.length;
  const skipReason = `${skipped} OCR'd documents not compared: the golden answers were made with "${storedSetup}", this machine reads with "${OCR_SETUP}"`;
  if (run.length === 0) {
    t.skip(skipReason);
    return;
  }
  const started = performance.now();
  const answers = await mapConcurrent(run, CONCURRENCY, async (document) => {
    const fields = resolveFields({ products: [document.product] });
    const bytes = new Uint8Array(await readFile(document.path));
    const { answer } = await extractAnswer(`${corpus}/${document.name}`, bytes, fields, { pageConcurrency: 1 });
    // Canonical form: what the golden file holds once written and read back.
    return { document, answer: JSON.parse(goldenJson(answer)) as JsonObject };
  });
  t.diagnostic(`${run.length} documents answered in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (skipped > 0) t.diagnostic(skipReason);

  const moved: string[] = [];
  /** Documents without a golden answer yet. */
  const added: string[] = [];
  let movedDocuments = 0;
  for (const { document, answer } of answers) {
    const file = join(dir, `${document.name}.json`);
    const stored = existsSync(file) ? (JSON.parse(await readFile(file, "utf8")) as JsonObject) : undefined;
    const changes = stored ? answerChanges(stored, answer) : ["no golden answer yet"];
    if (changes.length === 0) continue;
    movedDocuments++;
    if (stored) moved.push(`${corpus}/${document.name}`, ...changes.map((line) => `  ${line}`));
    else added.push(`${corpus}/${document.name}`);
    if (UPDATE) {
      await mkdir(dir, { recursive: true });
      await writeFile(file, goldenJson(answer));
    }
  }
  const names = new Set(documents.map((d) => `${d.name}.json`));
  const stale = existsSync(dir) ? (await readdir(dir)).filter((f) => f.endsWith(".json") && !names.has(f)) : [];
  for (const file of stale) {
    moved.push(`${corpus}/${file.slice(0, -".json".length)}`, "  golden answer of a document no longer in the corpus");
    if (UPDATE) await rm(join(dir, file));
  }
  if (added.length > 0) moved.push(`${added.length} documents without a golden answer yet: ${added.join(", ")}`);
  if (UPDATE) {
    await writeFile(OCR_SETUP_FILE, goldenJson({ ocr: OCR_SETUP }));
    if (moved.length > 0) t.diagnostic(`updated ${movedDocuments + stale.length} golden answers:`);
    for (const line of moved) t.diagnostic(line);
    return;
  }
  if (moved.length > 0) assert.fail(report(corpus, movedDocuments + stale.length, answers.length, moved));
}

/** The failure message: a count, then each moved document with its changed fields, cut at 150 lines. */
function report(corpus: string, count: number, total: number, lines: string[]): string {
  const limit = 150;
  const shown = lines.length > limit ? [...lines.slice(0, limit), `... ${lines.length - limit} more lines`] : lines;
  return [
    `${corpus}: the answers of ${count} of ${total} documents moved from test/golden/${corpus}/ (field: old -> new).`,
    `If every move is intended, store them with: ${UPDATE_COMMAND}`,
    ...shown,
  ].join("\n");
}

after(async () => {
  // tesseract.js workers and the re-reading recogniser's child processes would keep the runner alive.
  await defaultOcrEngine().close?.();
});

describe("golden answers of docsift extract", () => {
  it("synthetic: 20 seeded bench/synth documents, 6 of them scans", async (t) => {
    await checkCorpus(t, "synthetic", await synthDocuments());
  });

  it("the stored answers are the CLI's JSON without fileId and timestamp", async () => {
    const names = ["0001-invoice.pdf", "0003-invoice.pdf"];
    const out = spawnSync(
      process.execPath,
      ["--import", "tsx", MAIN, "extract", "--product", "invoices", ...names.map((n) => join(SYNTH_INPUTS, n))],
      { encoding: "utf8" },
    );
    assert.equal(out.status, 0, out.stderr);
    const entries = JSON.parse(out.stdout) as JsonObject[];
    assert.equal(entries.length, names.length);
    entries.forEach((entry, i) => {
      const name = `synthetic/${names[i]}`;
      assert.ok(isObject(entry) && typeof entry.fileId === "string", `${name}: the CLI's entry has a fileId`);
      const stored = readFileSync(join(GOLDEN, `${name}.json`), "utf8");
      const cli = goldenJson(stableAnswer(entry, name));
      const changes = answerChanges(JSON.parse(stored) as JsonObject, JSON.parse(cli) as JsonObject);
      assert.equal(cli, stored, `${name}: the CLI answers otherwise than the golden file:\n${changes.join("\n")}`);
    });
  });

  for (const corpus of ["invoices-dev", "einvoices-dev", "receipts-dev"]) {
    const dir = sharedCorpus(corpus);
    const present = existsSync(join(dir, "labels.jsonl"));
    it(`${corpus}: every labelled document`, { skip: present ? false : `${dir} absent` }, async (t) => {
      await checkCorpus(t, corpus, labelledDocuments(dir));
    });
  }
});
