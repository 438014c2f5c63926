/**
 * The two frames of a page read turned (a scan lying sideways or upside down, Page.rotation): the page as uploaded,
 * which the result's boxes are ratios of (spec) and which page images show, and the page upright, which the
 * Document's words, lines and size are in so that extraction reads rows left to right and top to bottom.
 *
 * The upright frame is the uploaded page turned `rotation` degrees clockwise about its centre, its sides swapped when
 * the turn is nearer a quarter or three quarters than none or a half, and not grown to hold turned corners. The
 * Document turns pages by quarter and half turns only (exact: a box stays a box); the functions hold for any angle
 * (OCR reads a skewed page levelled, orientation-engine.ts, and its boxes are grouped into lines upright).
 *
 * Pure geometry: every function is a rotation about the frames' centres.
 */
import type { Box } from "./model.js";

interface Size {
  width: number;
  height: number;
}

/** True when a clockwise turn of `degrees` lies nearer 90 or 270 than 0 or 180: the upright page's sides swap. */
export function swapsSides(degrees: number): boolean {
  const quarter = Math.round(degrees / 90);
  return ((quarter % 2) + 2) % 2 === 1;
}

/** The quarter or half turn nearest a clockwise turn of `degrees`: 0, 90, 180 or 270. */
export function quarterTurn(degrees: number): 0 | 90 | 180 | 270 {
  return ((((Math.round(degrees / 90) % 4) + 4) % 4) * 90) as 0 | 90 | 180 | 270;
}

/** Size of the upright frame of a page of `size` read turned `degrees` clockwise. */
export function uprightSize(size: Size, degrees: number): Size {
  return swapsSides(degrees) ? { width: size.height, height: size.width } : { width: size.width, height: size.height };
}

/** Size of the page as uploaded of an upright frame of `size` read turned `degrees` (uprightSize undone). */
export function uploadedSize(size: Size, degrees: number): Size {
  return uprightSize(size, degrees);
}

const clamp01 = (v: number): number => Math.min(1, Math.max(0, v));

/**
 * A box in ratios of the image turned `degrees` clockwise about its centre (`rotated`, any size centred on the same
 * point, e.g. grown to hold the turned page) as the box in ratios of the image as given (`original`) that holds it,
 * clipped to the page.
 */
export function boxBeforeRotation(box: Box, degrees: number, original: Size, rotated: Size): Box {
  const a = (-degrees * Math.PI) / 180;
  const sin = Math.sin(a);
  const cos = Math.cos(a);
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [rx, ry] of [
    [box.x0, box.y0],
    [box.x1, box.y0],
    [box.x0, box.y1],
    [box.x1, box.y1],
  ] as const) {
    const dx = rx * rotated.width - rotated.width / 2;
    const dy = ry * rotated.height - rotated.height / 2;
    xs.push((dx * cos - dy * sin + original.width / 2) / original.width);
    ys.push((dx * sin + dy * cos + original.height / 2) / original.height);
  }
  return {
    x0: clamp01(Math.min(...xs)),
    y0: clamp01(Math.min(...ys)),
    x1: clamp01(Math.max(...xs)),
    y1: clamp01(Math.max(...ys)),
  };
}

/**
 * The box, in pixels about the page's centre in an upright frame, of a word that lies in `box` (ratios of a `size`
 * page) on a page read turned `degrees` clockwise: boxBeforeRotation undone (its box holds the word's turned box; the
 * word's own width and height are solved back from it).
 */
export function uprightBox(box: Box, degrees: number, size: Size): Box {
  const a = (degrees * Math.PI) / 180;
  const sin = Math.sin(a);
  const cos = Math.cos(a);
  const dx = ((box.x0 + box.x1) / 2 - 0.5) * size.width;
  const dy = ((box.y0 + box.y1) / 2 - 0.5) * size.height;
  const x = dx * cos - dy * sin;
  const y = dx * sin + dy * cos;
  const outerW = (box.x1 - box.x0) * size.width;
  const outerH = (box.y1 - box.y0) * size.height;
  // outerW = w|cos| + h|sin|, outerH = w|sin| + h|cos|: solved for the word's w and h, or (a box clipped at the
  // page's edge) the outer box taken as a quarter turn would take it.
  const c = Math.abs(cos);
  const s = Math.abs(sin);
  const det = c * c - s * s;
  let w = (c * outerW - s * outerH) / det;
  let h = (c * outerH - s * outerW) / det;
  if (!(w > 0 && h > 0)) [w, h] = c >= s ? [outerW, outerH] : [outerH, outerW];
  return { x0: x - w / 2, y0: y - h / 2, x1: x + w / 2, y1: y + h / 2 };
}

/** A word's box on the page as uploaded (ratios of `size`) as a box in ratios of the upright frame, clipped to it. */
export function boxOnUpright(box: Box, degrees: number, size: Size): Box {
  const frame = uprightSize(size, degrees);
  const b = uprightBox(box, degrees, size);
  const x = (v: number): number => clamp01(v / frame.width + 0.5);
  const y = (v: number): number => clamp01(v / frame.height + 0.5);
  return { x0: x(b.x0), y0: y(b.y0), x1: x(b.x1), y1: y(b.y1) };
}

/**
 * A box in ratios of a page's frame (the Document's: upright when the page was read turned) as the box in ratios of
 * the page as uploaded that holds it. `page.rotation` absent or 0: the box as it is.
 */
export function boxAsUploaded(box: Box, page: { width: number; height: number; rotation?: number }): Box {
  const degrees = page.rotation ?? 0;
  if (degrees % 360 === 0 || !(page.width > 0 && page.height > 0)) return box;
  return boxBeforeRotation(box, degrees, uploadedSize(page, degrees), page);
}
