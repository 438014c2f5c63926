/**
 * Second reading of an OCR engine's doubtful lines with a line recogniser (PaddleOCR's, line-recogniser.ts): on a
 * page read with mean confidence below PAGE_REREAD_BELOW, each line segment (words closer than SEGMENT_GAP line
 * heights) holding a word that could take the re-reading (below KEEP_FROM confidence, no accent: shouldReread), on
 * one of the page's first lines or a line with a digit (headerAndFigureLines), is cropped from the page and read
 * again, and the characters go back into the engine's words (line-merge.ts). On the 120 dev receipt photos this took
 * receipt F1 from 0.718 to 0.806 with extraction unchanged (names 0.636 -> 0.769, addresses 0.497 -> 0.636, totals
 * 0.833 -> 0.866) and cost the synthetic scans 0.002 (0.914 -> 0.912). Re-reading improves a page; it never fails one.
 */
import sharp from "sharp";
import { median } from "../../document/median.js";
import type { RawWord } from "../page-builder.js";
import { type GreyImage, parsePgm } from "../pgm.js";
import type { OcrEngine, OcrResult } from "./engine.js";
import { type LineWord, mergeLine, pageWorthRereading, segmentsOf, shouldReread } from "./line-merge.js";
import { type LineRecogniser, type PixelBox, paddleRecogniser } from "./line-recogniser.js";
import { inLanguage } from "./lost-letters.js";

/** A ratio coordinate in whole pixels, as tesseract gave it. */
const px = (ratio: number, size: number): number => Math.round(ratio * size);

/**
 * Which doubtful segments (shouldReread) are read again: `segment`'s words, of the line `line` (all its words), the
 * `index`-th of `lines` lines in the engine's reading order. Ingest reads headerAndFigureLines; bench/ocr-variants.ts
 * measures others (everySegment: every doubtful segment).
 */
export type RereadScope = (
  segment: readonly LineWord[],
  line: { words: readonly LineWord[]; index: number; lines: number },
) => boolean;

export const everySegment: RereadScope = () => true;

/** Share of a page's lines, from the first in reading order, re-read whatever they hold (headerAndFigureLines). */
const HEADER_SHARE = 0.3;

/**
 * The doubtful segments worth the recogniser's time: those of the page's first HEADER_SHARE of lines (the header:
 * names and addresses) and those of lines holding a digit (amounts, dates, numbers, and the labels beside them). The
 * rest, letters-only lines further down (item descriptions, footers), took 20-28 % of the recogniser's time on the
 * dev receipts for no labelled value. Measured with bench/ocr-variants.ts (crop-reread against
 * crop-reread-every, which re-reads every doubtful segment; same run), on receipts-dev's first 40 (the scope was
 * chosen on them, after segments with a digit only lost totals' labels): F1 0.914 both, values present the same
 * (names 0.88, addresses 0.72, totals 0.92, dates 0.97), OCR CPU per page 2232 -> 1943 ms; on the next 40, not looked
 * at while choosing: F1 0.816 -> 0.822 (totals 0.949 -> 0.974), present the same (0.75, 0.50, 0.90, 0.93), CPU
 * 2661 -> 2186 ms; all 120: F1 0.870 -> 0.875, present the same (0.80, 0.63, 0.92, 0.96), CPU 2261 -> 1908 ms.
 */
export const headerAndFigureLines: RereadScope = (_segment, line) =>
  line.index < HEADER_SHARE * line.lines || line.words.some((w) => /\d/.test(w.text));

/** Below this confidence tesseract has read no word at all but a guess ("F20260026" in a box's corner -> "ERNIE"). */
const ILLEGIBLE_BELOW = 0.3;
/** Characters a guessed word has at least to be worth a reading: shorter ones are mostly specks and rules' ends. */
const ILLEGIBLE_MIN_CHARS = 3;

/**
 * What is re-read on a page tesseract read surely overall (not pageWorthRereading): the header's segments holding a
 * word it could not read at all (below ILLEGIBLE_BELOW, three characters or more), where the invoice's number and
 * parties are printed, often in boxes and shaded bands that put a word off for tesseract alone.
 */
