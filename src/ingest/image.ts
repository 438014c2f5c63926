import sharp from "sharp";
import type { Box } from "../document/model.js";
import { DocsiftError } from "../domain/errors.js";
import { checkPixels, LIMITS } from "./limits.js";
import { type GreyImage, greyLevelAt, pgm } from "./pgm.js";
import { sniffType } from "./sniff.js";

export interface ImageSize {
  width: number;
  height: number;
}

/** PNG dimensions straight from the IHDR chunk: no decoder sees a bomb before the pixel limit does. */
function pngHeaderSize(bytes: Uint8Array): ImageSize {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const isIhdr = bytes.byteLength >= 24 && String.fromCharCode(...bytes.subarray(12, 16)) === "IHDR";
  if (!isIhdr) throw new DocsiftError("corrupt_file", "The PNG is damaged: its header is missing.");
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * Size of the image as displayed (EXIF orientation applied), read from headers only, and the pixel limit enforced.
 * Cheap: nothing is decoded.
 */
export async function inspectImage(bytes: Uint8Array, type: "png" | "jpeg"): Promise<ImageSize> {
  if (type === "png") {
    const header = pngHeaderSize(bytes);
    checkPixels(header.width, header.height);
  }
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch (err) {
    throw new DocsiftError("corrupt_file", "The image is damaged and cannot be read.", { cause: err });
  }
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw new DocsiftError("corrupt_file", "The image has no readable dimensions.");
  checkPixels(width, height);
  return { width, height };
}

/** Decodes with the pixel limit and applies EXIF orientation (toBuffer turns decode failures into typed errors). */
export function decodeImage(bytes: Uint8Array): sharp.Sharp {
  // failOn "error": a truncated phone JPEG still decodes (grey tail) rather than failing the whole upload.
  // Transparent areas become white paper, not the black their colour channels often hold.
  return sharp(bytes, { limitInputPixels: LIMITS.maxPixels, failOn: "error" })
    .rotate()
    .flatten({ background: "#ffffff" });
}

export async function toBuffer(image: sharp.Sharp): Promise<{ data: Buffer; info: sharp.OutputInfo }> {
  try {
    return await image.toBuffer({ resolveWithObject: true });
  } catch (err) {
    const message = err instanceof Error ? err.message : "";
    if (/pixel limit/i.test(message))
      throw new DocsiftError("image_too_large", `The image exceeds ${LIMITS.maxPixels.toLocaleString("en")} pixels.`, {
        cause: err,
      });
    throw new DocsiftError("corrupt_file", "The image is damaged and cannot be read.", { cause: err });
  }
}

/**
 * Narrow images are upscaled for OCR towards this width, by at most MAX_UPSCALE; wider images are read as they are.
 * Small scans and phone crops have text too small for tesseract's comfort range (x-height ~20 px). Measured on the
 * 120 dev receipts (tesseract psm 6, same engine): the former fixed 2x below 1000 px gave F1 0.617; 1600 px capped
 * at 2x 0.625 (addresses 0.29 -> 0.32, totals 0.71 -> 0.75, dates 0.86 -> 0.83, names 0.52 -> 0.53); capped at 3x
 * 0.617, and 3x also lost addresses and times on the narrowest synthetic scans (F1 0.894 -> 0.887 on 36 of them)
 * where the 2x cap left them unchanged.
 */
export const OCR_TARGET_WIDTH = 1600;
const MAX_UPSCALE = 2;

/** Factor by which an image of this width is enlarged for OCR (1 = left as is). */
export function ocrScale(width: number): number {
  return Math.min(MAX_UPSCALE, Math.max(1, OCR_TARGET_WIDTH / width));
}

/** A rectangle of an image in pixels. */
export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Width of the thumbnail the content region is found on: text lines survive as grey bands, specks fade. */
const REGION_THUMB_WIDTH = 400;
/** A thumbnail pixel this much darker than the paper is ink. */
const INK_CONTRAST = 40;
/** Cropping pays only when it removes this much of the page. */
const MIN_CROP_GAIN = 0.4;

/**
 * From the first to the last position of the runs of at least `minRun` consecutive marked positions: all the text
 * (a line of text marks several thumbnail rows), without isolated specks (one or two).
 */
function inkExtent(marked: readonly boolean[], minRun: number): [number, number] | null {
  let first = -1;
  let last = -1;
  let runStart = -1;
  for (let i = 0; i <= marked.length; i++) {
    if (i < marked.length && marked[i]) {
      if (runStart < 0) runStart = i;
      continue;
    }
    if (runStart >= 0 && i - runStart >= minRun) {
      if (first < 0) first = runStart;
      last = i - 1;
    }
    runStart = -1;
  }
  return first < 0 ? null : [first, last];
}

/**
 * The part of a grey image that holds the document when it is a small receipt on a big scanned page: every row and
 * column with ink, with a margin; null when that fills most of the page (photos, full pages, invoices) or reaches
 * the left or right edge (a shadow, the scanner's edge), so only documents lying on blank paper are cropped, and
 * never short of their text. A row or column counts as ink when at least 3 thumbnail pixels are `INK_CONTRAST`
 * darker than the paper (the 90th percentile grey) and it belongs to a run of at least 3 such rows or columns, so
 * scanner specks are left out. Pure: `grey` is the thumbnail, one byte per pixel.
 */
export function contentRegion(grey: Uint8Array, width: number, height: number): Region | null {
  if (width < 8 || height < 8) return null;
  const histogram = new Array<number>(256).fill(0);
  for (const v of grey) histogram[v] = (histogram[v] ?? 0) + 1;
  const ink = greyLevelAt(histogram, grey.length, 0.9) - INK_CONTRAST;
  const rowInk = new Array<boolean>(height).fill(false);
  for (let y = 0; y < height; y++) {
    let n = 0;
    for (let x = 0; x < width; x++) if ((grey[y * width + x] ?? 255) < ink) n++;
    rowInk[y] = n >= 3;
  }
  const rows = inkExtent(rowInk, 3);
  if (!rows) return null;
  const colCount = new Array<number>(width).fill(0);
  for (let y = rows[0]; y <= rows[1]; y++) {
    for (let x = 0; x < width; x++) if ((grey[y * width + x] ?? 255) < ink) colCount[x] = (colCount[x] ?? 0) + 1;
  }
  const cols = inkExtent(
    colCount.map((n) => n >= 3),
    3,
  );
  const marginX = Math.round(0.03 * width);
  // Ink reaching a side of the page is a shadow or the scanner's edge, not a document lying on blank paper.
  if (!cols || cols[0] <= marginX || cols[1] >= width - 1 - marginX) return null;
  const marginY = Math.round(0.03 * height);
  const left = Math.max(0, cols[0] - marginX);
  const top = Math.max(0, rows[0] - marginY);
  const right = Math.min(width, cols[1] + 1 + marginX);
  const bottom = Math.min(height, rows[1] + 1 + marginY);
  if ((right - left) * (bottom - top) > (1 - MIN_CROP_GAIN) * width * height) return null;
  return { left, top, width: right - left, height: bottom - top };
}

/** The upright image as decoded for OCR (decodeImage, greyscale): one byte per pixel. */
async function decodeGrey(bytes: Uint8Array): Promise<GreyImage> {
  const { data, info } = await toBuffer(decodeImage(bytes).greyscale().raw());
  if (info.channels !== 1) throw new Error(`Expected grey pixels, got ${info.channels} channels.`);
  return { width: info.width, height: info.height, data };
}

/** `grey` as a sharp pipeline's input, giving grey pixels (sharp would otherwise output three channels). */
const greyInput = (grey: GreyImage): sharp.Sharp =>
  sharp(grey.data, { raw: { width: grey.width, height: grey.height, channels: 1 } }).toColourspace("b-w");

/**
 * An image is decoded once, for its content region and for OCR, unless it is a JPEG at least this many thumbnail
 * widths wide: the JPEG decoder shrinks such an image while decoding it, so its thumbnail costs less from the bytes
 * than from the decoded pixels, and its pixels for OCR less streamed from the bytes than kept in memory. CPU per
 * photo, 80 of receipts-dev, decoded twice -> once: below 800 px wide 181 -> 140 ms, 800-1200 px 244 -> 186 ms, 1600
 * px and more 319 -> 637 ms (none between). The pixels and regions are the same either way (all 370 receipt photos).
 */
const SHRINK_ON_DECODE = 4;

/**
 * The image's grey pixels decoded once, or the bytes, for the pipeline a region is found on and the OCR pixels are
 * made from (same pixels either way: sharp's greyscale then resize or extract).
 */
async function ocrSource(bytes: Uint8Array, size: ImageSize): Promise<Uint8Array | GreyImage> {
  const shrinks = sniffType(bytes) === "jpeg" && size.width >= SHRINK_ON_DECODE * REGION_THUMB_WIDTH;
  return shrinks ? bytes : decodeGrey(bytes);
}

const greyPipeline = (source: Uint8Array | GreyImage): sharp.Sharp =>
  source instanceof Uint8Array ? decodeImage(source).greyscale() : greyInput(source);

/**
 * contentRegion of an image (its bytes, or its grey pixels decoded), in the image's own pixels (found on a
 * thumbnail); `size` is its displayed size.
 */
export async function findContentRegion(source: Uint8Array | GreyImage, size: ImageSize): Promise<Region | null> {
  if (size.width <= REGION_THUMB_WIDTH) return null;
  const { data, info } = await toBuffer(greyPipeline(source).resize({ width: REGION_THUMB_WIDTH }).raw());
  const region = contentRegion(data, info.width, info.height);
  if (!region) return null;
  const fx = size.width / info.width;
  const fy = size.height / info.height;
  const left = Math.floor(region.left * fx);
  const top = Math.floor(region.top * fy);
  return {
    left,
    top,
    width: Math.min(size.width - left, Math.ceil(region.width * fx)),
    height: Math.min(size.height - top, Math.ceil(region.height * fy)),
  };
}

/** Words OCR'd on `region` of an image, with their boxes turned into ratios of the whole image. */
export function placeWords<W extends { box: Box }>(words: readonly W[], region: Region | null, size: ImageSize): W[] {
  if (!region) return [...words];
  const x = (r: number) => (region.left + r * region.width) / size.width;
  const y = (r: number) => (region.top + r * region.height) / size.height;
  return words.map((w) => ({ ...w, box: { x0: x(w.box.x0), y0: y(w.box.y0), x1: x(w.box.x1), y1: y(w.box.y1) } }));
}

/** What OCR reads of an image: a greyscale PGM and, when only part of the image is read, that part. */
export interface OcrImage {
  image: Buffer;
  /** The cropped region in the image's pixels (word boxes are ratios of it: see placeWords), or null. */
  region: Region | null;
}

/**
 * Greyscale PGM of the upright image for OCR; `size` is its displayed size (from inspectImage). A small receipt on a
 * big scanned page is cropped to its content region first: tesseract's "single block" mode reads the receipt rather
 * than the specks around it, and a fraction of the pixels costs a fraction of the time. Measured on the 120 dev
 * receipts (26 of them cropped; bench/ocr-variants.ts): the same F1 (0.649) with addresses 0.370 -> 0.377 and dates
 * 0.830 -> 0.839, totals 0.751 -> 0.739, and tesseract CPU per page 1225 -> 1015 ms on average. Most images are
 * decoded once for the region and the pixels read (SHRINK_ON_DECODE).
 */
export async function imageForOcr(bytes: Uint8Array, size: ImageSize): Promise<OcrImage> {
  const source = await ocrSource(bytes, size);
  const region = await findContentRegion(source, size);
  let image = greyPipeline(source);
  if (region) image = image.extract(region);
  const width = region?.width ?? size.width;
  const scale = ocrScale(width);
  if (scale > 1.01) image = image.resize({ width: Math.round(width * scale), kernel: "lanczos3" });
  const { data, info } = await toBuffer(image.raw());
  return { image: pgm(info.width, info.height, data), region };
}
