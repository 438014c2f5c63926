/**
 * Lines of two columns that tesseract ran together. Reading a page as one block (`--psm 6`), tesseract joins the
 * lines of a column to the lines of the column beside it when their pitches differ (a window letter's address beside
 * a column of labelled facts): the address's last lines then come back as one tall word of nonsense ("eee", 56 px tall
 * among 22 px text, confidence 0.23) on the line of the right column's "Customer ID:", and the addressee's town and
 * postcode are lost. Such a part of a line (between column gaps) that holds a word taller than text and a doubtful
 * one is read again apart: the page cropped between the parts beside it, which leaves the other column out, the
 * crops of a page stacked into one image read once by the same engine; each part's words replace it when they read
 * surer and lose none of its letters, as lines of their own (what it gave back on the scans of bench:synth-html's
 * window letters, and what it costs: docs/accuracy-log.md). The same goes for a part read as nonsense, beside the
 * other column's stretched label ("STR LEN" beside "Rechnungsdatum:" two lines tall) or on a line of its own ("BEE"
 * for "64320 München" where the columns' lines slant apart).
 *
 * Only office pages (rule-removal.ts isOfficePage): a receipt photo's doubtful words are re-read by the line
 * re-reader (rereading.ts), and its columns are no letter's.
 */
import { median } from "../../document/median.js";
import type { RawWord } from "../page-builder.js";
import { type GreyImage, greyLevelAt, pgm } from "../pgm.js";
import type { OcrResult } from "./engine.js";
import { inPageLanguage } from "./lost-letters.js";
import type { ReadingRefinement } from "./rereading.js";
import { isOfficePage } from "./rule-removal.js";

/** A word this many times the page's text height is no line of text but lines run together. */
const TALL = 1.8;
/**
 * A part of a line is worth reading again when one of its words is read below DOUBTED ("BG" for "36", 0.60, beside
 * "Lindenallee" stretched over two lines); a word the page's reading holds is left to a word read back over it when
 * read below DOUBTFUL (the nonsense runs read 0.1-0.4).
 */
const DOUBTED = 0.7;
const DOUBTFUL = 0.5;
/** Words read at least this surely give the page's text height. */
const SURE = 0.8;
/** A reading read back keeps at least this share of the letters and digits of the run it replaces. */
const KEPT_CHARACTERS = 0.8;
/** A word of text: two letters or digits at least. */
const TEXT = /[\p{L}\p{N}].*[\p{L}\p{N}]/u;
/** A separator printed between the parts of a line ("ACME GmbH · Hauptstr. 1 · Berlin"). */
const SEPARATOR = /^[-–—·•|,:]$/;
/** A gap this many text heights wide parts a line's columns. */
const COLUMN_GAP = 3;
/** The re-reading replaces a run only when its words read this surely on average, and surer than the run. */
const ACCEPTED = 0.6;
/**
 * Crops read per page at most: a letter's window runs into its labels on a few lines; a page that would ask for more
 * (a noisy scan, a hostile upload) keeps the rest as read rather than pay a reading per line.
 */
const MAX_RUNS = 8;
/** Margins of the crop, in text heights: above and below the run, and off its neighbours on the line. */
const PAD_Y = 0.3;
const PAD_X = 0.5;

/** Reads a crop of a page (a PGM) in the page's language (a tesseract model name such as "deu"; undefined: English). */
export type CropReader = (image: Buffer, language: string | undefined, signal?: AbortSignal) => Promise<OcrResult>;

/** A rectangle in pixels, right and bottom exclusive. */
interface PixelRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A run of one engine line's words to read again, and the crop that holds it without its neighbours. */
export interface MergedRun {
  line: number;
  words: number[];
  crop: PixelRect;
  /** The page's text height, pixels. */
  text: number;
}

const heightOf = (w: RawWord, image: { height: number }): number => (w.box.y1 - w.box.y0) * image.height;

/**
 * The runs of `result`'s lines worth reading again: a line's part between column gaps (COLUMN_GAP text heights)
 * that holds text and a word read below DOUBTED, and either a word taller than TALL text heights on a line of two
 * parts or more (the other column), or was read as nonsense (mean below DOUBTFUL), with its crop in pixels of the
 * image read (`size`): between the parts beside it, so the other column stays out and the part is read whole and
 * once, over the rows of its line's tall words.
 */
