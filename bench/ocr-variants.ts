/**
 * OCR variant benchmark: which image preprocessing, tesseract arguments and OCR engine read labelled documents best.
 *   npm exec tsx bench/ocr-variants.ts -- LABELS.jsonl [--variants a,b,...] [--limit N] [--jobs N] [--cache DIR]
 *     [--list]
 *
 * Images are read as they are; a PDF's pages are rendered at OCR_DPI first (cached under the cache's `rendered/`),
 * which measures OCR on rendered pages (born-digital PDFs read without their text layer). Variants with `engine:
 * "paddle"` read with PaddleOCR's detector and recogniser (src/ingest/ocr/paddle-engine.ts) instead of tesseract,
 * one page at a time whatever `--jobs` says, so the CPU time of the recogniser's process is the page's.
 *
 * For each variant, every image of the corpus is preprocessed and OCR'd once with the tesseract CLI; the TSV and the
 * CPU time it took are cached under `--cache` (default bench/out/ocr-cache)/<variant>/<file>.tsv, so re-runs and
 * extraction changes cost no OCR. Then, per variant, it reports:
 *   - "present": the share of labelled text values (names, addresses), amounts and dates whose value appears in the
 *     OCR text after folding (bench/score.ts rules; a date when some span of a line parses to it): the ceiling OCR
 *     leaves to extraction;
 *   - the extraction F1 of the real engine (extract()) on Documents built from the cached TSV, per field;
 *   - tesseract CPU ms/page (user + sys, from /usr/bin/time) and preprocessing ms/page.
 * Delete a variant's cache folder after changing its definition. At most `--jobs` (default 2) tesseracts run at once.
 * `--list` prints the variants; `--verbose` adds the full report (worst errors) per variant. Variants with `crop` and
 * `uncropped` reuse the named variant's OCR for pages that are not cropped.
 *
 * Measured 2026-11-22 on receipts-dev (120 SROIE photos and scans; extraction as of then; F1 overall / name / address):
 * base (1600 px, at most 2x, psm 6) 0.649 / 0.571 / 0.370, 1225 ms tesseract CPU per page on average; crop 0.649 /
 * 0.571 / 0.377, 1015 ms; w2000 and w2400x3 lower; psm 4 0.626; sauvola 0.648 (totals up, dates down, +12 % CPU);
 * normalise 0.632; --dpi 300 identical to base; the tessdata 4.0.0 model from node_modules (npm-lstm) reads names
 * better (present 0.67 vs 0.56) but addresses worse (0.32 vs 0.44), 0.659 at +18 % CPU with confidences on another
 * scale than the curves were fitted on.
 * Dictionary settings (2026-11-22, with the confusion repair of src/ingest/ocr/confusions.ts): `-c load_system_dawg=0
 * -c load_freq_dawg=0` (nodict) gives byte-identical TSV to base on all 120 pages, and so do all six load_*_dawg=0
 * (nodawgs), the non-dictionary word penalties at 0 (nopenalty) and tessedit_enable_dict_correction=1 (dictcorr): the
 * LSTM recogniser builds its own Dict that does not inherit these settings, and the penalties are the legacy
 * engine's. Taking the word list out of the model file itself (noword, crop-noword) does change the reading, for the
 * worse: crop-noword 0.655 vs crop 0.675 (names 0.604 vs 0.636, addresses 0.389 vs 0.443), present rates unchanged.
 * Letter scale (2026-11-22, session 3; crop-gN scales each page so its median glyph, bench/glyph-height.ts, is N px,
 * instead of the width rule), F1 overall / name / address / date / total with extraction as it was before that day's
 * receipt work: crop 0.675 / 0.636 / 0.443 / 0.839 / 0.739; crop-g26 0.673 / 0.600 / 0.450 / 0.852 / 0.753; crop-g32
 * 0.674 / 0.622 / 0.368 / 0.849 / 0.805; crop-best (tessdata_best int from node_modules, --oem 1) 0.657 / 0.636 /
 * 0.321 / 0.877 / 0.735 at 1745 ms CPU per page against crop's 1354. Merging two readings line by line (the surer
 * reading of each line wins) gave 0.701 for crop + crop-g32 and 0.713 for crop + crop-g32 + crop-best, at 2.2-3.5x
 * the CPU; after the day's extraction work crop alone reached 0.719 and a second reading of doubtful pages no longer
 * paid (0.715 at 2.6x CPU), nor did a contrast-stretched second reading of faint pages (5 pages: 2 fields won, 2
 * lost). None of these is what ingest does.
 * Re-reading (2026-11-22, session 4; F1 with extraction as it was before that session's extraction work, with
 * scratch scripts, not committed, that re-read crop's cached lines): every tesseract line re-read by PaddleOCR's
 * PP-OCRv4 mobile recogniser, its characters put back into tesseract's words, 0.776 (names 0.744, addresses 0.595,
 * dates 0.906; present 0.78 / 0.58 / 0.90 against crop's 0.55 / 0.47 / 0.83); words split where the recogniser read a
 * space 0.790; tesseract's word kept only when surer than the re-reading by 0.2 (0.1: 0.814, 0.3: 0.824 with later
 * extraction) 0.796; lines cut into segments at gaps over 1.5 line heights 0.804 (1.0: 0.805) with 22 % less input
 * to the recogniser; only segments holding a word below 0.95 re-read: -0.002 for 13 % less time. Padding of the
 * crop above and below, in line heights, with the session's final extraction: 0.1 -> 0.835, 0.2 -> 0.844, 0.25 ->
 * 0.817, 0.35 -> 0.793; at the sides 1.0 instead of 0.5: 0.839. Final policy (page mean below 0.88, words at 0.93
 * kept, accented words kept, values below 0.42 withheld): receipts-dev 0.844, synthetic scans 0.912. With session 5's
 * extraction (header lexicon, rounding and label repairs) crop-reread reads 0.866 (names 0.826, addresses 0.691,
 * dates 0.971, totals 0.966). `crop-reread` is what ingest does (src/ingest/ocr/rereading.ts,
 * src/ingest/faint-page.ts).
 * Engines (2026-11-25, issue #16; F1 / present name, address, total, date / mean CPU ms per page, the re-reading's and
 * PaddleOCR's counted in the recogniser's process, model loading included): receipt photos (receipts-dev, first 40)
 * crop 0.759 / .65 .45 .90 .88 / 767, crop-reread 0.914 / .88 .72 .92 .97 / 2168, crop-paddle 0.747 / .72 .47 .92 .68 /
 * 1612; office scans (synthetic scans, first 40) crop 0.902 / 571, crop-reread 0.894 / 748, crop-paddle 0.691 / 1569
 * (names .64, addresses .46); rendered pages (the 23 invoices-dev PDFs at 200 dpi) crop 0.897 / 706, crop-reread 0.893
 * / 1247, crop-paddle 0.839 / 1935. Out of sample (receipts-train, first 20, not looked at before): crop 0.590,
 * crop-reread 0.724, crop-paddle 0.658 (names 0.615 against crop-reread's 0.486, addresses 0.211 against 0.400; CPU
 * 1439 against 1745). PaddleOCR reads worse on every kind of page, so tesseract stays the default and
 * DOCSIFT_OCR_ENGINE=auto chooses it. Its detector finds the lines (totals present as often as with tesseract), but its
 * Chinese/English recogniser drops Latin accents and often reads no space between words ("Date:11/01/2019"); splitting
 * words where its characters stand far apart cut words instead ("Ca sh ier": the characters' positions, CTC peaks, are
 * too uneven).
 * Re-reading scope (2026-11-25, issue #16, cost; F1 / present name, address, total, date / mean OCR CPU ms per page,
 * all with the KEEP_FROM segment gate of line-merge.ts): receipts-dev first 40, where the scopes were compared:
 * crop-reread-every 0.914 / .88 .72 .92 .97 / 2232; crop-reread-min70 0.882 / .85 .57 .95 .90 / 1734;
 * crop-reread-top30-min70 0.902 / .88 .72 .95 .93 / 1997; crop-reread-top30-figures 0.901 / .88 .72 .90 .95 / 1736;
 * crop-reread-top30-digits 0.911 / .88 .72 .92 .97 / 1836 (labels beside the amounts, letters only, lost: totals
 * 0.949 -> 0.935); header and lines with a digit (now crop-reread) 0.914 / .88 .72 .92 .97 / 1943. Next 40 (receipts
 * 41-80, not looked at while choosing): crop 0.637 / .47 .35 .78 .72 / 950; crop-reread-every 0.816 / .75 .50 .90 .93
 * / 2661; crop-reread 0.822 / .75 .50 .90 .93 / 2186. All 120: crop 0.738 / .55 .47 .85 .82 / 826;
 * crop-reread-every 0.870 / .80 .63 .92 .96 / 2261; crop-reread 0.875 / .80 .63 .92 .96 / 1908. (CPU figures come from
 * runs sharing 2 cores with other work: compare within a run only.)
 * Cost (2026-11-27, issue #16; F1 / present name, address, total, date / mean OCR CPU ms per page, load average ~6):
 * receipts-dev (120, in sample): crop-reread 0.873 / .80 .63 .92 .96 / 2676; re-reading each doubtful segment only
 * from its first to its last doubtful word (tried, reverted) 0.861 / .81 .63 .92 .96 / 2535 (addresses' F1 0.711 ->
 * 0.667); crop-gc26d-reread (letter-scale cap) 0.849 / .79 .56 .92 .94 / 2349 (rejected: addresses); without
 * tesseract's white-on-black second reading, crop-noinvert-reread 0.867 / .79 .63 .92 .96 / 2617 (same run as
 * crop-reread's report: 0.873). Out of sample, receipts-train's first 60: crop-reread 0.825 / .68 .63 .93 .95 / 2544,
 * crop-noinvert-reread 0.834 / .70 .63 .93 .95 / 2314. Since then ingest reads as crop-noinvert-reread
 * (src/ingest/ocr/tesseract-cli.ts); crop-reread is kept for the caches built on it.
 * Tried and rejected (2026-11-27, issue #16, cost; load average 6-11, so CPU figures compare within a corpus only):
 * re-reading, below the header, only the segments that hold a money amount, date or time, however read, or a digit
 * tesseract read below 0.7, and the letters-only segments (labels) of their lines, against every doubtful segment of
 * a line with a digit (ingest's scope, headerAndFigureLines). receipts-dev 120 (in sample, where the cue was chosen):
 * F1 0.867 -> 0.864 (totals' F1 0.966 -> 0.953; the golden answers lost 2 totals), present the same (.79 .63 .92
 * .96), OCR CPU per page 2854 -> 2693 ms; receipts-train first 60 (out of sample): F1 0.839 -> 0.841, present the
 * same (.70 .63 .93 .95), 2530 -> 2452 ms. The recogniser's input was 13 % smaller, the OCR step's CPU 3-6 %: not
 * worth two receipt totals. A stricter version (only strictly shaped amounts and dates and their labels) lost more:
 * 0.853 / .78 .64 .88 .94 / 2496. The recogniser's CPU is ~88 % model inference in its process and ~12 % crops and
 * resizing here (15 dev photos: 1088 and 148 ms per page).
 * Malay's model (2026-12-01, issue #16; Debian's tesseract-ocr-msa, which the quick start does not install: these
 * variants need it), for Malaysian receipts' street and place words, on all 120 of receipts-dev (F1 / name, address,
 * date, total F1 / present name, address, total, date / mean OCR CPU ms per page, one run with `--jobs 1`):
 * crop-noinvert-reread (ingest) 0.875 / .843 .717 .971 .962 / .79 .63 .92 .96 / 2007; crop-noinvert-engmsa-reread
 * (`-l eng+msa`) 0.861 / .856 .681 .962 .936 / .80 .64 .92 .95 / 2814; crop-noinvert-msa-reread (`-l msa`) 0.848 /
 * .826 .705 .933 .923 / .82 .67 .90 .92 / 2200. A little more of the names and addresses is read, but the figures
 * worse and the fields wrong more often; the language guess calls 369 of the 370 dev receipts English anyway. Rejected.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import type sharp from "sharp";
import { resolveFields } from "../src/catalog/lookup.js";
import type { Document } from "../src/document/model.js";
import { extract } from "../src/extract/index.js";
import { mapConcurrent } from "../src/ingest/concurrency.js";
import { recogniseFaintPage } from "../src/ingest/faint-page.js";
import {
  decodeImage,
  findContentRegion,
  type ImageSize,
  inspectImage,
  placeWords,
  type Region,
  toBuffer,
} from "../src/ingest/image.js";
import { inspect } from "../src/ingest/inspect.js";
import type { OcrEngine, OcrResult } from "../src/ingest/ocr/engine.js";
import { paddleRecogniser } from "../src/ingest/ocr/line-recogniser.js";
import { createPaddleEngine } from "../src/ingest/ocr/paddle-engine.js";
import { recogniserCpuMs } from "../src/ingest/ocr/recogniser-process.js";
import { everySegment, type RereadScope, rereadLines } from "../src/ingest/ocr/rereading.js";
import { removeRules } from "../src/ingest/ocr/rule-removal.js";
import { parseTesseractTsv } from "../src/ingest/ocr/tsv.js";
import { buildPage } from "../src/ingest/page-builder.js";
import { parsePgm, pgm } from "../src/ingest/pgm.js";
import { OCR_DPI } from "../src/ingest/rasterise.js";
import { renderPage } from "../src/ingest/render.js";
import { sniffType } from "../src/ingest/sniff.js";
import { glyphHeight } from "./glyph-height.js";
import { documentText, type PresenceCounts, tallyPresence } from "./ocr-text.js";
import { runMain } from "./run-main.js";
import {
  catalogueMaps,
  type DocumentOutcome,
  formatReport,
  type PredictedField,
  parseLabels,
  scoreDocuments,
} from "./score.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));

interface Preprocess {
  /** Narrow images are upscaled towards this width... */
  targetWidth: number;
  /** ...by at most this factor. */
  maxUpscale: number;
  /** Images wider than this are downscaled to it (0: never). */
  maxWidth?: number;
  normalise?: boolean;
  clahe?: boolean;
  sharpen?: boolean;
  /** Fixed threshold (sharp `threshold`), 0..255. */
  threshold?: number;
  /** OCR only the content region (findContentRegion) of pages with wide blank borders. */
  crop?: boolean;
  /** maxUpscale for cropped regions (default: maxUpscale). */
  cropUpscale?: number;
  /** Scale so that the median glyph height (glyphHeight) becomes this many pixels, instead of the width rule. */
  glyphTarget?: number;
  /**
   * Scale by the width rule, but no further than makes the median glyph (glyphHeight) this many pixels tall, and
   * down to `minScale` when the glyphs are larger still (issue #16, cost: letters larger than tesseract needs cost
   * its layout analysis time for nothing).
   */
  glyphCap?: { target: number; minScale: number };
  /** Ruling lines and light shading removed (src/ingest/ocr/rule-removal.ts), last; "lines": the shading kept. */
  rules?: boolean | "lines";
}

