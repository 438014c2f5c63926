/**
 * Split benchmark: bundles of 2-6 documents (1-4 pages each) from the development corpora and the synthetic
 * generator, shuffled, some with blank separator pages, concatenated with pdf-lib and ingested like an upload; then
 * detectDocuments (bundles stay within the upload page limit). Reports boundary precision, recall and F1 and the share of bundles split exactly.
 *
 *   npm run bench:split -- [--bundles 150] [--seed 1] [--verbose]
 *
 * OCR results are cached in bench/out/split/ocr by page-image hash (and scans in bench/out/split/scans), so a
 * rerun only pays for text layers and page rendering.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { PDFDocument } from "pdf-lib";
import type { Document } from "../src/document/model.js";
import { defaultOcrEngine, ingest, LIMITS, type OcrEngine, type OcrResult } from "../src/ingest/index.js";
import { boundaryDecisions, documentFeatures, segmentsFrom } from "../src/split/index.js";
import { corpusPlan } from "./synth/corpus.js";
import { generateDocument } from "./synth/document.js";
import { Rng } from "./synth/prng.js";
import { degradeToScan } from "./synth/scan.js";

const DATA = "/work/shared/data";
const OUT = "bench/out/split";

interface SourceDoc {
  /** For the error listing only: where the document came from. */
  label: string;
  pdf: Uint8Array;
  pages: number;
}

/** OCR through a disk cache keyed by the page image: the same page always renders to the same pixels. */
class CachedOcr implements OcrEngine {
  readonly name: string;
  constructor(
    private readonly inner: OcrEngine,
    private readonly dir: string,
  ) {
    this.name = `cached-${inner.name}`;
    mkdirSync(dir, { recursive: true });
  }
  async recognise(image: Buffer, signal?: AbortSignal): Promise<OcrResult> {
    const file = join(this.dir, `${createHash("sha256").update(image).digest("hex")}.json`);
    if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as OcrResult;
    const result = await this.inner.recognise(image, signal);
    writeFileSync(file, JSON.stringify(result));
    return result;
  }
  async close(): Promise<void> {
    await this.inner.close?.();
  }
}

async function pdfPageCount(pdf: Uint8Array): Promise<number> {
  return (await PDFDocument.load(pdf, { ignoreEncryption: true })).getPageCount();
}

/** A photo or scan as a one-page PDF, the way a scanner app would deliver it (200 dpi). */
async function jpgAsPdf(jpg: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const image = await doc.embedJpg(jpg);
  const w = (image.width * 72) / 200;
  const h = (image.height * 72) / 200;
  doc.addPage([w, h]).drawImage(image, { x: 0, y: 0, width: w, height: h });
  return doc.save();
}

async function devInvoices(): Promise<SourceDoc[]> {
  const dir = join(DATA, "invoices-dev");
  const docs: SourceDoc[] = [];
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith(".pdf"))
    .sort()) {
    const pdf = new Uint8Array(readFileSync(join(dir, name)));
    const pages = await pdfPageCount(pdf);
    if (pages <= 4) docs.push({ label: `dev-invoice:${name}`, pdf, pages });
  }
  return docs;
}

async function devReceipts(rng: Rng, count: number): Promise<SourceDoc[]> {
  const dir = join(DATA, "receipts-dev");
  const names = readdirSync(dir)
    .filter((f) => f.endsWith(".jpg"))
    .sort();
  const chosen: string[] = [];
  while (chosen.length < Math.min(count, names.length)) {
    const name = rng.pick(names);
    if (!chosen.includes(name)) chosen.push(name);
  }
  const docs: SourceDoc[] = [];
  for (const name of chosen) {
    docs.push({ label: `dev-receipt:${name}`, pdf: await jpgAsPdf(readFileSync(join(dir, name))), pages: 1 });
  }
  return docs;
}

/** Born-digital synthetic documents: invoices of 1-4 pages (with or without markers) and receipts. */
async function synthDigital(seed: number, count: number): Promise<SourceDoc[]> {
  const docs: SourceDoc[] = [];
  for (const entry of corpusPlan(seed, count, 0.8)) {
    const rng = new Rng(entry.seed ^ 0x5911);
    const targetPages = rng.int(1, 4);
    const options =
      entry.kind === "invoice"
        ? {
            itemCount: targetPages === 1 ? rng.int(1, 12) : rng.int((targetPages - 1) * 24 + 2, targetPages * 20),
            ...(rng.chance(0.5) ? {} : { pageMarkers: rng.chance(0.5) }),
          }
        : {};
    const doc = await generateDocument(entry.seed, entry.kind, options);
    if (doc.pages <= 4) docs.push({ label: `synth:${entry.kind}:${entry.seed}`, pdf: doc.pdf, pages: doc.pages });
  }
  return docs;
}

/** Synthetic documents degraded to scans (cached: each costs about a second). */
async function synthScans(seed: number, count: number): Promise<SourceDoc[]> {
  const dir = join(OUT, "scans");
  mkdirSync(dir, { recursive: true });
  const docs: SourceDoc[] = [];
  for (const entry of corpusPlan(seed ^ 0x5ca, count, 0.7)) {
    const file = join(dir, `${entry.seed}.pdf`);
    let pdf: Uint8Array;
    if (existsSync(file)) pdf = new Uint8Array(readFileSync(file));
    else {
      const rng = new Rng(entry.seed ^ 0x77);
      const options = entry.kind === "invoice" ? { itemCount: rng.chance(0.7) ? rng.int(1, 12) : rng.int(26, 40) } : {};
      const doc = await generateDocument(entry.seed, entry.kind, options);
      if (doc.pages > 2) continue;
      const scan = await degradeToScan(doc.pdf, entry.seed);
      pdf = scan.format === "jpg" ? await jpgAsPdf(scan.bytes) : scan.bytes;
      writeFileSync(file, pdf);
    }
    docs.push({ label: `scan:${entry.kind}:${entry.seed}`, pdf, pages: await pdfPageCount(pdf) });
  }
  return docs;
}