export function mergedRuns(result: OcrResult, size: { width: number; height: number }): MergedRun[] {
  const text = median(
    result.words.filter((w) => w.confidence >= SURE && /\p{L}/u.test(w.text)).map((w) => heightOf(w, size)),
  );
  if (text <= 0) return [];
  const runs: MergedRun[] = [];
  for (const [line, indices] of (result.lines ?? []).entries()) {
    const ordered = [...indices].sort((a, b) => result.words[a]!.box.x0 - result.words[b]!.box.x0);
    const parts: number[][] = [];
    for (const i of ordered) {
      const part = parts[parts.length - 1];
      const last = part?.[part.length - 1];
      const gap = last === undefined ? 0 : (result.words[i]!.box.x0 - result.words[last]!.box.x1) * size.width;
      if (part && gap < COLUMN_GAP * text) part.push(i);
      else parts.push([i]);
    }
    const isTall = (i: number) => heightOf(result.words[i]!, size) > TALL * text;
    const lineTall = indices.filter(isTall).map((i) => result.words[i]!);
    for (const [p, part] of parts.entries()) {
      const words = part.map((i) => result.words[i]!);
      const ownTall = part.some(isTall);
      // Read as nonsense: beside the other column's tall word ("STR LEN" beside "Rechnungsdatum:" stretched over both
      // lines), the crop spans that word's rows; a line of its own ("BEE" for "64320 München" under a skewed
      // column) is read again over its own, unless its word is tall (a logo, a stamp).
      const nonsense = meanConfidence(words) < DOUBTFUL;
      if (parts.length === 1 ? !nonsense || ownTall : !nonsense && !ownTall) continue;
      // A logo's lone glyph ("e", "@") is no text run together.
      if (!words.some((w) => w.confidence < DOUBTED) || !words.some((w) => TEXT.test(w.text))) continue;
      const before = parts[p - 1]?.map((i) => result.words[i]!.box.x1);
      const after = parts[p + 1]?.map((i) => result.words[i]!.box.x0);
      const rows = ownTall ? words : [...words, ...lineTall];
      const y0 = Math.min(...rows.map((w) => w.box.y0)) * size.height;
      const y1 = Math.max(...rows.map((w) => w.box.y1)) * size.height;
      const crop = {
        left: Math.max(0, Math.round(before ? Math.max(...before) * size.width + PAD_X * text : 0)),
        right: Math.min(size.width, Math.round(after ? Math.min(...after) * size.width - PAD_X * text : size.width)),
        top: Math.max(0, Math.round(y0 - PAD_Y * text)),
        bottom: Math.min(size.height, Math.round(y1 + PAD_Y * text)),
      };
      if (crop.right - crop.left > text && crop.bottom - crop.top > text) runs.push({ line, words: part, crop, text });
    }
  }
  return runs;
}

/** Where a run's crop stands in the stacked image: its top row there. */
interface Band {
  top: number;
  height: number;
}

/**
 * The runs' crops of `image` stacked into one PGM, each at the left edge under the one before, a gap of two text
 * heights between them: one reading reads them all (a tesseract process per crop cost 5 processes and 0.8 s of CPU
 * per page on einvoices-dev's scans). Each crop's paper is made white (paperTone): a grey scan's crops on a white
 * ground were dark bands to tesseract's threshold, and it read no word of them.
 */
function stacked(image: GreyImage, runs: readonly MergedRun[]): { bytes: Buffer; bands: Band[] } {
  const gap = Math.round(2 * Math.max(...runs.map((r) => r.text)));
  const width = Math.max(...runs.map((r) => r.crop.right - r.crop.left));
  const bands: Band[] = [];
  let height = gap;
  for (const { crop } of runs) {
    bands.push({ top: height, height: crop.bottom - crop.top });
    height += crop.bottom - crop.top + gap;
  }
  const data = new Uint8Array(width * height).fill(255);
  runs.forEach(({ crop }, k) => {
    const top = bands[k]!.top;
    const whiten = 255 / Math.max(1, paperTone(image, crop));
    for (let y = crop.top; y < crop.bottom; y++) {
      const row = (top + y - crop.top) * width - crop.left;
      for (let x = crop.left; x < crop.right; x++) {
        data[row + x] = Math.min(255, Math.round(image.data[y * image.width + x]! * whiten));
      }
    }
  });
  return { bytes: pgm(width, height, data), bands };
}

