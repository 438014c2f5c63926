/**
 * Pictures out of an office page before OCR (issue #16): a QR code, a barcode or a dense logo is read by tesseract as
 * garbage words (and by the line re-reader as CJK characters) that join the text lines beside it, so an address block
 * beside a "scan to pay" QR code loses its lines. Pure: grey pixels in, grey pixels out, the same image when nothing
 * was found.
 *
 * A picture is ink far denser than text's over an area several text lines tall and wide, without text's structure:
 * 1. Cells about half a tall stroke wide whose neighbourhood is DENSE_CELL inked are joined into blobs; text, even
 *    bold, is too sparse, and a QR code's quiet zone keeps the text beside it out of its blob.
 * 2. A blob is cut at the rows where its ink falls to a trough (GAP_SHARE of its usual row, or a solid row: the white
 *    or dark leading between lines of text, black on white or white on a dark band) and at blank columns at least a
 *    tall stroke wide (the gap beside a word), so lines of text come apart into pieces a line tall.
 * 3. A piece at least MIN_GLYPHS tall strokes tall and wide and DENSE_PIECE inked is a picture when its ink changes
 *    often both ways (a 2-D code, a photograph's texture: at least MIN_TRANSITIONS along most rows and columns; a line
 *    of letters crosses at most three or four strokes down a column) or, for a barcode, along its rows while most of
 *    its columns are all ink or all paper (BAR_COLUMNS).
 * A picture's box, and a HALO of its blurred edge, becomes paper.
 */
import { median } from "../../document/median.js";
import type { GreyImage } from "../pgm.js";
import { HALO, isOfficePage, pageInk, removeRules } from "./rule-removal.js";

/** A cell's neighbourhood (3 x 3 cells) at least this share ink is part of a blob. */
const DENSE_CELL = 0.3;
/** A picture is at least this many tall strokes (the text's capitals) tall and wide... */
const MIN_GLYPHS = 3;
/** ...and at least this share ink. */
const DENSE_PIECE = 0.3;
/** A row with under this share of a blob's median row ink is a trough: the leading between lines of text. */
const GAP_SHARE = 0.25;
/** A row of a blob at least this share ink is solid: the dark leading between lines of white text on a band. */
const SOLID_ROW = 0.97;
/**
 * Blank columns this many tall strokes wide part a blob's pieces: wider than a barcode's widest space (4 modules),
 * narrower than a printed code's quiet zone.
 */
const BLANK_GLYPHS = 2;
/** Ink/paper changes along most rows and columns of a 2-D code (at least two per module pair: 21 modules or more). */
const MIN_TRANSITIONS = 8;
/** Runs shorter than this share of a tall stroke (at least 2 pixels) are speckle, not a module or a bar. */
const MIN_RUN_SHARE = 0.15;
/** A column with under this share, or over 1 - this share, of ink is one of a barcode's bars or spaces. */
const BAR_SHARE = 0.2;
/** Share of a barcode's columns that are bars or spaces. */
const BAR_COLUMNS = 0.8;

/** A rectangle of the page, pixels: [x0, x1) x [y0, y1). */
export interface PictureBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** What removePictures found and the image it gives. */
export interface PictureRemoval {
  /** The page with its pictures turned to paper; `image` itself when none were found. */
  image: GreyImage;
  /** The boxes whitened (before their halo). */
  pictures: PictureBox[];
}

/** Ink pixels of `mask` in a box. */
function inkIn(mask: Uint8Array, width: number, box: PictureBox): number {
  let n = 0;
  for (let y = box.y0; y < box.y1; y++) {
    const row = y * width;
    for (let x = box.x0; x < box.x1; x++) n += mask[row + x] ?? 0;
  }
  return n;
}

/**
 * Blobs of dense ink: bounding boxes, pixels, of the 8-connected cells (`cell` pixels square) whose 3 x 3 neighbourhood
 * is at least DENSE_CELL ink, with one cell of margin.
 */
