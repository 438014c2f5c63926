/**
 * How a page image lies: turned by a quarter or half turn (scanned sideways, upside down) and skewed by a few
 * degrees. Measured on the ink alone, in a few tens of milliseconds (30-150 ms on a receipt photo, under a tenth of
 * reading it with tesseract), so every page can afford it (tesseract's OSD,
 * `--psm 0`, took 0.6-0.8 s of CPU on a rendered A4 page: more than reading the page with `--psm 6`).
 *
 * - Direction of the lines and skew: the ink is projected onto rows for candidate angles; text lines give the
 *   sharpest profile (largest variance, alternating lines and gaps) when projected along them. Lines running down
 *   the page give a sharper profile on columns.
 * - Up or down: Latin text has more ascenders (b d f h k l t, capitals, digits) than descenders (g j p q y), so in
 *   each line more ink lies above the x-height band than below it; upside down it is the other way round. Upper-case
 *   text (receipts) has neither, and then nothing is turned.
 *
 * All angles are clockwise degrees in image coordinates (y down): the correction is the rotation that makes the
 * page upright, as sharp's `rotate` applies it.
 */
import { type GreyImage, greyLevelAt } from "../pgm.js";

export interface PageOrientation {
  /** Quarter or half turn that makes the page upright: 0, 90, 180 or 270 (clockwise). */
  turn: 0 | 90 | 180 | 270;
  /** Small rotation after the turn that levels the lines, within ±MAX_SKEW degrees (clockwise). */
  skew: number;
  /**
   * Up and down were told apart weakly (boxed forms printed mostly in capitals or italics): the page may lie a half
   * turn from `turn`, and a poor reading of it is worth checking against the half turn.
   */
  doubtful?: boolean;
}

export const UPRIGHT: PageOrientation = { turn: 0, skew: 0 };

/** Skew searched, each way (scans and photos of paper lie within a few degrees). */
export const MAX_SKEW = 6;
/**
 * The measured page's shorter side is this long at most: lines and x-heights survive, the work stays small. The
 * shorter side, so that a page measures the same whichever way it lies.
 */
const MEASURE_SIDE = 1200;
/** Ink must be this much darker than the paper (grey levels) for a page to be measured at all. */
const MIN_CONTRAST = 60;
/** Fewer ink pixels than this (a blank page, a few specks) are not measured. */
const MIN_INK = 2_000;
/**
 * At most this many ink pixels are projected (each of the ~70 candidate angles projects them all). 150 000 before:
 * on 42 pages (30 receipts-train photos, 12 invoices-dev pages at 200 dpi) turned each of 0/90/180/270, 60 000 found
 * the right turn on 125 of 168 (150 000: 123) and a wrong one on 8 (11), and the measure took about half the time.
 */
const MAX_INK = 60_000;
/**
 * Lines run down the page when the column profile is this much sharper than the row profile and the row profile is
 * flat (below SIDEWAYS_MAX_ACROSS): columns of a table or of fixed-width print on an upright page also make a sharp
 * column profile, but its rows stay sharp as well. On 370 receipt scans these two left 6 of 370 pages wrongly
 * turned (shadows at a scanner's edge) where the ratio alone left 139; a page turned wrongly is read twice, not lost.
 */
const SIDEWAYS_RATIO = 1.8;
const SIDEWAYS_MAX_ACROSS = 1.6;
/**
 * Or lines run down the page when its column profile is sharper by this much and, within tiles of TILE pixels, the
 * columns are sharper than the rows by TILED_SIDEWAYS_MARGIN (mean log sharpness). A boxed form or a two-column
 * layout gathers its ink into blocks, which sharpens the whole-page profile both ways (the ratio of a sideways form
 * fell to 1.6-1.7, under SIDEWAYS_RATIO); within a tile a block's edges are gone and text lines remain. Alone the
 * tiles misjudge dense fixed-width print (receipts: the characters' columns line up), hence both. On the
 * development pages (einvoices-dev, 40 synthetic invoices and receipts digital and scanned, 30 receipts-dev
 * photos; JPEG at 200 dpi) turned 90° and 270°, the first test alone found 142 of 262 sideways pages, both 228; of
 * the same pages upright, upside down and tilted ±3° (524) they took 4 and 6 for sideways (receipt photos tilted by
 * white-cornered rotation or beside a scanner's dithered shadow; a poor sideways reading has the page as uploaded
 * read too). Held out (invoices-dev, 40 receipts-train photos): 111 -> 134 of 154 sideways pages, none of 308 others.
 */