export const illegibleHeaderWords: RereadScope = (segment, line) => illegibleInHeader(segment, line.index, line.lines);

/** Whether `words`, of the `index`-th of a page's `lines` lines, are a header's holding a word read as a guess. */
function illegibleInHeader(
  words: readonly { confidence: number; text: string }[],
  index: number,
  lines: number,
): boolean {
  return (
    index < HEADER_SHARE * lines &&
    words.some((w) => w.confidence < ILLEGIBLE_BELOW && [...w.text].length >= ILLEGIBLE_MIN_CHARS)
  );
}

/**
 * `result` with its doubtful lines re-read on `image`, the grey image the engine read (same size). Words of lines
 * left alone, and words that keep their reading, keep their box; a word split in two gets two parts of its box.
 * Rejects with the signal's reason when aborted (checked between lines) and with the recogniser's error if it fails.
 * `worth`: whether the page is worth re-reading at all, by default told by `result` (pageWorthRereading).
 */
export async function rereadLines(
  result: OcrResult,
  image: GreyImage,
  recogniser: LineRecogniser,
  signal?: AbortSignal,
  scope: RereadScope = headerAndFigureLines,
  worth = pageWorthRereading(result.words),
): Promise<OcrResult> {
  if (image.width !== result.width || image.height !== result.height)
    throw new Error(`The image is ${image.width}x${image.height}, the OCR result ${result.width}x${result.height}.`);
  const replacements = new Map<number, RawWord[]>();
  if (!worth) return result;
  const engineLines = result.lines ?? [];
  for (const [lineIndex, engineLine] of engineLines.entries()) {
    const line = [...engineLine].sort((a, b) => result.words[a]!.box.x0 - result.words[b]!.box.x0);
    const words = line.map((i) => result.words[i]!);
    if (!shouldReread(words)) continue;
    const pixelWords = words.map(
      (w): LineWord => ({
        text: w.text,
        confidence: w.confidence,
        left: px(w.box.x0, image.width),
        right: px(w.box.x1, image.width),
      }),
    );
    // The rows the line's segments are cropped from: those of its words as tall as text (verticalExtent).
    const { top, bottom } = verticalExtent(words, image.height);
    const where = { words: pixelWords, index: lineIndex, lines: engineLines.length };
    for (const segment of segmentsOf(pixelWords, bottom - top)) {
      signal?.throwIfAborted();
      const segmentWords = segment.map((k) => pixelWords[k]!);
      if (!shouldReread(segmentWords) || !scope(segmentWords, where)) continue;
      const box: PixelBox = {
        left: Math.min(...segmentWords.map((w) => w.left)),
        top,
        right: Math.max(...segmentWords.map((w) => w.right)),
        bottom,
      };
      const chars = await recogniser.readLine(image, box);
      for (const merged of mergeLine(segmentWords, chars, bottom - top)) {
        const index = line[segment[merged.word]!]!;
        const { box: wordBox } = result.words[index]!;
        const split = merged.split && { x0: merged.split.left / image.width, x1: merged.split.right / image.width };
        const text = inLanguage(merged.text, result.language);
        const word = { text, confidence: merged.confidence, box: { ...wordBox, ...split } };
        replacements.set(index, [...(replacements.get(index) ?? []), word]);
      }
    }
  }
  signal?.throwIfAborted();
  return renumbered(result, replacements);
}

/** A word this many times taller than its line's median word is not text of the line (a logo, a stamp read as "©"). */
const TALLER_THAN_TEXT = 2;

/**
 * The rows a line is cropped from: those of its words (y ratios) no taller than TALLER_THAN_TEXT times the median
 * word, in pixels of an image `height` tall. A logo or stamp tesseract read into the line (a "©" 70 px tall beside
 * 22 px figures) would make the crop three lines tall, and the recogniser, scaling the crop to its input height,
 * then reads the text shrunk ("F20260025" -> "22025").
 */
function verticalExtent(words: readonly { box: { y0: number; y1: number } }[], height: number) {
  const spans = words.map((w) => ({ top: px(w.box.y0, height), bottom: px(w.box.y1, height) }));
  const textHeight = median(spans.map((s) => s.bottom - s.top));
  const text = spans.filter((s) => s.bottom - s.top <= TALLER_THAN_TEXT * textHeight);
  return { top: Math.min(...text.map((s) => s.top)), bottom: Math.max(...text.map((s) => s.bottom)) };
}