function denseBlobs(mask: Uint8Array, width: number, height: number, cell: number): PictureBox[] {
  const cols = Math.ceil(width / cell);
  const rows = Math.ceil(height / cell);
  const counts = new Uint32Array(cols * rows);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const cy = ((y / cell) | 0) * cols;
    for (let x = 0; x < width; x++) {
      if (!mask[row + x]) continue;
      const i = cy + ((x / cell) | 0);
      counts[i] = (counts[i] ?? 0) + 1;
    }
  }
  const dense = new Uint8Array(cols * rows);
  const least = DENSE_CELL * 9 * cell * cell;
  for (let r = 1; r < rows - 1; r++)
    for (let c = 1; c < cols - 1; c++) {
      let n = 0;
      for (let dr = -1; dr <= 1; dr++) for (let dc = -1; dc <= 1; dc++) n += counts[(r + dr) * cols + c + dc] ?? 0;
      if (n >= least) dense[r * cols + c] = 1;
    }
  const blobs: PictureBox[] = [];
  const stack: number[] = [];
  for (let start = 0; start < dense.length; start++) {
    if (dense[start] !== 1) continue;
    dense[start] = 2;
    stack.push(start);
    let [c0, c1, r0, r1] = [cols, -1, rows, -1];
    while (stack.length > 0) {
      const i = stack.pop() ?? 0;
      const r = (i / cols) | 0;
      const c = i - r * cols;
      c0 = Math.min(c0, c);
      c1 = Math.max(c1, c);
      r0 = Math.min(r0, r);
      r1 = Math.max(r1, r);
      for (let dr = -1; dr <= 1; dr++)
        for (let dc = -1; dc <= 1; dc++) {
          const rr = r + dr;
          const cc = c + dc;
          if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) continue;
          const j = rr * cols + cc;
          if (dense[j] !== 1) continue;
          dense[j] = 2;
          stack.push(j);
        }
    }
    blobs.push({
      x0: Math.max(0, (c0 - 1) * cell),
      x1: Math.min(width, (c1 + 2) * cell),
      y0: Math.max(0, (r0 - 1) * cell),
      y1: Math.min(height, (r1 + 2) * cell),
    });
  }
  return blobs;
}

/**
 * `blobs` with those less than `gap` pixels apart (both ways) joined into one box: a barcode's stretch of thin bars
 * and wide spaces is too sparse for DENSE_CELL, and parts it.
 */
function joined(blobs: PictureBox[], gap: number): PictureBox[] {
  const boxes = blobs.map((b) => ({ ...b }));
  for (let merged = true; merged; ) {
    merged = false;
    for (let i = 0; i < boxes.length; i++)
      for (let j = boxes.length - 1; j > i; j--) {
        const a = boxes[i];
        const b = boxes[j];
        if (!a || !b) continue;
        if (b.x0 - a.x1 >= gap || a.x0 - b.x1 >= gap || b.y0 - a.y1 >= gap || a.y0 - b.y1 >= gap) continue;
        boxes[i] = {
          x0: Math.min(a.x0, b.x0),
          y0: Math.min(a.y0, b.y0),
          x1: Math.max(a.x1, b.x1),
          y1: Math.max(a.y1, b.y1),
        };
        boxes.splice(j, 1);
        merged = true;
      }
  }
  return boxes;
}

/** Runs [from, to) of the indices in [0, n) where `keep` holds. */
function runs(n: number, keep: (i: number) => boolean): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= n; i++) {
    if (i < n && keep(i)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push([start, i]);
      start = -1;
    }
  }
  return out;
}

/**
 * The pieces of `blob` (step 2 of the file's comment): its rows cut at troughs and solid rows, each band's columns cut
 * at blank runs `blank` pixels wide or wider, each piece trimmed to its ink.
 */
function piecesOf(mask: Uint8Array, width: number, blob: PictureBox, blank: number): PictureBox[] {
  const w = blob.x1 - blob.x0;
  const rowInk: number[] = [];
  for (let y = blob.y0; y < blob.y1; y++) rowInk.push(inkIn(mask, width, { ...blob, y0: y, y1: y + 1 }));
  const usual = median(rowInk.filter((n) => n > 0));
  const bands = runs(rowInk.length, (i) => {
    const n = rowInk[i] ?? 0;
    return n >= GAP_SHARE * usual && n < SOLID_ROW * w;
  });
  const pieces: PictureBox[] = [];
  for (const [from, to] of bands) {
    const band = { ...blob, y0: blob.y0 + from, y1: blob.y0 + to };
    const colInk: number[] = [];
    for (let x = band.x0; x < band.x1; x++) colInk.push(inkIn(mask, width, { ...band, x0: x, x1: x + 1 }));
    // Blank runs narrower than `blank` (a barcode's spaces, a QR code's white modules) stay within the piece.
    let x = 0;
    while (x < colInk.length) {
      while (x < colInk.length && colInk[x] === 0) x++;
      if (x >= colInk.length) break;
      const start = x;
      let end = x;
      let blankRun = 0;
      for (; x < colInk.length && blankRun < blank; x++) {
        if (colInk[x] === 0) blankRun++;
        else {
          blankRun = 0;
          end = x + 1;
        }
      }
      pieces.push({ x0: band.x0 + start, x1: band.x0 + end, y0: band.y0, y1: band.y1 });
    }
  }
  return pieces;
}

