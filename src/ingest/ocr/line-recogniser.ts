/**
 * PaddleOCR's PP-OCRv4 mobile line recogniser (ONNX, CPU) reading one text line cropped from a grey page image. The
 * crop padding, resize and normalisation are those the receipt gain was measured with (bench/ocr-variants.ts): the
 * padding matters: 0.1, 0.25 or 0.35 line heights above and below read worse than 0.2 (F1 0.835, 0.817 and 0.793
 * against 0.844; presumably more lets the neighbouring lines of tightly leaded receipts in, less clips ascenders); 1.0 line
 * heights at the sides instead of 0.5 read 0.839.
 */
import sharp from "sharp";
import type { GreyImage } from "../pgm.js";
import { type PlacedChar, placeChars } from "./ctc.js";
import { recogniseLine } from "./recogniser-process.js";
import { INPUT_HEIGHT } from "./recogniser-protocol.js";

/** How a line is cut out of its page for the recogniser. */
const CROP = {
  /** Input width bounds: narrower gives the model too few time steps, wider is far beyond any receipt line. */
  minInputWidth: 8,
  maxInputWidth: 3200,
  /** Padding above/below and left/right of the line box, in line heights: tesseract's boxes hug the ink. */
  padY: 0.2,
  padX: 0.5,
  /** A crop smaller than this on either side holds no readable text. */
  minSide: 4,
} as const;

/** A rectangle in image pixels, right and bottom exclusive. */
export interface PixelBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Reads one line box of a grey image: its characters placed in image pixels. */
export interface LineRecogniser {
  readLine(image: GreyImage, line: PixelBox): Promise<PlacedChar[]>;
}

/** The padded line box clipped to the image, null when too small to read. */
export function lineCrop(image: { width: number; height: number }, line: PixelBox): PixelBox | null {
  const h = line.bottom - line.top;
  const padY = Math.round(CROP.padY * h);
  const padX = Math.round(CROP.padX * h);
  const crop = {
    left: Math.max(0, line.left - padX),
    top: Math.max(0, line.top - padY),
    right: Math.min(image.width, line.right + padX),
    bottom: Math.min(image.height, line.bottom + padY),
  };
  const tooSmall = crop.right - crop.left < CROP.minSide || crop.bottom - crop.top < CROP.minSide;
  return tooSmall ? null : crop;
}

/** The crop resized to INPUT_HEIGHT keeping its aspect, as grey pixels: what the recogniser's process reads. */
export async function lineInput(image: GreyImage, crop: PixelBox): Promise<{ pixels: Uint8Array; width: number }> {
  const width = crop.right - crop.left;
  const height = crop.bottom - crop.top;
  const inputWidth = Math.max(
    CROP.minInputWidth,
    Math.min(CROP.maxInputWidth, Math.round((width * INPUT_HEIGHT) / height)),
  );
  const grey = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } })
    .extract({ left: crop.left, top: crop.top, width, height })
    .resize({ width: inputWidth, height: INPUT_HEIGHT, fit: "fill" })
    .toColourspace("b-w")
    .raw()
    .toBuffer();
  return { pixels: new Uint8Array(grey.buffer, grey.byteOffset, grey.byteLength), width: inputWidth };
}

/**
 * Reads one line with the PP-OCRv4 recogniser, which runs in a process of its own (recogniser-process.ts): lines of
 * pages read in parallel share it.
 */
export async function readLine(image: GreyImage, line: PixelBox): Promise<PlacedChar[]> {
  const crop = lineCrop(image, line);
  if (!crop) return [];
  const input = await lineInput(image, crop);
  const { chars, steps } = await recogniseLine(input.pixels, input.width);
  return placeChars(chars, {
    cropLeft: crop.left,
    scale: INPUT_HEIGHT / (crop.bottom - crop.top),
    inputWidth: input.width,
    steps,
  });
}

export const paddleRecogniser: LineRecogniser = { readLine };