interface Variant {
  name: string;
  pre: Preprocess;
  /** Extra tesseract arguments (after the common ones). */
  args: string[];
  psm?: string;
  /** Directory holding the traineddata; default: the system one. */
  tessdata?: () => string;
  /** With `crop`: the variant that reads uncropped pages the same way, whose cached OCR is reused for them. */
  uncropped?: string;
  /** This variant is the named one's cached reading with its doubtful lines re-read (src/ingest/ocr/rereading.ts). */
  reread?: string;
  /** With `reread`: which doubtful segments are re-read (default: those ingest re-reads, headerAndFigureLines). */
  rereadScope?: RereadScope;
  /** Read with this engine instead of tesseract (`args`, `psm` and `tessdata` then do not apply). */
  engine?: "paddle";
}

const BASE: Preprocess = { targetWidth: 1600, maxUpscale: 2 };

/** A model of tesseract.js's in node_modules (`@tesseract.js-data/eng/<version>`), unpacked once for the CLI. */
function npmModel(version: string): () => string {
  return () => {
    const dir = join(REPO, `bench/out/tessdata-npm-${version}`);
    const target = join(dir, "eng.traineddata");
    if (!existsSync(target)) {
      mkdirSync(dir, { recursive: true });
      const gz = join(REPO, `node_modules/@tesseract.js-data/eng/${version}/eng.traineddata.gz`);
      writeFileSync(target, gunzipSync(readFileSync(gz)));
    }
    return dir;
  };
}
/** tessdata 4.0.0 with the legacy engine. */
const npmTessdata = npmModel("4.0.0");
/** tessdata_best in integer form (LSTM only). */
const bestIntTessdata = npmModel("4.0.0_best_int");

