/**
 * The documents the soak uploads, built once before the server starts so generating them never competes with the
 * server for CPU: seeded synthetic born-digital invoices and receipts, synthetic scans (one-page JPGs), bundles of
 * 2-3 synthetic invoices for the split workflow, and, when the development corpora are there, their invoices
 * (born-digital) and receipt photos (scans). Uploads cycle through the pool; the server stores every upload anew.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import { corpusPlan } from "../synth/corpus.js";
import { generateDocument } from "../synth/document.js";
import { degradeToScan } from "../synth/scan.js";

export interface PoolDocument {
  /** Where it came from, for error messages. */
  label: string;
  bytes: Uint8Array;
  fileName: string;
  product: "invoices" | "receipts";
}

export interface DocumentPool {
  /** Text-layer documents: no OCR. */
  digital: PoolDocument[];
  /** Image-only documents: every page is OCR'd. */
  scans: PoolDocument[];
  /** Several invoices in one PDF, for split uploads. */
  bundles: PoolDocument[];
}

export interface PoolOptions {
  seed: number;
  digital: number;
  scans: number;
  bundles: number;
  /** Folder holding invoices-dev/ and receipts-dev/; skipped when absent. */
  corpusDir: string;
  /** At most this many files from each development corpus. */
  corpusFiles: number;
}

/** Upload limit is 16 pages; a bundle stays well inside it. */
const BUNDLE_MAX_PAGES = 10;

async function concatenate(pdfs: readonly Uint8Array[]): Promise<{ bytes: Uint8Array; pages: number }> {
  const out = await PDFDocument.create({ updateMetadata: false });
  for (const pdf of pdfs) {
    const src = await PDFDocument.load(pdf);
    for (const page of await out.copyPages(src, src.getPageIndices())) out.addPage(page);
  }
  return { bytes: await out.save(), pages: out.getPageCount() };
}

async function devFiles(dir: string, ext: string, limit: number): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .filter((n) => n.toLowerCase().endsWith(ext))
    .sort()
    .slice(0, limit)
    .map((n) => join(dir, n));
}

async function devDocuments(
  dir: string,
  ext: string,
  product: PoolDocument["product"],
  limit: number,
): Promise<PoolDocument[]> {
  const paths = await devFiles(dir, ext, limit);
  return Promise.all(
    paths.map(async (path) => ({
      label: `dev:${path}`,
      bytes: new Uint8Array(await readFile(path)),
      fileName: `document${ext}`,
      product,
    })),
  );
}

export async function buildPool(options: PoolOptions): Promise<DocumentPool> {
  const plan = corpusPlan(options.seed, options.digital, 0.8);
  const digital: PoolDocument[] = [];
  const invoices: Uint8Array[] = [];
  for (const entry of plan) {
    const doc = await generateDocument(entry.seed, entry.kind);
    digital.push({
      label: `synth:${entry.kind}:${entry.seed}`,
      bytes: doc.pdf,
      fileName: "document.pdf",
      product: doc.product,
    });
    if (entry.kind === "invoice" && doc.pages <= 3) invoices.push(doc.pdf);
  }

  // Scans from receipts, which are one page, so each gives a JPG like a phone photo.
  const scans: PoolDocument[] = [];
  for (const entry of corpusPlan(options.seed + 1, options.scans, 0)) {
    const doc = await generateDocument(entry.seed, "receipt");
    const scan = await degradeToScan(doc.pdf, entry.seed);
    scans.push({
      label: `synth-scan:${entry.seed}`,
      bytes: scan.bytes,
      fileName: `scan.${scan.format}`,
      product: "receipts",
    });
  }

  const bundles: PoolDocument[] = [];
  for (let i = 0; bundles.length < options.bundles && invoices.length >= 2 && i < options.bundles * 4; i++) {
    const count = 2 + (i % 2);
    const parts = Array.from({ length: count }, (_, k) => invoices[(i * 3 + k) % invoices.length] as Uint8Array);
    const bundle = await concatenate(parts);
    if (bundle.pages > BUNDLE_MAX_PAGES) continue;
    bundles.push({ label: `bundle:${i}`, bytes: bundle.bytes, fileName: "bundle.pdf", product: "invoices" });
  }

  const { corpusDir, corpusFiles } = options;
  digital.push(...(await devDocuments(join(corpusDir, "invoices-dev"), ".pdf", "invoices", corpusFiles)));
  scans.push(...(await devDocuments(join(corpusDir, "receipts-dev"), ".jpg", "receipts", corpusFiles)));
  return { digital, scans, bundles };
}
