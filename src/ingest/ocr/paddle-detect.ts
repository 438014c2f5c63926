/**
 * Text boxes from PaddleOCR's DB text detector (PP-OCRv4 det): the model gives, per pixel of its input, the
 * probability that the pixel lies in the shrunk core of a text line; the boxes are the connected regions of that map
 * above a threshold, kept when their mean probability is high enough, and grown back ("unclipped") by the margin the
 * training shrank them by. Pure: the model runs in the recogniser's process (recogniser-child.ts).
 *
 * Boxes are axis-aligned: docsift's pages are upright by the time they are read (a small skew only makes a box a
 * little taller), and the recogniser reads horizontal crops.
 */

/** A rectangle in pixels (right and bottom exclusive) and the detector's mean probability over its region. */
export interface DetectedBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
  score: number;
}

/** PaddleOCR's DB post-processing defaults (det_db_thresh, det_db_box_thresh, det_db_unclip_ratio, min_size). */
export const DB_POSTPROCESS = {
  /** A pixel belongs to text above this probability. */
  threshold: 0.3,
  /** A region is kept when its pixels' mean probability reaches this. */
  boxThreshold: 0.6,
  /** The region grows by area * ratio / perimeter on every side (the inverse of the training's shrink). */
  unclipRatio: 1.5,
  /** A region with a side shorter than this (pixels of the map) is noise. */
  minSide: 3,
} as const;

/** The model wants sides that are multiples of this (its feature pyramid halves the input five times). */
const SIDE_MULTIPLE = 32;

/**
 * The size the detector reads an image at: scaled so its longer side is at most `maxSide` (never enlarged), each
 * side rounded to a multiple of 32.
 */
export function detectionSize(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  const round = (side: number): number =>
    Math.max(SIDE_MULTIPLE, Math.round((side * scale) / SIDE_MULTIPLE) * SIDE_MULTIPLE);
  return { width: round(width), height: round(height) };
}

/**
 * Boxes of the text regions of a probability map of `width` x `height` (row-major), in the map's pixels, in no
 * particular order. Regions are 8-connected.
 */
export function boxesFromProbabilities(
  probs: ArrayLike<number>,
  width: number,
  height: number,
  options: Partial<typeof DB_POSTPROCESS> = {},
): DetectedBox[] {
  const { threshold, boxThreshold, unclipRatio, minSide } = { ...DB_POSTPROCESS, ...options };
  const label = new Int32Array(width * height);
  const stack: number[] = [];
  const boxes: DetectedBox[] = [];
  let next = 0;
  for (let start = 0; start < width * height; start++) {
    if (label[start] !== 0 || !(probs[start]! > threshold)) continue;
    next++;
    label[start] = next;
    stack.push(start);
    let [left, top, right, bottom] = [width, height, -1, -1];
    let sum = 0;
    let count = 0;
    while (stack.length > 0) {
      const at = stack.pop()!;
      const x = at % width;
      const y = (at - x) / width;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
      sum += probs[at]!;
      count++;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const n = ny * width + nx;
          if (label[n] === 0 && probs[n]! > threshold) {
            label[n] = next;
            stack.push(n);
          }
        }
      }
    }
    const w = right - left + 1;
    const h = bottom - top + 1;
    const score = sum / count;
    if (Math.min(w, h) < minSide || score < boxThreshold) continue;
    const grow = (w * h * unclipRatio) / (2 * (w + h));
    boxes.push({
      left: Math.max(0, Math.floor(left - grow)),
      top: Math.max(0, Math.floor(top - grow)),
      right: Math.min(width, Math.ceil(right + 1 + grow)),
      bottom: Math.min(height, Math.ceil(bottom + 1 + grow)),
      score,
    });
  }
  return boxes;
}

/** ImageNet mean and deviation per channel, as the detector was trained (BGR order; a grey pixel is the same in each). */
const MEAN = [0.406, 0.456, 0.485];
const STD = [0.225, 0.224, 0.229];

/** The detector's input tensor (1 x 3 x height x width) for grey pixels: each channel normalised as trained. */
export function detectionInput(pixels: Uint8Array, width: number, height: number): Float32Array {
  const plane = width * height;
  const data = new Float32Array(3 * plane);
  for (let c = 0; c < 3; c++) {
    const mean = MEAN[c]!;
    const std = STD[c]!;
    for (let i = 0; i < plane; i++) data[c * plane + i] = ((pixels[i] ?? 255) / 255 - mean) / std;
  }
  return data;
}