const TILED_SIDEWAYS_RATIO = 1.35;
const TILED_SIDEWAYS_MARGIN = 0.2;
const TILE = 64;
/** Tiles with less ink than this (measured pixels) are not scored. */
const MIN_TILE_INK = 30;
/** Below this many lines with a clear x-height band, up and down are not told apart. */
const MIN_LINES = 3;
/** Share of the ascender/descender ink by which descenders must win for the page to be upside down. */
const UPSIDE_DOWN_MARGIN = 0.15;
/** A balance nearer 0 than this tells up from down weakly: the measure is doubtful (PageOrientation.doubtful). */
const DOUBTFUL_BALANCE = 0.3;
/** Share of the lines' ink outside their x-height bands below which the print is taken for upper case. */
const MIN_OUTSIDE_BAND = 0.08;
/** Rows either side of a row in which its band's ink level is taken. */
const EDGE_WINDOW = 6;
/** A band's top or bottom: the ink changes by this share of the band's level across two rows. */
const EDGE_STEEPNESS = 0.35;
/** Rows beyond a band's edge where ascenders (above) and descenders (below) are counted, in band heights. */
const ZONE_NEAR = 0.15;
const ZONE_FAR = 0.45;

/** Ink pixels of a page image as coordinates of a smaller copy (every `step`-th pixel each way). */
interface Ink {
  xs: Float64Array;
  ys: Float64Array;
  width: number;
  height: number;
}

/** Side of the cells (measured pixels) whose ink share decides whether they hold print or a solid area. */
const CELL = 24;
/**
 * Cells inkier than this are solid (a scanner's shadow, a photo's background, a logo) rather than print, and are
 * left out: their mass would outweigh the lines of text.
 */
const MAX_CELL_INK = 0.45;
/**
 * Ink running this far (measured pixels, about 1 cm on an A4 page) without a break along a row or column is a rule
 * or a box edge, not a letter: left out, since a table's rules would otherwise pass for lines or x-height bands.
 */
const RULE_RUN = 80;

/** Marks, in a width x height mask, the runs of set pixels along one axis that are RULE_RUN or longer. */
function markRuns(mask: Uint8Array, width: number, height: number, alongX: boolean, rules: Uint8Array): void {
  const [lines, length] = alongX ? [height, width] : [width, height];
  // Pixel (line, k) is at first + k * stride.
  const stride = alongX ? 1 : width;
  for (let line = 0; line < lines; line++) {
    const first = alongX ? line * width : line;
    let start = -1;
    for (let k = 0; k <= length; k++) {
      const set = k < length && mask[first + k * stride] === 1;
      if (set && start < 0) start = k;
      if (set || start < 0) continue;
      if (k - start >= RULE_RUN) for (let j = start; j < k; j++) rules[first + j * stride] = 1;
      start = -1;
    }
  }
}

