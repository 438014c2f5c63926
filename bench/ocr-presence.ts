/**
 * Labelled values present in the text of ingest as it is (issue #16's first target):
 *   npm run bench:ocr-presence -- LABELS.jsonl [LABELS.jsonl ...] [--cached-only]
 * Each labelled file is ingested by the default pipeline (orientation, languages, rules and pictures out of office
 * pages, re-reading) once and cached by content hash in bench/out/calibrate-cache, the cache bench/kfold.ts uses;
 * then, per field, the share of labelled values that can be read off the Document's text (bench/ocr-text.ts: a name
 * or address as a folded substring, an amount with either decimal mark, a date in some day/month order). This is the
 * ceiling OCR leaves to extraction. bench/ocr-variants.ts measures the same for OCR variants it runs itself.
 *
 * Measured 2026-11-29 (the kfold cache of that day's ingest; name / address / date / total): receipts-dev 0.783 /
 * 0.642 / 0.958 / 0.924, receipts-train 0.740 / 0.687 / 0.940 / 0.916. Target on receipts-dev: 0.90 / 0.85 / 0.97 /
 * 0.97. Measured 2026-11-30 (fifth stop; the cache before and after ocr/header-fill.ts): names receipts-dev 0.792 ->
 * 0.808, receipts-train 0.748 -> 0.764; receipts-train dates 0.944 -> 0.948; the rest unchanged.
 */
import { parseArgs } from "node:util";
import { loadCorpus } from "./kfold-data.js";
import { documentText, type PresenceCounts, tallyPresence } from "./ocr-text.js";
import { runMain } from "./run-main.js";

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { "cached-only": { type: "boolean", default: false } },
  });
  if (positionals.length === 0) {
    process.stderr.write("Usage: npm run bench:ocr-presence -- LABELS.jsonl [LABELS.jsonl ...] [--cached-only]\n");
    return 2;
  }
  for (const path of positionals) {
    const counts: PresenceCounts = new Map();
    const docs = await loadCorpus(path, { cachedOnly: values["cached-only"] });
    for (const { label, document } of docs) tallyPresence(counts, label.fields, documentText(document));
    process.stdout.write(`${path}: ${docs.length} documents\n`);
    for (const [field, { n, hit }] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
      process.stdout.write(`  ${field.padEnd(28)} n=${String(n).padStart(4)}  present ${(hit / n).toFixed(3)}\n`);
    }
  }
  return 0;
}

runMain(main);
