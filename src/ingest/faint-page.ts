/**
 * Faint prints (thermal paper fading to grey, a light scan) can leave tesseract's page segmentation with almost
 * nothing to read: on two of the 120 dev receipts it found 2 and 7 words where a contrast-stretched copy of the same
 * image gives over 90. Pages read that badly are read once more with their contrast stretched, and the fuller
 * reading is kept; every other page costs nothing extra.
 */
import type { OcrEngine, OcrResult } from "./ocr/engine.js";
import { type GreyImage, greyLevelAt, parsePgm, pgm } from "./pgm.js";

/** A reading with fewer words than this is retried: a real page of text has more, a blank page costs little. */
export const NEARLY_EMPTY_WORDS = 20;
/** Share of darkest and lightest pixels that are clipped when stretching (as sharp's normalise does). */
const CLIP = 0.01;
/** Share of the width and height at each edge left out when measuring the levels. */
const MARGIN = 0.1;

/**
 * The image with its grey levels stretched so the darkest CLIP of pixels become black and the lightest CLIP white;
 * null when there is nothing to stretch (already full range, or a blank page).
 */
export function stretchContrast(image: GreyImage): GreyImage | null {
  const histogram = new Uint32Array(256);
  const { width, height } = image;
  let total = 0;
  // Levels are measured away from the edges, where a dark background or a torn edge would pass for ink.
  for (let y = Math.floor(height * MARGIN); y < Math.ceil(height * (1 - MARGIN)); y++)
    for (let x = Math.floor(width * MARGIN); x < Math.ceil(width * (1 - MARGIN)); x++) {
      const v = image.data[y * width + x]!;
      histogram[v] = (histogram[v] ?? 0) + 1;
      total++;
    }
  const low = greyLevelAt(histogram, total, CLIP);
  const high = greyLevelAt(histogram, total, 1 - CLIP);
  if (high - low < 16 || (low <= 2 && high >= 253)) return null;
  const scale = 255 / (high - low);
  const data = new Uint8Array(image.data.length);
  for (let i = 0; i < data.length; i++)
    data[i] = Math.max(0, Math.min(255, Math.round((image.data[i]! - low) * scale)));
  return { width: image.width, height: image.height, data };
}

/** How much a reading holds: its words weighed by their confidence. */
const weight = (result: OcrResult): number => result.words.reduce((sum, w) => sum + w.confidence, 0);

/** Reads a PGM page image with `engine`; a nearly empty reading is retried on the contrast-stretched image. */
export async function recogniseFaintPage(engine: OcrEngine, image: Buffer, signal?: AbortSignal): Promise<OcrResult> {
  const first = await engine.recognise(image, signal);
  if (first.words.length >= NEARLY_EMPTY_WORDS) return first;
  const grey = parsePgm(image);
  const stretched = grey && stretchContrast(grey);
  if (!stretched) return first;
  const second = await engine.recognise(pgm(stretched.width, stretched.height, stretched.data), signal);
  return weight(second) > weight(first) ? second : first;
}