/**
 * The system model without its LSTM word list (lstm-word-dawg). `-c load_system_dawg=0` does not reach the LSTM
 * recogniser's dictionary (its Dict does not inherit that setting), so the list has to leave the file itself.
 */
function noWordListTessdata(): string {
  const dir = join(REPO, "bench/out/tessdata-noword");
  const target = join(dir, "eng.traineddata");
  if (!existsSync(target)) {
    mkdirSync(dir, { recursive: true });
    const system = "/usr/share/tesseract-ocr/5/tessdata/eng.traineddata";
    execFileSync("combine_tessdata", ["-u", system, join(dir, "eng.")], { stdio: "ignore" });
    rmSync(join(dir, "eng.lstm-word-dawg"));
    execFileSync("combine_tessdata", [join(dir, "eng.")], { stdio: "ignore" });
  }
  return dir;
}

const config = (...settings: string[]): string[] => settings.flatMap((s) => ["-c", s]);
/** The English word and frequent-word lists off. */
const NO_WORD_LISTS = config("load_system_dawg=0", "load_freq_dawg=0");
/** Every dictionary off: words, frequent words, numbers, punctuation patterns, bigrams, unambiguous words. */
const NO_DAWGS = config(
  "load_system_dawg=0",
  "load_freq_dawg=0",
  "load_number_dawg=0",
  "load_punc_dawg=0",
  "load_bigram_dawg=0",
  "load_unambig_dawg=0",
);
/** Dictionaries kept but non-dictionary words not penalised (legacy language model settings). */
const NO_PENALTY = config("language_model_penalty_non_dict_word=0", "language_model_penalty_non_freq_dict_word=0");