/** The median grey of a crop: its paper, since text covers the lesser part of it. */
function paperTone(image: GreyImage, crop: PixelRect): number {
  const histogram = new Array<number>(256).fill(0);
  for (let y = crop.top; y < crop.bottom; y++) {
    for (let x = crop.left; x < crop.right; x++) histogram[image.data[y * image.width + x]!]!++;
  }
  return greyLevelAt(histogram, (crop.bottom - crop.top) * (crop.right - crop.left), 0.5);
}

/** Whether two words' boxes overlap: by a third of the narrower one's width, on half the lower one's height. */
function overlapping(a: RawWord, b: RawWord): boolean {
  const w = Math.min(a.box.x1, b.box.x1) - Math.max(a.box.x0, b.box.x0);
  const h = Math.min(a.box.y1, b.box.y1) - Math.max(a.box.y0, b.box.y0);
  const narrower = Math.min(a.box.x1 - a.box.x0, b.box.x1 - b.box.x0);
  const lower = Math.min(a.box.y1 - a.box.y0, b.box.y1 - b.box.y0);
  return w > narrower / 3 && h > lower / 2;
}

/** Whether `read`, read back from a crop, replaces the word `old` of the page's reading that it overlaps. */
function replaceable(old: RawWord, read: RawWord): boolean {
  if (old.confidence < DOUBTFUL) return true;
  const slack = 0.25 * (old.box.y1 - old.box.y0);
  const covers = read.box.x0 <= old.box.x0 + slack && read.box.x1 >= old.box.x1 - slack;
  return covers && read.confidence > old.confidence && read.text !== old.text;
}

/** The letters and digits of some words. */
const characters = (words: readonly RawWord[]): number =>
  words.reduce((sum, w) => sum + (w.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0), 0);

const meanConfidence = (words: readonly RawWord[]): number =>
  words.length === 0 ? 0 : words.reduce((sum, w) => sum + w.confidence, 0) / words.length;

/**
 * The stacked reading's words of one run as lines of words on the page: those whose middle lies in the run's band and,
 * on the page, between `top` and `bottom` (the run's rows, ratios of the page: a neighbouring line's edge caught by
 * the crop stays out), boxes as ratios of the page.
 */
function wordsOnPage(
  read: OcrResult,
  run: MergedRun,
  band: Band,
  rows: { top: number; bottom: number },
  size: GreyImage,
): RawWord[][] {
  const { crop } = run;
  const toPage = (w: RawWord): RawWord => ({
    ...w,
    box: {
      x0: (crop.left + w.box.x0 * read.width) / size.width,
      x1: (crop.left + w.box.x1 * read.width) / size.width,
      y0: (crop.top + w.box.y0 * read.height - band.top) / size.height,
      y1: (crop.top + w.box.y1 * read.height - band.top) / size.height,
    },
  });
  const inBand = (w: RawWord): boolean => {
    const middle = ((w.box.y0 + w.box.y1) / 2) * read.height;
    return middle >= band.top && middle <= band.top + band.height;
  };
  const middle = (w: RawWord): number => (w.box.y0 + w.box.y1) / 2;
  const lines = read.lines ?? [read.words.map((_, i) => i)];
  return lines
    .map((line) =>
      line
        .filter((i) => inBand(read.words[i]!))
        .map((i) => toPage(ownBox(read.words, i)))
        .filter((w) => w.text.trim() !== "" && middle(w) >= rows.top && middle(w) <= rows.bottom),
    )
    .filter((line) => line.length > 0);
}

/**
 * The `i`-th word of a reading with its box ended before the words of the same reading it spans: tesseract boxed
 * "Vignes" over the "- 67000" read after it.
 */
function ownBox(words: readonly RawWord[], i: number): RawWord {
  const word = words[i]!;
  const slack = 0.25 * (word.box.y1 - word.box.y0);
  const inside = words.filter(
    (o, k) => k !== i && o.box.x0 > word.box.x0 && o.box.x1 <= word.box.x1 + slack && overlapping(o, word),
  );
  if (inside.length === 0) return word;
  const end = Math.min(...inside.map((o) => o.box.x0));
  const space = (end - word.box.x0) / Math.max(1, word.text.length);
  return { ...word, box: { ...word.box, x1: end - space } };
}

