/**
 * Header lines tesseract read nothing of: a receipt's name is often its largest, boldest print (a logo's lettering,
 * "POPULAR BOOK" above "CO. (M) SDN BHD"), and tesseract either skips it or reads specks there, so the line re-reader
 * (rereading.ts), which re-reads tesseract's own lines, never sees it. On a doubtful receipt strip (taller than an
 * office page, read with mean confidence below the re-reader's bar), PaddleOCR's detector looks for text lines in the
 * header (the band of the page's first lines); each line it finds where tesseract read no word of two letters or
 * digits at READ_FROM or more is read by the recogniser, and kept, in place of the specks tesseract read there, when
 * read surely. Detection and reading run in the recogniser's process (recogniser-process.ts); if they fail, the page
 * keeps the reading it had.
 */
import { NEARLY_EMPTY_WORDS } from "../faint-page.js";
import type { RawWord } from "../page-builder.js";
import type { GreyImage } from "../pgm.js";
import type { OcrResult } from "./engine.js";
import { pageWorthRereading } from "./line-merge.js";
import { type LineRecogniser, type PixelBox, paddleRecogniser } from "./line-recogniser.js";
import { findLines, readLineWords } from "./paddle-engine.js";
import type { ReadingRefinement } from "./rereading.js";
import { isOfficePage } from "./rule-removal.js";

/** The header: the band of the page's first lines in reading order, this share of them... */
const HEADER_LINES = 0.3;
/** ...and at least and at most this share of the page's height. */
const HEADER_MIN = 0.15;
const HEADER_MAX = 0.45;
/** A tesseract word this sure, of two letters or digits, means tesseract read the line: it is left to the re-reader. */
const READ_FROM = 0.5;
/** The recogniser's reading of a line is kept at this mean confidence, with three letters or digits at least. */
const KEEP_FROM = 0.8;

/**
 * Longest side the detector reads the header at: its lines are the page's largest print, and the detector's cost
 * grows with the pixels it reads (the whole page's 1600, DETECTION_MAX_SIDE, costs about four times as much).
 */
const HEADER_DETECTION_SIDE = 800;

/** Finds text lines on a grey image, in its pixels (PaddleOCR's detector). */
export type LineFinder = (image: GreyImage) => Promise<PixelBox[]>;

const meaningful = (text: string): number => (text.match(/[\p{L}\p{N}]/gu) ?? []).length;

/** The bottom of the header band in pixels: below the first HEADER_LINES of the lines, within the bounds. */
function headerBottom(result: OcrResult): number {
  const lines = result.lines ?? [];
  const first = lines.slice(0, Math.ceil(HEADER_LINES * lines.length));
  const bottom = Math.max(0, ...first.flat().map((i) => result.words[i]?.box.y1 ?? 0));
  return Math.round(Math.min(HEADER_MAX, Math.max(HEADER_MIN, bottom)) * result.height);
}

/** Indices of the words whose middle row falls in `box` (pixels) and that overlap it across. */
function wordsIn(result: OcrResult, box: PixelBox): number[] {
  const out: number[] = [];
  result.words.forEach((w, i) => {
    const middle = ((w.box.y0 + w.box.y1) / 2) * result.height;
    const overlaps = w.box.x1 * result.width > box.left && w.box.x0 * result.width < box.right;
    if (overlaps && middle >= box.top && middle <= box.bottom) out.push(i);
  });
  return out;
}

/**
 * `result` with the header lines tesseract read nothing of read by `recogniser` on `image` (the grey image read, the
 * same size), see the file comment. Lines keep their reading order: a new line goes before the first line below it.
 */
export async function fillHeader(
  result: OcrResult,
  image: GreyImage,
  recogniser: LineRecogniser,
  find: LineFinder,
  signal?: AbortSignal,
): Promise<OcrResult> {
  const rows = headerBottom(result);
  const header: GreyImage = { width: image.width, height: rows, data: image.data.subarray(0, image.width * rows) };
  const dropped = new Set<number>();
  const added: RawWord[][] = [];
  for (const box of await find(header)) {
    signal?.throwIfAborted();
    const inside = wordsIn(result, box);
    const read = inside.some((i) => {
      const w = result.words[i];
      return w !== undefined && w.confidence >= READ_FROM && meaningful(w.text) >= 2;
    });
    if (read || inside.some((i) => dropped.has(i))) continue;
    const words = await readLineWords(recogniser, image, box);
    const letters = words.reduce((sum, w) => sum + meaningful(w.text), 0);
    const confidence = words.reduce((sum, w) => sum + w.confidence, 0) / Math.max(1, words.length);
    if (letters < 3 || confidence < KEEP_FROM) continue;
    for (const i of inside) dropped.add(i);
    added.push(words);
  }
  if (added.length === 0) return result;
  const index = new Map<number, number>();
  const words: RawWord[] = [];
  result.words.forEach((w, i) => {
    if (dropped.has(i)) return;
    index.set(i, words.length);
    words.push(w);
  });
  let lines = (result.lines ?? [])
    .map((line) => line.filter((i) => !dropped.has(i)).map((i) => index.get(i) ?? -1))
    .filter((line) => line.length > 0);
  for (const line of added) {
    const ids = line.map((w) => {
      words.push(w);
      return words.length - 1;
    });
    const top = line[0]?.box.y0 ?? 0;
    const at = lines.findIndex((l) => (words[l[0] ?? -1]?.box.y0 ?? 0) > top);
    lines = at < 0 ? [...lines, ids] : [...lines.slice(0, at), ids, ...lines.slice(at)];
  }
  return { ...result, words, lines };
}

/**
 * `before` (the line re-reader), then the header filled on a doubtful receipt strip (fillHeader), unless the reading is
 * nearly empty: ingest reads such a page again with its contrast stretched, and fills that reading. A failure of the
 * detector or the recogniser keeps the reading `before` gave, with one process warning.
 */
export function withHeaderFill(
  before: ReadingRefinement,
  recogniser: LineRecogniser = paddleRecogniser,
  find: LineFinder = (image) => findLines(image, HEADER_DETECTION_SIDE),
): ReadingRefinement {
  return async (engine, pixels, signal) => {
    const worth = pageWorthRereading(engine.words);
    const first = await before(engine, pixels, signal);
    // A nearly empty reading is read again with its contrast stretched (faint-page.ts): filled, it would not be.
    if (!worth || !first.lines || first.words.length < NEARLY_EMPTY_WORDS) return first;
    const image = await pixels();
    if (isOfficePage(image)) return first;
    try {
      return await fillHeader(first, image, recogniser, find, signal);
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      const reason = err instanceof Error ? err.message : String(err);
      process.emitWarning(`Reading a page's header lines failed (${reason}); kept the page's reading.`, {
        code: "DOCSIFT_OCR_REREAD",
      });
      return first;
    }
  };
}