/** Re-read a segment only when one of its words is read below `confidence`. */
const lowest =
  (confidence: number): RereadScope =>
  (segment) =>
    segment.some((w) => w.confidence < confidence);

const VARIANTS: readonly Variant[] = [
  { name: "base", pre: BASE, args: [] },
  { name: "w2000", pre: { targetWidth: 2000, maxUpscale: 2 }, args: [] },
  { name: "w2400x3", pre: { targetWidth: 2400, maxUpscale: 3 }, args: [] },
  { name: "max2500", pre: { ...BASE, maxWidth: 2500 }, args: [] },
  { name: "normalise", pre: { ...BASE, normalise: true }, args: [] },
  { name: "clahe", pre: { ...BASE, clahe: true }, args: [] },
  { name: "sharpen", pre: { ...BASE, sharpen: true }, args: [] },
  { name: "dpi300", pre: BASE, args: ["--dpi", "300"] },
  { name: "psm4", pre: BASE, args: [], psm: "4" },
  { name: "psm11", pre: BASE, args: [], psm: "11" },
  { name: "crop", pre: { ...BASE, crop: true }, args: [], uncropped: "base" },
  { name: "crop-sauvola", pre: { ...BASE, crop: true }, args: ["-c", "thresholding_method=2"], uncropped: "sauvola" },
  { name: "crop-x3", pre: { ...BASE, crop: true, cropUpscale: 3 }, args: [], uncropped: "base" },
  { name: "crop-g26", pre: { ...BASE, crop: true, glyphTarget: 26 }, args: [] },
  { name: "crop-g32", pre: { ...BASE, crop: true, glyphTarget: 32 }, args: [] },
  // Production: crop's reading with its doubtful line segments re-read by PaddleOCR's recogniser (headerAndFigureLines).
  { name: "crop-reread", pre: { ...BASE, crop: true }, args: [], reread: "crop" },
  // Re-reading scopes (issue #16, cost; ingest reads headerAndFigureLines, as crop-reread): every doubtful segment
  // (as ingest did before); segments with a word below 0.7 only; every doubtful segment of the first 30 % of lines
  // and, below them, segments with a word below 0.7, segments with a dated or decimal figure, or with a digit.
  { name: "crop-reread-every", pre: { ...BASE, crop: true }, args: [], reread: "crop", rereadScope: everySegment },
  // Letter scale as a cap on the width rule (issue #16, cost): never larger than today, smaller where the glyphs
  // already exceed the target, down to half size.
  { name: "crop-gc26d", pre: { ...BASE, crop: true, glyphCap: { target: 26, minScale: 0.5 } }, args: [] },
  {
    name: "crop-gc26d-reread",
    pre: { ...BASE, crop: true, glyphCap: { target: 26, minScale: 0.5 } },
    args: [],
    reread: "crop-gc26d",
  },
  // Tesseract without its second reading of doubtful lines as white on black (tessedit_do_invert), as ingest reads.
  { name: "crop-noinvert", pre: { ...BASE, crop: true }, args: ["-c", "tessedit_do_invert=0"] },
  {
    name: "crop-noinvert-reread",
    pre: { ...BASE, crop: true },
    args: ["-c", "tessedit_do_invert=0"],
    reread: "crop-noinvert",
  },
  // Ruling lines and light shading out before tesseract (issue #16, ruled invoice tables), as crop-noinvert(-reread).
  { name: "crop-noinvert-rules", pre: { ...BASE, crop: true, rules: true }, args: ["-c", "tessedit_do_invert=0"] },
  {
    name: "crop-noinvert-rules-reread",
    pre: { ...BASE, crop: true, rules: true },
    args: ["-c", "tessedit_do_invert=0"],
    reread: "crop-noinvert-rules",
  },
  { name: "crop-noinvert-lines", pre: { ...BASE, crop: true, rules: "lines" }, args: ["-c", "tessedit_do_invert=0"] },
  {
    name: "crop-noinvert-lines-reread",
    pre: { ...BASE, crop: true, rules: "lines" },
    args: ["-c", "tessedit_do_invert=0"],
    reread: "crop-noinvert-lines",
  },
  // Malay's model (tesseract-ocr-msa) beside or instead of English, for Malaysian receipts' Malay words.
  { name: "crop-noinvert-engmsa", pre: { ...BASE, crop: true }, args: ["-c", "tessedit_do_invert=0", "-l", "eng+msa"] },
  {
    name: "crop-noinvert-engmsa-reread",
    pre: { ...BASE, crop: true },
    args: ["-c", "tessedit_do_invert=0", "-l", "eng+msa"],
    reread: "crop-noinvert-engmsa",
  },
  { name: "crop-noinvert-msa", pre: { ...BASE, crop: true }, args: ["-c", "tessedit_do_invert=0", "-l", "msa"] },
  {
    name: "crop-noinvert-msa-reread",
    pre: { ...BASE, crop: true },
    args: ["-c", "tessedit_do_invert=0", "-l", "msa"],
    reread: "crop-noinvert-msa",
  },
  { name: "crop-reread-min70", pre: { ...BASE, crop: true }, args: [], reread: "crop", rereadScope: lowest(0.7) },
  {
    name: "crop-reread-top30-min70",
    pre: { ...BASE, crop: true },
    args: [],
    reread: "crop",
    rereadScope: (s, line) => line.index < 0.3 * line.lines || lowest(0.7)(s, line),
  },
  {
    name: "crop-reread-top30-figures",
    pre: { ...BASE, crop: true },
    args: [],
    reread: "crop",
    rereadScope: (s, line) => line.index < 0.3 * line.lines || /\d[/.,:-]\d/.test(s.map((w) => w.text).join(" ")),
  },
  {
    name: "crop-reread-top30-digits",
    pre: { ...BASE, crop: true },
    args: [],
    reread: "crop",
    rereadScope: (s, line) => line.index < 0.3 * line.lines || s.some((w) => /\d/.test(w.text)),
  },
  // PaddleOCR as the whole engine on what ingest gives OCR (DOCSIFT_OCR_ENGINE=paddle).
  { name: "crop-paddle", pre: { ...BASE, crop: true }, args: [], engine: "paddle" },
  { name: "crop-best", pre: { ...BASE, crop: true }, args: ["--oem", "1"], tessdata: bestIntTessdata },
  { name: "crop-max2000", pre: { ...BASE, crop: true, maxWidth: 2000 }, args: [] },
  { name: "crop-psm4", pre: { ...BASE, crop: true }, args: [], psm: "4", uncropped: "psm4" },
  { name: "sauvola", pre: BASE, args: ["-c", "thresholding_method=2"] },
  { name: "adaptive", pre: BASE, args: ["-c", "thresholding_method=1"] },
  { name: "noinvert", pre: BASE, args: ["-c", "tessedit_do_invert=0"] },
  { name: "npm-lstm", pre: BASE, args: ["--oem", "1"], tessdata: npmTessdata },
  { name: "npm-legacy+lstm", pre: BASE, args: ["--oem", "2"], tessdata: npmTessdata },
  // Dictionary settings: names, addresses and codes are not English words, and the word lists pull them towards ones.
  { name: "nodict", pre: BASE, args: NO_WORD_LISTS },
  { name: "crop-nodict", pre: { ...BASE, crop: true }, args: NO_WORD_LISTS, uncropped: "nodict" },
  { name: "nodawgs", pre: BASE, args: NO_DAWGS },
  { name: "crop-nodawgs", pre: { ...BASE, crop: true }, args: NO_DAWGS, uncropped: "nodawgs" },
  { name: "nopenalty", pre: BASE, args: NO_PENALTY },
  { name: "crop-nopenalty", pre: { ...BASE, crop: true }, args: NO_PENALTY, uncropped: "nopenalty" },
  { name: "dictcorr", pre: BASE, args: ["-c", "tessedit_enable_dict_correction=1"] },
  { name: "noword", pre: BASE, args: [], tessdata: noWordListTessdata },
  { name: "crop-noword", pre: { ...BASE, crop: true }, args: [], tessdata: noWordListTessdata, uncropped: "noword" },
];