/**
 * The refinement that reads merged runs again with `read` (a tesseract reading of a crop), on office pages only; the
 * reading as it was when it has none or no re-reading reads surer. A failed crop reading keeps the run as read.
 */
export function mergedLineRereading(read: CropReader): ReadingRefinement {
  return async (result, pixels, signal) => {
    const runs = mergedRuns(result, result).slice(0, MAX_RUNS);
    if (runs.length === 0) return result;
    const image = await pixels();
    if (!isOfficePage(image) || image.width !== result.width || image.height !== result.height) return result;
    const removed = new Set<number>();
    const inRuns = new Set(runs.flatMap((r) => r.words));
    const added: Array<{ after: number; lines: RawWord[][] }> = [];
    const { bytes, bands } = stacked(image, runs);
    const reading = await read(bytes, result.language, signal).catch(() => {
      if (signal?.aborted) throw signal.reason;
      return null;
    });
    if (!reading) return result;
    for (const [k, run] of runs.entries()) {
      const runWords = run.words.map((i) => result.words[i]!);
      const rows = {
        top: Math.min(...runWords.map((w) => w.box.y0)),
        bottom: Math.max(...runWords.map((w) => w.box.y1)),
      };
      // A crop reaches into lines read already: a word read back over one of them replaces it only when it reads a
      // word OCR doubted, or covers it and reads surer ("Liberty" over "iberty"); else the page keeps what it had,
      // and a word another crop read back already is not read twice. A word of another run is left to that run,
      // unless OCR all but guessed it ("MERS" at 0.2, a run of its own that reads back no surer, under a run read
      // well).
      const replaced = new Set<number>();
      const kept = (w: RawWord): boolean => {
        if (added.some((a) => a.lines.some((line) => line.some((o) => overlapping(o, w))))) return false;
        const clashes = result.words.flatMap((o, i) =>
          !run.words.includes(i) && (!inRuns.has(i) || o.confidence < DOUBTFUL) && !removed.has(i) && overlapping(o, w)
            ? [i]
            : [],
        );
        if (!clashes.every((i) => replaceable(result.words[i]!, w))) return false;
        for (const i of clashes) replaced.add(i);
        return true;
      };
      // A word read back still taller than TALL text heights, or a mark alone ("@" for a logo), is no line read
      // apart; a separator of a sender line ("-", "·") is.
      const text = (w: RawWord): boolean =>
        heightOf(w, image) <= TALL * run.text && (/[\p{L}\p{N}]/u.test(w.text) || SEPARATOR.test(w.text));
      const lines = wordsOnPage(reading, run, bands[k]!, rows, image)
        .map((line) => inPageLanguage(line, result.language).filter((w) => text(w) && kept(w)))
        .filter((line) => line.length > 0);
      const confidence = meanConfidence(lines.flat());
      if (confidence < ACCEPTED || confidence <= meanConfidence(runWords)) continue;
      // Nor may the reading lose what the run read: a table's header row read back as half its titles.
      if (characters(lines.flat()) < KEPT_CHARACTERS * characters(runWords)) continue;
      for (const i of [...run.words, ...replaced]) removed.add(i);
      added.push({ after: run.line, lines });
    }
    return added.length === 0 ? result : withLines(result, removed, added);
  };
}

/** `result` without the words `removed`, with the lines `added` after the engine lines they were read from. */
function withLines(
  result: OcrResult,
  removed: ReadonlySet<number>,
  added: ReadonlyArray<{ after: number; lines: RawWord[][] }>,
): OcrResult {
  const words: RawWord[] = [];
  const index = new Map<number, number>();
  result.words.forEach((w, i) => {
    if (removed.has(i)) return;
    index.set(i, words.length);
    words.push(w);
  });
  const lines: number[][] = [];
  for (const [k, line] of (result.lines ?? []).entries()) {
    const kept = line.filter((i) => !removed.has(i)).map((i) => index.get(i)!);
    if (kept.length > 0) lines.push(kept);
    for (const { lines: extra } of added.filter((a) => a.after === k)) {
      for (const newLine of extra) {
        lines.push(newLine.map((w) => words.push(w) - 1));
      }
    }
  }
  return { ...result, words, lines };
}