function inkOf(image: GreyImage): Ink | null {
  const step = Math.max(1, Math.ceil(Math.min(image.width, image.height) / MEASURE_SIDE));
  const width = Math.floor(image.width / step);
  const height = Math.floor(image.height / step);
  // The smaller copy, taken once (every `step`-th pixel each way).
  const small = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * step * image.width;
    for (let x = 0; x < width; x++) small[y * width + x] = image.data[row + x * step]!;
  }
  const histogram = new Uint32Array(256);
  for (let i = 0; i < small.length; i++) histogram[small[i]!]!++;
  const total = width * height;
  const paper = greyLevelAt(histogram, total, 0.9);
  // A sparse page (a letterhead, a few lines) has well under 1 % ink.
  const dark = greyLevelAt(histogram, total, 0.001);
  if (paper - dark < MIN_CONTRAST) return null;
  // Grey levels are whole numbers: below the midway level is below its ceiling, a comparison of integers.
  const threshold = Math.ceil((paper + dark) / 2);
  const cellsX = Math.ceil(width / CELL);
  const cellInk = new Uint32Array(cellsX * Math.ceil(height / CELL));
  const cellOf = new Uint32Array(width);
  for (let x = 0; x < width; x++) cellOf[x] = Math.floor(x / CELL);
  const mask = new Uint8Array(total);
  for (let y = 0; y < height; y++) {
    const cellRow = Math.floor(y / CELL) * cellsX;
    for (let x = 0, i = y * width; x < width; x++, i++)
      if (small[i]! < threshold) {
        mask[i] = 1;
        cellInk[cellRow + cellOf[x]!]!++;
      }
  }
  const rules = new Uint8Array(total);
  markRuns(mask, width, height, true, rules);
  markRuns(mask, width, height, false, rules);
  const solidInk = MAX_CELL_INK * CELL * CELL;
  let count = 0;
  for (let y = 0; y < height; y++) {
    const cellRow = Math.floor(y / CELL) * cellsX;
    for (let x = 0, i = y * width; x < width; x++, i++) {
      if (mask[i] === 0) continue;
      if (rules[i] === 1 || cellInk[cellRow + cellOf[x]!]! > solidInk) mask[i] = 0;
      else count++;
    }
  }
  if (count < MIN_INK) return null;
  const keepEvery = Math.ceil(count / MAX_INK);
  const xs = new Float64Array(Math.ceil(count / keepEvery));
  const ys = new Float64Array(xs.length);
  let seen = 0;
  let n = 0;
  for (let y = 0; y < height; y++)
    for (let x = 0, i = y * width; x < width; x++, i++) {
      if (mask[i] === 0 || seen++ % keepEvery !== 0 || n >= xs.length) continue;
      xs[n] = x;
      ys[n] = y;
      n++;
    }
  return { xs: xs.subarray(0, n), ys: ys.subarray(0, n), width, height };
}

/** Rows the ink falls on after turning the page `degrees` clockwise about its centre: one bin per pixel. */
function rowProfile(ink: Ink, degrees: number): Float64Array {
  const a = (degrees * Math.PI) / 180;
  const sin = Math.sin(a);
  const cos = Math.cos(a);
  const cx = ink.width / 2;
  const cy = ink.height / 2;
  const span = Math.ceil(Math.hypot(ink.width, ink.height)) + 2;
  const profile = new Float64Array(span);
  const offset = span / 2;
  const base = offset - cx * sin - cy * cos;
  // Never negative (the offset is half the diagonal), so truncating is flooring.
  for (let i = 0; i < ink.xs.length; i++) profile[(ink.xs[i]! * sin + ink.ys[i]! * cos + base) | 0]!++;
  return profile;
}

/**
 * Sharpness of a profile: the sum of squared bin counts relative to the same ink spread evenly over the profile's
 * extent (1 for even ink, more the more it gathers into lines). Relative to the extent, so that the profile across
 * a narrow receipt (fewer bins, each fuller) does not win by its shape alone.
 */
function sharpness(profile: Float64Array): number {
  let sum = 0;
  let total = 0;
  let first = -1;
  let last = -1;
  for (let i = 0; i < profile.length; i++) {
    const v = profile[i]!;
    if (v === 0) continue;
    if (first < 0) first = i;
    last = i;
    sum += v * v;
    total += v;
  }
  return total === 0 ? 0 : (sum * (last - first + 1)) / (total * total);
}

/**
 * Sharpness of the row profiles of square tiles of the page turned `degrees`: the mean over tiles, by their ink, of
 * the log of each tile's sharpness (as `sharpness`, over the tile's height). Text lines make each tile's rows
 * alternate between ink and gaps whatever the layout; a block of a form or a column of text only does so on the
 * whole page.
 */