async function preprocess(
  bytes: Uint8Array,
  size: ImageSize,
  p: Preprocess,
): Promise<{ image: Buffer; region: Region | null }> {
  const region = p.crop ? await findContentRegion(bytes, size) : null;
  let image: sharp.Sharp = decodeImage(bytes).greyscale();
  if (region) image = image.extract(region);
  const width = region?.width ?? size.width;
  const maxUpscale = region ? (p.cropUpscale ?? p.maxUpscale) : p.maxUpscale;
  let scale = Math.min(maxUpscale, Math.max(1, p.targetWidth / width));
  if (p.maxWidth && width > p.maxWidth) scale = p.maxWidth / width;
  if (p.glyphTarget) {
    const { data, info } = await toBuffer(image.clone().raw());
    const glyph = glyphHeight(data, info.width, info.height);
    if (glyph) scale = Math.min(4, Math.max(0.5, p.glyphTarget / glyph));
  }
  if (p.glyphCap) {
    const { data, info } = await toBuffer(image.clone().raw());
    const glyph = glyphHeight(data, info.width, info.height);
    if (glyph) scale = Math.min(scale, Math.max(p.glyphCap.minScale, p.glyphCap.target / glyph));
  }
  if (Math.abs(scale - 1) > 0.01) image = image.resize({ width: Math.round(width * scale), kernel: "lanczos3" });
  if (p.normalise) image = image.normalise();
  if (p.clahe) image = image.clahe({ width: 64, height: 64, maxSlope: 3 });
  if (p.sharpen) image = image.sharpen();
  if (p.threshold !== undefined) image = image.threshold(p.threshold);
  const { data, info } = await toBuffer(image.raw());
  if (p.rules) {
    const page = { width: info.width, height: info.height, data };
    const { image: clean } = removeRules(page, { shading: p.rules !== "lines" });
    return { image: pgm(clean.width, clean.height, clean.data), region };
  }
  return { image: pgm(info.width, info.height, data), region };
}

