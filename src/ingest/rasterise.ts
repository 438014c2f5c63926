import { createCanvas } from "@napi-rs/canvas";
import type { PDFDocument } from "pdf-lib";
import type { PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import sharp from "sharp";
import { LIMITS } from "./limits.js";
import { fullPageJpeg } from "./pdf-scan-image.js";
import { pgm, rgbaToGrey } from "./pgm.js";

/** 200 dpi OCRs as well as 300 and is about 30 % faster (design notes). */
export const OCR_DPI = 200;
/** A poster-sized page at 200 dpi would be hundreds of megapixels; beyond this the page is rendered at a lower dpi. */
const MAX_RENDER_PIXELS = 40_000_000;
/**
 * Longest side of a render. The pixel cap alone lets a sliver page (1 x 1,000,000,000 pt) become a 1 x 200,000,000
 * bitmap, since its short side cannot go below one pixel; Skia refuses sides over 32,767 anyway.
 */
const MAX_RENDER_SIDE = 16_384;

export interface Bitmap {
  /** RGBA, row-major. */
  data: Buffer;
  width: number;
  height: number;
}

/**
 * Pixel size of a `width` x `height` pt page (rotation applied) rendered at `dpi`, capped at MAX_RENDER_PIXELS and
 * MAX_RENDER_SIDE, so no page, however its MediaBox is drawn, allocates a larger canvas.
 */
export function renderSize(
  width: number,
  height: number,
  dpi: number,
): { scale: number; width: number; height: number } {
  const scale = Math.min(
    dpi / 72,
    Math.sqrt(MAX_RENDER_PIXELS / (width * height)),
    MAX_RENDER_SIDE / Math.max(width, height),
  );
  const side = (points: number): number => Math.min(MAX_RENDER_SIDE, Math.max(1, Math.round(points * scale)));
  return { scale, width: side(width), height: side(height) };
}

/** Renders PDF page `pageNum` (1-based) at `dpi` (lowered if the bitmap would be huge), white background. */
export async function rasterisePdfPage(doc: PDFDocumentProxy, pageNum: number, dpi: number): Promise<Bitmap> {
  const page = await doc.getPage(pageNum);
  try {
    const natural = page.getViewport({ scale: 1 });
    const { scale, width, height } = renderSize(natural.width, natural.height, dpi);
    const viewport = page.getViewport({ scale });
    const canvas = createCanvas(width, height);
    const context = canvas.getContext("2d");
    await page.render({ canvas: null, canvasContext: context, viewport }).promise;
    const pixels = context.getImageData(0, 0, width, height).data;
    return { data: Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength), width, height };
  } finally {
    page.cleanup();
  }
}

/** Greyscale PGM for OCR: written once, read once, so not worth compressing. */
export function greyImage(bitmap: Bitmap): Buffer {
  return pgm(bitmap.width, bitmap.height, rgbaToGrey(bitmap.data));
}

/** Colour PNG for people (review console, result images). */
export function colourPng(bitmap: Bitmap): Promise<Buffer> {
  return sharp(bitmap.data, { raw: { width: bitmap.width, height: bitmap.height, channels: 4 } })
    .removeAlpha()
    .png()
    .toBuffer();
}

/**
 * A scan's own pixels are used as they are when within this factor of the render size (a 175-230 dpi scan for a
 * 200 dpi render): boxes are page ratios, so only resolution differs, and resampling would cost time for nothing.
 */
const KEEP_NATIVE_WITHIN = 0.15;

/** How the OCR image of a PDF page was made: its embedded JPEG decoded natively, or the page rendered by pdf.js. */
export type OcrImagePath = "embedded-jpeg" | "render";

/**
 * Greyscale PGM of PDF page `pageNum` for OCR at `dpi`. A page that is one plain JPEG over the whole page (the
 * normal scan) is decoded by libjpeg-turbo and oriented as pdf.js would show it: about half the cost of rendering,
 * where pdf.js decodes the JPEG in JavaScript. Every other page, or a JPEG libjpeg refuses, is rendered.
 * `source` is the same PDF opened with pdf-lib (undefined: always render).
 */
export async function pdfPageOcrImage(
  doc: PDFDocumentProxy,
  source: PDFDocument | undefined,
  pageNum: number,
  dpi: number,
): Promise<{ image: Buffer; path: OcrImagePath }> {
  const scan = source && fullPageJpeg(source, pageNum);
  if (scan) {
    const upright = scan.rotate % 180 === 0;
    const target = renderSize(
      upright ? scan.pageWidth : scan.pageHeight,
      upright ? scan.pageHeight : scan.pageWidth,
      dpi,
    );
    try {
      const image = await decodeScanJpeg(scan, target);
      return { image, path: "embedded-jpeg" };
    } catch {
      // libjpeg is stricter than pdf.js with damaged streams: let the renderer make what it can of it.
    }
  }
  return { image: greyImage(await rasterisePdfPage(doc, pageNum, dpi)), path: "render" };
}

async function decodeScanJpeg(
  scan: { jpeg: Uint8Array; flipX: boolean; flipY: boolean; rotate: number },
  target: { width: number; height: number },
): Promise<Buffer> {
  // No autoOrient: PDF viewers ignore a JPEG's EXIF orientation, so pdf.js shows the stored pixels.
  let image = sharp(scan.jpeg, { limitInputPixels: LIMITS.maxPixels, failOn: "error" })
    .flip(scan.flipY)
    .flop(scan.flipX)
    .rotate(scan.rotate) // sharp mirrors before rotating, as the page matrix does before /Rotate
    .greyscale();
  const meta = await image.metadata();
  const [w, h] = scan.rotate % 180 === 0 ? [meta.width, meta.height] : [meta.height, meta.width];
  const close = (have: number, want: number) => Math.abs(have / want - 1) <= KEEP_NATIVE_WITHIN;
  if (!(close(w, target.width) && close(h, target.height)))
    image = image.resize({ width: target.width, height: target.height, fit: "fill", kernel: "lanczos3" });
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`expected grey pixels, got ${info.channels} channels`);
  return pgm(info.width, info.height, data);
}