/** `result` with some words replaced by zero or more words each, its lines' indices following them. */
function renumbered(result: OcrResult, replacements: ReadonlyMap<number, readonly RawWord[]>): OcrResult {
  const words: RawWord[] = [];
  const newIndices = result.words.map((word, i) => {
    const start = words.length;
    words.push(...(replacements.get(i) ?? [word]));
    return Array.from({ length: words.length - start }, (_, k) => start + k);
  });
  const lines = result.lines?.map((line) => line.flatMap((i) => newIndices[i]!));
  return { ...result, words, ...(lines && { lines }) };
}

/** The grey pixels of the image an engine was given: ingest's PGM as it is, a PNG or JPEG decoded as the engine sees it. */
export async function greyPixels(image: Buffer): Promise<GreyImage> {
  const parsed = parsePgm(image);
  if (parsed) return parsed;
  // No EXIF rotation: the engine reads the stored pixels, and its boxes are on them.
  const { data, info } = await sharp(image, { failOn: "error" })
    .flatten({ background: "#ffffff" })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`Expected grey pixels, got ${info.channels} channels.`);
  return { width: info.width, height: info.height, data };
}

/**
 * A step applied to an engine's reading of a page: `result` as read on the grey image `pixels` gives (decoded only
 * when the step needs it), improved or as it was.
 */
export type ReadingRefinement = (
  result: OcrResult,
  pixels: () => Promise<GreyImage>,
  signal?: AbortSignal,
) => Promise<OcrResult>;

/**
 * The line re-reading as a step on a reading `engineName` made: doubtful lines re-read (`scope`), on a page read surely
 * overall only the header's words tesseract could not read at all (illegibleHeaderWords), or the reading as it was
 * when it has none. When the re-reading fails (model missing, a line the recogniser rejects), the page keeps the engine's
 * reading and one process warning says so: OCR runs in processing threads far from the service's logger (as
 * factory.ts's fallback warning). `before` refines the reading first (merged-lines.ts); whether the page is worth
 * re-reading is still told by the engine's own reading, which `before` may have made surer than it is.
 */
export function lineRereading(
  engineName: string,
  recogniser: LineRecogniser = paddleRecogniser,
  scope: RereadScope = headerAndFigureLines,
  before?: ReadingRefinement,
): ReadingRefinement {
  return async (engine, pixels, signal) => {
    const worth = pageWorthRereading(engine.words);
    const first = before ? await before(engine, pixels, signal) : engine;
    const doubtful = first.lines?.some((line) => shouldReread(line.map((i) => first.words[i]!)));
    // A sure page is decoded for the recogniser only when its header holds such a guess (illegibleHeaderWords).
    const lines = first.lines ?? [];
    const illegible =
      !worth &&
      lines.some((line, index) =>
        illegibleInHeader(
          line.map((i) => first.words[i]!),
          index,
          lines.length,
        ),
      );
    if (!doubtful || !(worth || illegible)) return first;
    try {
      return await rereadLines(first, await pixels(), recogniser, signal, worth ? scope : illegibleHeaderWords, true);
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      const reason = err instanceof Error ? err.message : String(err);
      process.emitWarning(`Re-reading a page's doubtful lines failed (${reason}); kept ${engineName}'s reading.`, {
        code: "DOCSIFT_OCR_REREAD",
      });
      return first;
    }
  };
}

/**
 * `engine` with its doubtful lines re-read on the same image (lineRereading). Ingest's default engine re-reads
 * inside its upright-page step instead (orientation-engine.ts), so that only the reading it keeps is re-read.
 */
export function withLineRereading(
  engine: OcrEngine,
  recogniser: LineRecogniser = paddleRecogniser,
  scope: RereadScope = headerAndFigureLines,
): OcrEngine {
  const reread = lineRereading(engine.name, recogniser, scope);
  return {
    name: engine.name,
    recognise: async (image, signal) => reread(await engine.recognise(image, signal), () => greyPixels(image), signal),
    async close() {
      await engine.close?.();
    },
  };
}