/** Runs tesseract under /usr/bin/time; returns the TSV and the CPU ms (user + sys) it used. */
function tesseract(image: Buffer, v: Variant): Promise<{ tsv: string; cpuMs: number }> {
  const args = ["-f", "CPU %U %S", "tesseract", "stdin", "stdout", "-l", "eng", "--psm", v.psm ?? "6"];
  if (v.tessdata) args.push("--tessdata-dir", v.tessdata());
  args.push(...v.args, "-c", "tessedit_create_tsv=1");
  return new Promise((resolvePromise, reject) => {
    const child = spawn("/usr/bin/time", args, {
      env: { ...process.env, OMP_THREAD_LIMIT: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(image);
    child.on("error", reject);
    child.on("close", (code) => {
      const m = /CPU ([\d.]+) ([\d.]+)/.exec(stderr);
      if (code !== 0 || !m) return reject(new Error(`tesseract exit ${code}: ${stderr.slice(-500)}`));
      resolvePromise({ tsv: stdout, cpuMs: (Number(m[1]) + Number(m[2])) * 1000 });
    });
  });
}

let recogniserQueue: Promise<unknown> = Promise.resolve();

/**
 * Runs `work`, which uses the recogniser's process, alone among such work: its CPU time is this process's (crops,
 * resizing) plus the recogniser process's (the models) across it. (The recogniser loads its models on first use:
 * the first page pays for that.)
 */
function inRecogniser<T>(work: () => Promise<T>): Promise<{ value: T; cpuMs: number }> {
  const run = async () => {
    const ownBefore = process.cpuUsage();
    const childBefore = recogniserCpuMs();
    const value = await work();
    const own = process.cpuUsage(ownBefore);
    return { value, cpuMs: (own.user + own.system) / 1000 + recogniserCpuMs() - childBefore };
  };
  const next = recogniserQueue.then(run, run);
  recogniserQueue = next.catch(() => undefined);
  return next;
}

let paddleEngine: OcrEngine | undefined;

/** Reads a page with PaddleOCR (one page at a time: inRecogniser). */
async function paddle(image: Buffer): Promise<{ tsv: string; cpuMs: number }> {
  paddleEngine ??= createPaddleEngine();
  const engine = paddleEngine;
  const { value, cpuMs } = await inRecogniser(() => engine.recognise(image));
  return { tsv: toTsv(value), cpuMs };
}

interface Cached {
  tsv: string;
  cpuMs: number;
  preMs: number;
  size: ImageSize;
  /** Part of the image that was OCR'd, when cropped: word boxes are ratios of it. */
  region?: Region | null;
}

async function ocrCached(file: string, v: Variant, cacheDir: string): Promise<Cached> {
  const dir = join(cacheDir, v.name);
  const tsvPath = join(dir, `${basename(file)}.tsv`);
  const metaPath = join(dir, `${basename(file)}.json`);
  if (existsSync(tsvPath) && existsSync(metaPath)) {
    const meta = JSON.parse(readFileSync(metaPath, "utf8")) as Omit<Cached, "tsv">;
    return { tsv: readFileSync(tsvPath, "utf8"), ...meta };
  }
  if (v.reread) return rereadCached(file, v, cacheDir, tsvPath, metaPath);
  const bytes = new Uint8Array(readFileSync(file));
  const type = sniffType(bytes);
  if (type !== "png" && type !== "jpeg") throw new Error(`${file}: only images are benchmarked, not ${type}`);
  const size = await inspectImage(bytes, type);
  const started = performance.now();
  const { image, region } = await preprocess(bytes, size, v.pre);
  const preMs = performance.now() - started;
  const twin = VARIANTS.find((x) => x.name === v.uncropped);
  if (!region && twin) return ocrCached(file, twin, cacheDir);
  const { tsv, cpuMs } = v.engine === "paddle" ? await paddle(image) : await tesseract(image, v);
  mkdirSync(dir, { recursive: true });
  writeFileSync(tsvPath, tsv);
  writeFileSync(metaPath, JSON.stringify({ cpuMs, preMs, size, region }));
  return { tsv, cpuMs, preMs, size, region };
}

/**
 * A re-reading variant, as ingest reads a page: the base variant's cached tesseract reading with its doubtful lines
 * re-read, and a nearly empty page read again with its contrast stretched (src/ingest/faint-page.ts). The CPU time
 * the re-reading (inRecogniser) and any second tesseract took is added to the base's.
 */
async function rereadCached(file: string, v: Variant, cacheDir: string, tsvPath: string, metaPath: string) {
  const baseVariant = VARIANTS.find((x) => x.name === v.reread);
  if (!baseVariant) throw new Error(`${v.name}: unknown variant ${v.reread}`);
  const base = await ocrCached(file, baseVariant, cacheDir);
  const bytes = new Uint8Array(readFileSync(file));
  const type = sniffType(bytes);
  if (type !== "png" && type !== "jpeg") throw new Error(`${file}: only images are benchmarked, not ${type}`);
  const { image } = await preprocess(bytes, await inspectImage(bytes, type), baseVariant.pre);
  /** CPU of the tesseract run again on a contrast-stretched faint page, a process of its own. */
  let againMs = 0;
  const engine: OcrEngine = {
    name: v.name,
    async recognise(page) {
      let tsv = base.tsv;
      if (page !== image) {
        const again = await tesseract(page, baseVariant);
        againMs += again.cpuMs;
        tsv = again.tsv;
      }
      const grey = parsePgm(page);
      if (!grey) throw new Error(`${file}: preprocessing gave no PGM`);
      return rereadLines(parseTesseractTsv(tsv), grey, paddleRecogniser, undefined, v.rereadScope);
    },
  };
  const { value: result, cpuMs } = await inRecogniser(() => recogniseFaintPage(engine, image));
  const cached: Cached = { ...base, tsv: toTsv(result), cpuMs: base.cpuMs + againMs + cpuMs };
  mkdirSync(dirname(tsvPath), { recursive: true });
  writeFileSync(tsvPath, cached.tsv);
  writeFileSync(metaPath, JSON.stringify({ ...cached, tsv: undefined }));
  return cached;
}

/** An OCR result as tesseract TSV (page row, then one word row per word on its line), for the cache. */
function toTsv(result: OcrResult): string {
  const rows = [`1\t1\t0\t0\t0\t0\t0\t0\t${result.width}\t${result.height}\t-1\t`];
  const lines = result.lines ?? result.words.map((_, i) => [i]);
  lines.forEach((line, l) => {
    for (const [w, i] of line.entries()) {
      const word = result.words[i];
      if (!word) continue;
      const { x0, y0, x1, y1 } = word.box;
      const [left, top] = [Math.round(x0 * result.width), Math.round(y0 * result.height)];
      const [width, height] = [Math.round(x1 * result.width) - left, Math.round(y1 * result.height) - top];
      rows.push(
        `5\t1\t1\t1\t${l + 1}\t${w + 1}\t${left}\t${top}\t${width}\t${height}\t${word.confidence * 100}\t${word.text}`,
      );
    }
  });
  return `${rows.join("\n")}\n`;
}

function documentOf(pages: readonly Cached[]): Document {
  let nextId = 0;
  return {
    type: "jpeg",
    pages: pages.map((c, i) => {
      const words = placeWords(parseTesseractTsv(c.tsv).words, c.region ?? null, c.size);
      const page = buildPage(i + 1, c.size, "ocr", words, nextId);
      nextId += page.words.length;
      return page;
    }),
  };
}

/**
 * The page images of a labelled file: an image itself, a PDF's pages rendered at OCR_DPI (once: kept under the
 * cache's `rendered/`).
 */
async function pageImages(file: string, cacheDir: string): Promise<string[]> {
  if (!/\.pdf$/i.test(file)) return [file];
  const dir = join(cacheDir, "rendered");
  const bytes = new Uint8Array(readFileSync(file));
  const pageCount = (await inspect(bytes)).pageCount;
  mkdirSync(dir, { recursive: true });
  const paths: string[] = [];
  for (let n = 1; n <= pageCount; n++) {
    const path = join(dir, `${basename(file)}.p${n}.png`);
    if (!existsSync(path)) writeFileSync(path, await renderPage(bytes, n, { dpi: OCR_DPI }));
    paths.push(path);
  }
  return paths;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? 0 : s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      variants: { type: "string" },
      limit: { type: "string" },
      jobs: { type: "string", default: "2" },
      cache: { type: "string", default: join(REPO, "bench/out/ocr-cache") },
      list: { type: "boolean", default: false },
      verbose: { type: "boolean", default: false },
    },
  });
  if (values.list) {
    for (const v of VARIANTS) process.stdout.write(`${v.name}\t${JSON.stringify({ ...v, tessdata: undefined })}\n`);
    return 0;
  }
  const labelsPath = positionals[0];
  if (!labelsPath) {
    process.stderr.write("Usage: tsx bench/ocr-variants.ts LABELS.jsonl [--variants a,b] [--limit N] [--jobs N]\n");
    return 2;
  }
  const root = dirname(resolve(labelsPath));
  let labels = parseLabels(readFileSync(labelsPath, "utf8"));
  if (values.limit !== undefined) labels = labels.slice(0, Number(values.limit));
  const wanted = values.variants?.split(",") ?? VARIANTS.map((v) => v.name);
  const variants = wanted.map((name) => {
    const v = VARIANTS.find((x) => x.name === name);
    if (!v) throw new Error(`unknown variant ${name}; --list shows them`);
    return v;
  });
  const { types, productFields } = catalogueMaps();
  const rows: string[] = [];
  for (const v of variants) {
    let done = 0;
    const cached = await mapConcurrent(labels, Math.max(1, Number(values.jobs)), async (label) => {
      const pages = await pageImages(resolve(root, label.file), values.cache ?? "");
      const c: Cached[] = [];
      for (const page of pages) c.push(await ocrCached(page, v, values.cache ?? ""));
      done++;
      if (process.stderr.isTTY) process.stderr.write(`\r${v.name}: ${done}/${labels.length}`);
      return c;
    });
    if (process.stderr.isTTY) process.stderr.write("\n");
    const presentCount: PresenceCounts = new Map();
    const outcomes: DocumentOutcome[] = [];
    let extractMs = 0;
    labels.forEach((label, i) => {
      const doc = documentOf(cached[i] ?? []);
      tallyPresence(presentCount, label.fields, documentText(doc));
      const started = performance.now();
      const fields = extract(doc, resolveFields({ products: [label.product] }), { locale: label.locale });
      extractMs += performance.now() - started;
      const predicted = new Map<string, PredictedField>(
        fields.map((f) => [f.name, { value: typeof f.value === "string" ? f.value : null, confidence: f.confidence }]),
      );
      outcomes.push({ label, predicted });
    });
    const report = scoreDocuments(outcomes, types, productFields, 40);
    if (values.verbose) process.stdout.write(`== ${v.name}\n${formatReport(report)}`);
    const f1 = (...names: string[]): string =>
      report.fields.find((f) => names.some((name) => f.field.endsWith(name)))?.f1.toFixed(3) ?? "-";
    const pres = (...names: string[]): string => {
      const e = [...presentCount.entries()].find(([f]) => names.some((name) => f.endsWith(name)))?.[1];
      return e ? (e.hit / e.n).toFixed(2) : "-";
    };
    const pages = cached.flat();
    rows.push(
      [
        v.name.padEnd(16),
        report.overall.f1.toFixed(3),
        f1("merchantName", "supplier.name"),
        f1("merchantAddress", "supplier.address"),
        f1("receipt.date", "invoice.date"),
        f1("receipt.total", "invoice.total"),
        [
          pres("merchantName", "supplier.name"),
          pres("merchantAddress", "supplier.address"),
          pres("receipt.total", "invoice.total"),
          pres("receipt.date", "invoice.date"),
        ].join("/"),
        median(pages.map((c) => c.cpuMs)).toFixed(0),
        (pages.reduce((s, c) => s + c.cpuMs, 0) / Math.max(1, pages.length)).toFixed(0),
        median(pages.map((c) => c.preMs)).toFixed(0),
        (extractMs / labels.length).toFixed(1),
      ].join("  "),
    );
    process.stdout.write(`${rows.at(-1)}\n`);
  }
  process.stdout.write(
    `\n${"variant".padEnd(16)}  F1     name   addr   date   total  present n/a/t/d        cpu-med cpu-mean pre-med extract-ms\n` +
      `(CPU ms per page; name/addr: merchant or supplier)\n${rows.join("\n")}\n`,
  );
  return 0;
}

runMain(main);
