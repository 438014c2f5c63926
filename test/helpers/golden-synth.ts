/**
 * The fixed synthetic sample of the golden test: 20 documents of bench/synth's seeded corpus (seed 21: 14 invoices,
 * one of two pages, and 6 receipts over eight locales), six of them rendered as scans (three receipts and two
 * invoices as JPEG photos, the two-page invoice as an image-only PDF). The inputs are committed under
 * test/golden/inputs/synthetic/ so the golden answers do not move when the generator, poppler or sharp change; they
 * are written again only when that folder is absent.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { corpusPlan } from "../../bench/synth/corpus.js";
import { generateDocument } from "../../bench/synth/document.js";
import { degradeToScan } from "../../bench/synth/scan.js";

export const SYNTH_SEED = 21;
export const SYNTH_COUNT = 20;
const INVOICE_SHARE = 0.6;
/** Corpus indices rendered as scans: receipts 1, 8 and 16, invoices 3 and 19, and the two-page invoice 13. */
const SCANNED = new Set([1, 3, 8, 13, 16, 19]);

/** One line of the sample's manifest.json. */
export interface SynthInput {
  file: string;
  product: "invoices" | "receipts";
  locale: string;
  pages: number;
  scan: boolean;
  /** The generator's seed of this document (corpusPlan(SYNTH_SEED, ...)[index].seed). */
  seed: number;
}

/** Generates the sample into `dir` (one file per document plus manifest.json) and returns the manifest. */
export async function writeSynthSample(dir: string): Promise<SynthInput[]> {
  await mkdir(dir, { recursive: true });
  const manifest: SynthInput[] = [];
  for (const entry of corpusPlan(SYNTH_SEED, SYNTH_COUNT, INVOICE_SHARE)) {
    const doc = await generateDocument(entry.seed, entry.kind);
    const stem = `${String(entry.index + 1).padStart(4, "0")}-${entry.kind}`;
    const scan = SCANNED.has(entry.index);
    let file = `${stem}.pdf`;
    let bytes = doc.pdf;
    if (scan) {
      const scanned = await degradeToScan(doc.pdf, entry.seed);
      file = `${stem}-scan.${scanned.format}`;
      bytes = scanned.bytes;
    }
    await writeFile(join(dir, file), bytes);
    manifest.push({ file, product: doc.product, locale: doc.locale, pages: doc.pages, scan, seed: entry.seed });
  }
  await writeFile(join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