interface Bundle {
  pdf: Uint8Array;
  /** Expected segments: 1-based page lists of the bundle (blank separators in none). */
  truth: number[][];
  labels: string[];
}

async function makeBundle(rng: Rng, pools: readonly (readonly [SourceDoc[], number])[]): Promise<Bundle> {
  const count = rng.int(2, 6);
  const withBlanks = rng.chance(0.2);
  const chosen: SourceDoc[] = [];
  let total = 0;
  // An upload holds at most LIMITS.maxPages pages (blank separators included): draw again when a document would not fit.
  for (let tries = 0; chosen.length < count && tries < 200; tries++) {
    const pool = rng.weighted(pools.map(([docs, weight]) => [docs, weight] as [SourceDoc[], number]));
    const doc = rng.pick(pool);
    const room = LIMITS.maxPages - total - (withBlanks ? 1 : 0);
    if (chosen.includes(doc) || doc.pages > room) continue;
    chosen.push(doc);
    total += doc.pages + (withBlanks ? 1 : 0);
  }
  const out = await PDFDocument.create({ updateMetadata: false });
  const truth: number[][] = [];
  let pageNum = 0;
  for (const [i, doc] of chosen.entries()) {
    if (withBlanks && i > 0 && rng.chance(0.6)) {
      out.addPage([595.28, 841.89]);
      pageNum += 1;
    }
    const src = await PDFDocument.load(doc.pdf, { ignoreEncryption: true });
    const pages = await out.copyPages(src, src.getPageIndices());
    const numbers: number[] = [];
    for (const page of pages) {
      out.addPage(page);
      pageNum += 1;
      numbers.push(pageNum);
    }
    truth.push(numbers);
  }
  return { pdf: await out.save(), truth, labels: chosen.map((d) => d.label) };
}

function starts(segments: readonly (readonly number[])[]): Set<number> {
  return new Set(segments.slice(1).map((s) => s[0] ?? 0));
}

function cachedIngest(pdf: Uint8Array, ocr: OcrEngine): Promise<Document> {
  const dir = join(OUT, "documents");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${createHash("sha256").update(pdf).digest("hex")}.json`);
  if (existsSync(file)) return Promise.resolve(JSON.parse(readFileSync(file, "utf8")) as Document);
  return ingest(pdf, { ocr }).then((doc) => {
    writeFileSync(file, JSON.stringify(doc));
    return doc;
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      bundles: { type: "string", default: "150" },
      seed: { type: "string", default: "1" },
      verbose: { type: "boolean", default: false },
    },
  });
  const seed = Number(values.seed);
  const bundleCount = Number(values.bundles);
  const rng = new Rng(seed);
  const started = performance.now();
  const pools: [SourceDoc[], number][] = [
    [await synthDigital(seed, 220), 0.5],
    [await synthScans(seed, 40), 0.12],
    [await devInvoices(), 0.23],
    [await devReceipts(rng.fork(), 40), 0.15],
  ];
  const ocr = new CachedOcr(defaultOcrEngine(), join(OUT, "ocr"));
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let exact = 0;
  let pages = 0;
  let detectMs = 0;
  for (let b = 0; b < bundleCount; b++) {
    const bundle = await makeBundle(rng.fork(), pools);
    const document = await cachedIngest(bundle.pdf, ocr);
    pages += document.pages.length;
    const t0 = performance.now();
    const features = documentFeatures(document);
    const segments = segmentsFrom(features);
    detectMs += performance.now() - t0;
    const predicted = segments.map((s) => s.pages);
    const want = starts(bundle.truth);
    const got = starts(predicted);
    for (const p of got)
      if (want.has(p)) tp += 1;
      else fp += 1;
    for (const p of want) if (!got.has(p)) fn += 1;
    const ok = JSON.stringify(predicted) === JSON.stringify(bundle.truth);
    if (ok) exact += 1;
    else if (values.verbose) {
      console.log(`bundle ${b}: want ${JSON.stringify(bundle.truth)} got ${JSON.stringify(predicted)}`);
      console.log(`  docs: ${bundle.labels.join("  ")}`);
      for (const f of features) {
        const { pageNum, blank, marker, title, topDate, closing, continues, number, source, aspect } = f;
        const m = marker ? `${marker.page}/${marker.of ?? "?"}` : "-";
        const flags = { blank, title, topDate, closing, continues };
        const on = Object.entries(flags).filter(([, v]) => v);
        console.log(
          `    p${pageNum} ${source} aspect ${aspect.toFixed(2)} marker ${m} number ${number ?? "-"} ${on.map(([k]) => k).join(",")}`,
        );
      }
      for (const d of boundaryDecisions(features)) {
        const truthBoundary = want.has(d.before);
        if (truthBoundary !== d.boundary) {
          console.log(
            `  ${d.after}|${d.before} want ${truthBoundary} score ${d.score.toFixed(2)} ${d.reasons.join(" ")}`,
          );
        }
      }
    }
  }
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const report = {
    bundles: bundleCount,
    pages,
    boundaries: tp + fn,
    precision: Number(precision.toFixed(4)),
    recall: Number(recall.toFixed(4)),
    f1: Number(f1.toFixed(4)),
    exactBundles: Number((exact / bundleCount).toFixed(4)),
    detectMsPerPage: Number((detectMs / Math.max(1, pages)).toFixed(2)),
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    targets: { f1: 0.97, exactBundles: 0.9 },
  };
  console.log(JSON.stringify(report, null, 2));
  await ocr.close();
}

await main();