/**
 * Ink/paper changes along the row (or column) of `mask` from `start`, `n` pixels `step` apart, counting only runs at
 * least `minRun` long: the speckle of dithered or noisy print is not a module's edge.
 */
function transitions(mask: Uint8Array, start: number, step: number, n: number, minRun: number): number {
  let changes = 0;
  let state = mask[start] ?? 0;
  let run = 0;
  for (let k = 1; k < n; k++) {
    if ((mask[start + k * step] ?? 0) === state) {
      run = 0;
      continue;
    }
    if (++run < minRun) continue;
    changes++;
    state = 1 - state;
    run = 0;
  }
  return changes;
}

/** Whether `piece` is a picture (step 3 of the file's comment). */
function isPicture(mask: Uint8Array, width: number, piece: PictureBox, stroke: number): boolean {
  const w = piece.x1 - piece.x0;
  const h = piece.y1 - piece.y0;
  if (w < MIN_GLYPHS * stroke || h < MIN_GLYPHS * stroke) return false;
  if (inkIn(mask, width, piece) < DENSE_PIECE * w * h) return false;
  const minRun = Math.max(2, Math.round(MIN_RUN_SHARE * stroke));
  const along: number[] = [];
  for (let y = piece.y0; y < piece.y1; y++) along.push(transitions(mask, y * width + piece.x0, 1, w, minRun));
  if (median(along) < MIN_TRANSITIONS) return false;
  const down: number[] = [];
  let bars = 0;
  for (let x = piece.x0; x < piece.x1; x++) {
    down.push(transitions(mask, piece.y0 * width + x, width, h, minRun));
    const share = inkIn(mask, width, { ...piece, x0: x, x1: x + 1 }) / h;
    if (share < BAR_SHARE || share > 1 - BAR_SHARE) bars++;
  }
  return median(down) >= MIN_TRANSITIONS || bars >= BAR_COLUMNS * w;
}

/** `image` with its pictures turned to paper (see the file's comment); the same image object when it has none. */
export function removePictures(image: GreyImage): PictureRemoval {
  const none: PictureRemoval = { image, pictures: [] };
  const ink = pageInk(image);
  if (!ink || ink.stroke === 0) return none;
  const { width, height } = image;
  const { mask, stroke, paper } = ink;
  const cell = Math.max(2, Math.round(stroke / 2));
  const pictures: PictureBox[] = [];
  for (const blob of joined(denseBlobs(mask, width, height, cell), BLANK_GLYPHS * stroke)) {
    if (blob.x1 - blob.x0 < MIN_GLYPHS * stroke || blob.y1 - blob.y0 < MIN_GLYPHS * stroke) continue;
    for (const piece of piecesOf(mask, width, blob, BLANK_GLYPHS * stroke))
      if (isPicture(mask, width, piece, stroke)) pictures.push(piece);
  }
  if (pictures.length === 0) return none;
  const out = Uint8Array.from(image.data);
  for (const { x0, y0, x1, y1 } of pictures)
    for (let y = Math.max(0, y0 - HALO); y < Math.min(height, y1 + HALO); y++)
      out.fill(paper, y * width + Math.max(0, x0 - HALO), y * width + Math.min(width, x1 + HALO));
  return { image: { width, height, data: out }, pictures };
}

/**
 * An upright, levelled page as tesseract should read it: an office page without its rules (rule-removal.ts) and then
 * its pictures (rules first: a ruled table's lines and the words in its cells are no picture, but together they can
 * be dense); any other page (a receipt) as it is, since fading thermal print loses strokes to the rule search
 * (receipts-dev F1 0.867 -> 0.855 with every page's rules out).
 */
export function officePageForOcr(page: GreyImage): GreyImage {
  if (!isOfficePage(page)) return page;
  return removePictures(removeRules(page).image).image;
}