function tiledSharpness(ink: Ink, degrees: number): number {
  const a = (degrees * Math.PI) / 180;
  const sin = Math.sin(a);
  const cos = Math.cos(a);
  const cx = ink.width / 2;
  const cy = ink.height / 2;
  const half = (Math.ceil(Math.hypot(ink.width, ink.height)) + 2) / 2;
  const across = Math.ceil((2 * half) / TILE);
  const rows = new Map<number, Float64Array>();
  for (let i = 0; i < ink.xs.length; i++) {
    const x = ink.xs[i]! - cx;
    const y = ink.ys[i]! - cy;
    // The point on the turned page, shifted onto positive coordinates (half the diagonal).
    const row = y * cos + x * sin + half;
    const column = x * cos - y * sin + half;
    const key = Math.floor(row / TILE) * across + Math.floor(column / TILE);
    let profile = rows.get(key);
    if (!profile) {
      profile = new Float64Array(TILE);
      rows.set(key, profile);
    }
    profile[Math.floor(row) % TILE]!++;
  }
  let sum = 0;
  let weight = 0;
  for (const profile of rows.values()) {
    let total = 0;
    let squares = 0;
    for (const v of profile) {
      total += v;
      squares += v * v;
    }
    if (total < MIN_TILE_INK) continue;
    sum += total * Math.log((squares * TILE) / (total * total));
    weight += total;
  }
  return weight === 0 ? 0 : sum / weight;
}

/** The angle near `base` (within ±MAX_SKEW) whose row profile is sharpest: a coarse pass, then a fine one. */
function levelAngle(ink: Ink, base: number): { angle: number; score: number } {
  let best = { angle: base, score: sharpness(rowProfile(ink, base)) };
  const search = (from: number, to: number, step: number): void => {
    for (let a = from; a <= to + 1e-9; a += step) {
      const score = sharpness(rowProfile(ink, base + a));
      if (score > best.score) best = { angle: base + a, score };
    }
  };
  search(-MAX_SKEW, MAX_SKEW, 0.5);
  const coarse = best.angle - base;
  search(coarse - 0.4, coarse + 0.4, 0.1);
  return best;
}

/**
 * The balance with lines cut where the profile is (nearly) empty: each line's x-height band is its rows holding at
 * least half its fullest row's ink.
 */
function lineBalance(profile: Float64Array): number | undefined {
  let peak = 0;
  for (const v of profile) peak = Math.max(peak, v);
  let above = 0;
  let below = 0;
  let inLines = 0;
  let lines = 0;
  let start = -1;
  for (let i = 0; i <= profile.length; i++) {
    const inLine = i < profile.length && profile[i]! > 0.05 * peak;
    if (inLine && start < 0) start = i;
    if (inLine || start < 0) continue;
    const end = i;
    if (end - start >= 6) {
      let lineMax = 0;
      for (let k = start; k < end; k++) {
        lineMax = Math.max(lineMax, profile[k]!);
        inLines += profile[k]!;
      }
      let coreStart = start;
      while (profile[coreStart]! < 0.5 * lineMax) coreStart++;
      let coreEnd = end - 1;
      while (profile[coreEnd]! < 0.5 * lineMax) coreEnd--;
      for (let k = start; k < coreStart; k++) above += profile[k]!;
      for (let k = coreEnd + 1; k < end; k++) below += profile[k]!;
      lines++;
    }
    start = -1;
  }
  // Upper-case print (most receipts) has next to no ink outside the band: nothing to tell up from down.
  if (lines < MIN_LINES || above + below < MIN_OUTSIDE_BAND * inLines) return undefined;
  return (above - below) / (above + below);
}

/**
 * Ink above minus ink below the x-height band of the lines, as a share of both, in the profile of rows of the
 * levelled page (positive: upright Latin text; upper-case print, most receipts, has next to no ink outside the band
 * and gives undefined, as do pages with too few lines). Two measures of it, each blind where the other sees: cutting
 * the profile into lines fails on tight tables (no empty row between lines), finding bands by their edges reads
 * large print weakly. Their mean, or the one that sees.
 */
export function ascenderBalance(profile: Float64Array): number | undefined {
  const seen = [lineBalance(profile), edgeBalance(profile)].filter((b): b is number => b !== undefined);
  return seen.length === 0 ? undefined : seen.reduce((sum, b) => sum + b, 0) / seen.length;
}

