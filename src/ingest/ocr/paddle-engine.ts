/**
 * PaddleOCR as a full OCR engine: PP-OCRv4's DB detector finds the page's text lines (paddle-detect.ts), its
 * recogniser reads each (line-recogniser.ts, with the crop padding measured for it), and the characters it places
 * become words split at the spaces it reads. Both models run in the recogniser's process (recogniser-child.ts), one
 * per processing thread; nothing here blocks the thread but the crops' resizing.
 */
import sharp from "sharp";
import { DocsiftError } from "../../domain/errors.js";
import type { RawWord } from "../page-builder.js";
import { type GreyImage, parsePgm } from "../pgm.js";
import type { PlacedChar } from "./ctc.js";
import { DEFAULT_PAGE_TIMEOUT_MS, type OcrEngine, type OcrResult } from "./engine.js";
import { type LineRecogniser, type PixelBox, paddleRecogniser } from "./line-recogniser.js";
import { type DetectedBox, detectionSize } from "./paddle-detect.js";
import { detectLines } from "./recogniser-process.js";

/**
 * Longest side the detector reads a page at. PaddleOCR's default is 960; a 200 dpi A4 page's 8-point print is then
 * under 10 pixels tall and lines merge, so pages are read finer.
 */
export const DETECTION_MAX_SIDE = 1600;

/** A word's half-width beyond its outer characters' centres when the line gives no spacing: share of the line height. */
const LONE_CHAR_HALF_WIDTH = 0.3;

/** The grey pixels of an image given to an engine: ingest's PGM as it is, a PNG or JPEG decoded. */
async function greyImage(image: Buffer): Promise<GreyImage> {
  const pgm = parsePgm(image);
  if (pgm) return pgm;
  const { data, info } = await sharp(image)
    .flatten({ background: "#ffffff" })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/** The detector's boxes for `grey`, in its pixels, the image read at most `maxSide` pixels long. */
export async function findLines(grey: GreyImage, maxSide = DETECTION_MAX_SIDE): Promise<PixelBox[]> {
  const size = detectionSize(grey.width, grey.height, maxSide);
  const pixels = await sharp(grey.data, { raw: { width: grey.width, height: grey.height, channels: 1 } })
    .resize({ width: size.width, height: size.height, fit: "fill" })
    .toColourspace("b-w")
    .raw()
    .toBuffer();
  const boxes = await detectLines(
    new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength),
    size.width,
    size.height,
  );
  const sx = grey.width / size.width;
  const sy = grey.height / size.height;
  return readingOrder(boxes).map((b) => ({
    left: Math.round(b.left * sx),
    top: Math.round(b.top * sy),
    right: Math.round(b.right * sx),
    bottom: Math.round(b.bottom * sy),
  }));
}

/** Top to bottom; boxes whose middles share a row (each's centre inside the other's span) left to right. */
function readingOrder(boxes: readonly DetectedBox[]): DetectedBox[] {
  const centre = (b: DetectedBox): number => (b.top + b.bottom) / 2;
  return [...boxes].sort((a, b) => {
    const sameRow = centre(a) > b.top && centre(a) < b.bottom && centre(b) > a.top && centre(b) < a.bottom;
    return sameRow ? a.left - b.left : centre(a) - centre(b);
  });
}

/**
 * Words of one read line: characters split at the spaces read, each word spanning its characters' centres plus
 * half the line's mean character pitch, its confidence the mean of its characters'. (Splitting also where two
 * characters stand far apart cuts words: the recogniser's character positions, CTC peaks, are too uneven.)
 */
export function wordsOfLine(
  chars: readonly PlacedChar[],
  line: PixelBox,
): { text: string; left: number; right: number; confidence: number }[] {
  const inked = chars.filter((c) => c.text.trim() !== "");
  const pitch =
    inked.length > 1
      ? (inked.at(-1)!.x - inked[0]!.x) / (inked.length - 1)
      : 2 * LONE_CHAR_HALF_WIDTH * (line.bottom - line.top);
  const words: { text: string; left: number; right: number; confidence: number }[] = [];
  let current: PlacedChar[] = [];
  const flush = (): void => {
    if (current.length === 0) return;
    words.push({
      text: current.map((c) => c.text).join(""),
      left: Math.max(line.left, current[0]!.x - pitch / 2),
      right: Math.min(line.right, current.at(-1)!.x + pitch / 2),
      confidence: current.reduce((sum, c) => sum + c.prob, 0) / current.length,
    });
    current = [];
  };
  for (const c of chars) {
    if (c.text.trim() === "") flush();
    else current.push(c);
  }
  flush();
  return words;
}

/** The words `recogniser` reads on `line` of `grey`, placed as ratios of the image (wordsOfLine). */
export async function readLineWords(recogniser: LineRecogniser, grey: GreyImage, line: PixelBox): Promise<RawWord[]> {
  return wordsOfLine(await recogniser.readLine(grey, line), line).map((w) => ({
    text: w.text,
    confidence: w.confidence,
    box: {
      x0: w.left / grey.width,
      x1: w.right / grey.width,
      y0: line.top / grey.height,
      y1: line.bottom / grey.height,
    },
  }));
}

/** Reads a page: its lines found, each read, words placed as ratios of the image. */
async function readPage(image: Buffer, recogniser: LineRecogniser, signal?: AbortSignal): Promise<OcrResult> {
  const grey = await greyImage(image);
  const words: RawWord[] = [];
  const lines: number[][] = [];
  for (const line of await findLines(grey)) {
    signal?.throwIfAborted();
    const read = await readLineWords(recogniser, grey, line);
    if (read.length === 0) continue;
    lines.push(read.map((_, i) => words.length + i));
    words.push(...read);
  }
  return { width: grey.width, height: grey.height, words, lines };
}

/** The PaddleOCR engine; a page past `pageTimeoutMs` fails `timeout`, any other failure `ocr_failed`. */
export function createPaddleEngine(
  pageTimeoutMs = DEFAULT_PAGE_TIMEOUT_MS,
  recogniser: LineRecogniser = paddleRecogniser,
): OcrEngine {
  return {
    name: "paddle",
    async recognise(image, signal) {
      signal?.throwIfAborted();
      const limit = AbortSignal.timeout(pageTimeoutMs);
      const both = signal ? AbortSignal.any([signal, limit]) : limit;
      try {
        return await readPage(image, recogniser, both);
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        if (limit.aborted)
          throw new DocsiftError("timeout", `OCR of a page took longer than ${pageTimeoutMs} ms and was stopped.`);
        if (err instanceof DocsiftError) throw err;
        const reason = err instanceof Error ? err.message : String(err);
        throw new DocsiftError("ocr_failed", `PaddleOCR could not read the page: ${reason}`, { cause: err });
      }
    },
  };
}