/**
 * The balance with bands found by their edges, not by cutting the profile into lines (tight tables leave no empty
 * row between lines): the top of a band is a row where the ink rises steeply, its bottom a row where it falls
 * steeply; the rows a little above a rise hold ascenders, those a little below a fall descenders.
 */
function edgeBalance(profile: Float64Array): number | undefined {
  const at = (i: number): number => profile[i] ?? 0;
  const localMax = (i: number): number => {
    let m = 0;
    for (let k = i - EDGE_WINDOW; k <= i + EDGE_WINDOW; k++) m = Math.max(m, at(k));
    return m;
  };
  const rises: number[] = [];
  const falls: number[] = [];
  let inBands = 0;
  for (let i = EDGE_WINDOW; i < profile.length - EDGE_WINDOW; i++) {
    const change = at(i + 1) - at(i - 1);
    const steep = EDGE_STEEPNESS * localMax(i);
    if (steep <= 0) continue;
    if (change >= steep && change >= at(i + 2) - at(i) && change > at(i) - at(i - 2)) rises.push(i);
    else if (-change >= steep && -change >= at(i - 2) - at(i) && -change > at(i) - at(i + 2)) falls.push(i);
    else continue;
    inBands += localMax(i);
  }
  // The band's height (rise to the next fall) sets how far from its edges ascenders and descenders are counted.
  const heights: number[] = [];
  let f = 0;
  for (const r of rises) {
    while (f < falls.length && falls[f]! <= r) f++;
    if (f < falls.length) heights.push(falls[f]! - r);
  }
  if (rises.length < MIN_LINES || falls.length < MIN_LINES || heights.length === 0) return undefined;
  const band = heights.sort((a, b) => a - b)[heights.length >> 1]!;
  const near = Math.max(1, Math.round(ZONE_NEAR * band));
  const far = Math.max(near + 1, Math.round(ZONE_FAR * band));
  let above = 0;
  let below = 0;
  for (const r of rises) for (let k = r - far; k <= r - near; k++) above += at(k);
  for (const fall of falls) for (let k = fall + near; k <= fall + far; k++) below += at(k);
  if (above + below < MIN_OUTSIDE_BAND * inBands) return undefined;
  return (above - below) / (above + below);
}

/** How the page in `image` lies (UPRIGHT when it cannot tell: blank, too faint, no lines). */
export function measureOrientation(image: GreyImage): PageOrientation {
  const ink = inkOf(image);
  if (!ink) return UPRIGHT;
  const across = levelAngle(ink, 0);
  const down = levelAngle(ink, 90);
  const downBalance = ascenderBalance(rowProfile(ink, down.angle));
  const sideways =
    (down.score > SIDEWAYS_RATIO * across.score &&
      (across.score < SIDEWAYS_MAX_ACROSS || Math.abs(downBalance ?? 0) > UPSIDE_DOWN_MARGIN)) ||
    (down.score > TILED_SIDEWAYS_RATIO * across.score &&
      tiledSharpness(ink, down.angle) - tiledSharpness(ink, across.angle) > TILED_SIDEWAYS_MARGIN);
  const level = sideways ? down : across;
  const balance = sideways ? downBalance : ascenderBalance(rowProfile(ink, level.angle));
  const flip = balance !== undefined && balance < -UPSIDE_DOWN_MARGIN;
  const base = sideways ? 90 : 0;
  const turn = ((base + (flip ? 180 : 0)) % 360) as PageOrientation["turn"];
  const skew = Math.round((level.angle - base) * 10) / 10;
  return balance !== undefined && Math.abs(balance) < DOUBTFUL_BALANCE
    ? { turn, skew, doubtful: true }
    : { turn, skew };
}

/** The clockwise rotation in degrees that makes the page upright. */
export function correction(orientation: PageOrientation): number {
  return orientation.turn + orientation.skew;
}

/** The geometry of boxes on a turned page lives with the page model, which records the turn (Page.rotation). */
export { boxBeforeRotation, uprightBox } from "../../document/page-frame.js";
