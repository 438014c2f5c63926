/**
 * Ruling lines and shaded bands out of a page image before OCR (issue #16): a table drawn with ruled cells and a grey
 * header band loses words to tesseract (the column titles beside the rules, figures inside ruled cells). Pure: grey
 * pixels in, grey pixels out, the same image when nothing was found.
 *
 * A rule is a run of ink, along a row (or a column), much longer than any glyph stroke: longer than RULE_LENGTH_*
 * of the page's width (vertical ones also RULE_HEIGHT_V of its height) and than RULE_GLYPHS tall strokes of its
 * text, and thin across (RULE_MAX_THICKNESS). Each row is searched together with its neighbours (SKEW_ROWS), so a
 * rule tilted by what levelling leaves (under half a degree) still reads as one run, and it is then followed from
 * position to position past the ends of that run. Where the ink across a rule is much thicker than the rule, a glyph
 * crosses it there, and those pixels are kept. Pages without a horizontal rule are left as they are. With `shading`,
 * light grey (a shaded band, at most SHADE_DEPTH of the way from the paper to the ink) becomes paper too.
 *
 * Measured 2026-11-27 (bench/ocr-rules.ts: scans made as bench/scan-invoices.ts makes them, each page read by ingest's
 * engine as it is and with its rules out; share of the born-digital PDF's words found; tesseract is noisy page by
 * page, so compare totals): einvoices-dev (in sample: the rules' thresholds were looked at on its pages) 0.738 ->
 * 0.805 of 5440 words with the rules out, 0.781 with the shading flattened too; invoices-dev (out of sample) 0.899 ->
 * 0.897 of 5262; receipts-dev (bench/ocr-variants.ts, crop-noinvert-reread against crop-noinvert-lines-reread) F1
 * 0.867 -> 0.855, and 0.783 with the shading flattened (faint thermal print fades). Extraction on the scans (bench/scan-invoices.ts, same tree both ways): einvoices-dev F1 0.661 -> 0.690,
 * invoices-dev 0.912 -> 0.903. Not a gain out of sample, so ingest does not remove rules by default
 * (orientation-engine.ts's `prepare`); CPU about 45-50 ms per 200 dpi page (4 Mpx) against 1.5-2.5 s of OCR.
 */
import { type GreyImage, greyLevelAt } from "../pgm.js";

/** A horizontal rule is at least this share of the page's width long... */
const RULE_LENGTH_H = 0.1;
/**
 * ...a vertical one this share of the page's width and RULE_HEIGHT_V of its height: the columns of a table span its
 * rows, while the tallest glyphs (a receipt's double-height totals) stand well under this.
 */
const RULE_LENGTH_V = 0.035;
const RULE_HEIGHT_V = 0.04;
/** ...and both at least this many times the height of the text's tall strokes (ascenders, capitals). */
const RULE_GLYPHS = 2.5;
/** Rows (columns) on each side searched with each one: a rule tilted 0.5° drifts a row every 115 pixels. */
const SKEW_ROWS = 1;
/** Gaps in a rule's run this long (sensor noise, JPEG) are bridged. */
const MAX_GAP = 2;
/** A rule is at most this share of the page's width thick (about 5 px at 200 dpi)... */
const RULE_MAX_THICKNESS = 0.0032;
/** ...and at least this many pixels. */
const MIN_MAX_THICKNESS = 4;
/** Share of a run's positions that must be thin across for it to be a rule (text merged by blur is not). */
const THIN_SHARE = 0.75;
/** Ink of a glyph across a rule is this many pixels thicker than the rule: kept. */
const CROSSING_MARGIN = 2;
/** Pixels on each side of a rule's ink also whitened: its blurred edge, lighter than ink but darker than paper. */
const HALO = 2;
/** Ink is darker than this share of the way from the paper to the darkest ink. */
const INK_SHARE = 0.5;
/** Shading is lighter than this share of the way from the paper to the darkest ink. */
const SHADE_DEPTH = 0.3;
/** A vertical ink run this long or longer is not a glyph stroke (for the tall-stroke estimate). */
const MAX_STROKE_SHARE = 0.03;

/** What removeRules found and the image it gives. */
export interface RuleRemoval {
  /** The page without its rules (and shading); `image` itself when none were found. */
  image: GreyImage;
  /** Rules whitened: horizontal, vertical. */
  horizontal: number;
  vertical: number;
}

/** Paper and ink levels of a page: the 90th and 0.5th percentile greys. */
function levels(data: Uint8Array): { paper: number; ink: number } {
  const histogram = new Uint32Array(256);
  // Every 4th pixel: the levels are the same to a grey level or two, at a quarter of the cost.
  for (let i = 0; i < data.length; i += 4) {
    const v = data[i] ?? 0;
    histogram[v] = (histogram[v] ?? 0) + 1;
  }
  const n = Math.ceil(data.length / 4);
  return { paper: greyLevelAt(histogram, n, 0.9), ink: greyLevelAt(histogram, n, 0.005) };
}

/**
 * Height of the text's tall strokes: the 90th percentile length of the vertical ink runs no longer than a glyph could
 * be (MAX_STROKE_SHARE of the width), sampled every other column. 0 on a page without ink.
 */
function tallStroke(mask: Uint8Array, width: number, height: number): number {
  const longest = Math.max(8, Math.round(MAX_STROKE_SHARE * width));
  const counts = new Uint32Array(longest + 1);
  let total = 0;
  for (let x = 0; x < width; x += 2) {
    let run = 0;
    for (let y = 0; y <= height; y++) {
      if (y < height && mask[y * width + x]) {
        run++;
        continue;
      }
      if (run >= 2 && run <= longest) {
        counts[run] = (counts[run] ?? 0) + 1;
        total++;
      }
      run = 0;
    }
  }
  return total === 0 ? 0 : greyLevelAt(counts, total, 0.9);
}

/** How one pass walks the pixels: along a rule (`along` positions) and across it (`across` lines). */
interface Walk {
  along: number;
  across: number;
  /** Index step from one position along to the next, and from one line across to the next. */
  stepAlong: number;
  stepAcross: number;
}

/**
 * Whitens in `out` the rules of `mask` that run `walk`'s way, clearing their mask bits. `minLength`: shortest run
 * taken for a rule; `maxThickness`: thickest rule. Returns how many rules it whitened.
 */
function whitenRuns(
  mask: Uint8Array,
  out: Uint8Array,
  walk: Walk,
  minLength: number,
  maxThickness: number,
  paper: number,
): number {
  const { along, across, stepAlong, stepAcross } = walk;
  const extentFrom = new Int32Array(along);
  const extentTo = new Int32Array(along);
  const thickness = new Int32Array(along);
  /** The ink across the rule at `pos`, from `track` or a line next to it: [first, last] line, or null where none. */
  const inkAcross = (pos: number, track: number): [number, number] | null => {
    const base = pos * stepAlong;
    let from = -1;
    for (let d = 0; d <= SKEW_ROWS && from < 0; d++) {
      if (track - d >= 0 && mask[base + (track - d) * stepAcross]) from = track - d;
      else if (track + d < across && mask[base + (track + d) * stepAcross]) from = track + d;
    }
    if (from < 0) return null;
    let lo = from;
    let hi = from;
    while (lo > 0 && mask[base + (lo - 1) * stepAcross]) lo--;
    while (hi + 1 < across && mask[base + (hi + 1) * stepAcross]) hi++;
    return [lo, hi];
  };
  /**
   * Whitens the rule at `pos`, its ink across being [lo, hi] and the rule `rule` thick. Where the ink is the rule's
   * alone it goes with its blurred edge (HALO); where it is a little thicker (a glyph touching the rule, or the step
   * of a tilted rule) only the lines of the rule's last clean position (`band`) go; where it is thicker still
   * (CROSSING_MARGIN), a glyph crosses the rule and all of it stays. Updates `band`.
   */
  const clearAt = (pos: number, lo: number, hi: number, rule: number, band: [number, number]): void => {
    const base = pos * stepAlong;
    const thick = hi - lo + 1;
    if (thick <= rule) {
      band[0] = lo;
      band[1] = hi;
      for (let l = Math.max(0, lo - HALO); l <= Math.min(across - 1, hi + HALO); l++) {
        const i = base + l * stepAcross;
        if (l >= lo && l <= hi) mask[i] = 0;
        else if (mask[i]) continue;
        out[i] = paper;
      }
    } else if (thick <= rule + CROSSING_MARGIN && band[0] >= 0) {
      for (let l = Math.max(lo, band[0]); l <= Math.min(hi, band[1]); l++) {
        mask[base + l * stepAcross] = 0;
        out[base + l * stepAcross] = paper;
      }
    }
  };
  /**
   * Follows the rule on from `pos` (step +1 or -1) while its ink stays thin, across gaps of MAX_GAP, whitening it:
   * the ends of a tilted rule that left the lines its run was found on.
   */
  const extend = (pos: number, step: number, track: number, rule: number, band: [number, number]): void => {
    let gap = 0;
    for (let p = pos; p >= 0 && p < along; p += step) {
      const ink = inkAcross(p, track);
      if (!ink) {
        if (++gap > MAX_GAP) return;
        continue;
      }
      gap = 0;
      if (ink[1] - ink[0] + 1 > rule + CROSSING_MARGIN) return;
      clearAt(p, ink[0], ink[1], rule, band);
      track = (ink[0] + ink[1]) >> 1;
    }
  };
  /**
   * The rule found as a run from `start` to `end` (exclusive) on line `line` and its neighbours, whitened when it is
   * one: thin across (maxThickness) at most positions (THIN_SHARE). The rule's line is, of `line` and its
   * neighbours, the one with the most ink along the run; from there it is followed position by position from the
   * middle of its ink at the last one, so the ink of a glyph beside the rule is never taken for it.
   */
  const whitenRule = (start: number, end: number, line: number): boolean => {
    let track = line;
    let most = -1;
    for (let l = Math.max(0, line - SKEW_ROWS); l <= Math.min(across - 1, line + SKEW_ROWS); l++) {
      let count = 0;
      for (let pos = start; pos < end; pos++) count += mask[pos * stepAlong + l * stepAcross] ?? 0;
      if (count > most) [most, track] = [count, l];
    }
    const firstTrack = track;
    let n = 0;
    for (let pos = start; pos < end; pos++) {
      const ink = inkAcross(pos, track);
      extentFrom[pos] = ink ? ink[0] : -1;
      if (!ink) continue;
      extentTo[pos] = ink[1];
      thickness[n++] = ink[1] - ink[0] + 1;
      if (ink[1] - ink[0] + 1 <= maxThickness) track = (ink[0] + ink[1]) >> 1;
    }
    if (n === 0) return false;
    const sorted = thickness.slice(0, n).sort();
    const rule = sorted[n >> 1] ?? 0;
    if (rule > maxThickness) return false;
    let thin = 0;
    while (thin < n && (sorted[thin] ?? 0) <= rule + CROSSING_MARGIN) thin++;
    if (thin < THIN_SHARE * (end - start)) return false;
    const band: [number, number] = [-1, -1];
    for (let pos = start; pos < end && band[0] < 0; pos++) {
      const lo = extentFrom[pos] ?? -1;
      if (lo >= 0 && (extentTo[pos] ?? lo) - lo + 1 <= rule) [band[0], band[1]] = [lo, extentTo[pos] ?? lo];
    }
    const startBand: [number, number] = [band[0], band[1]];
    for (let pos = start; pos < end; pos++) {
      const lo = extentFrom[pos] ?? -1;
      if (lo >= 0) clearAt(pos, lo, extentTo[pos] ?? lo, rule, band);
    }
    extend(end, 1, track, rule, band);
    extend(start - 1, -1, firstTrack, rule, startBand);
    return true;
  };
  let found = 0;
  for (let line = 0; line < across; line++) {
    // This line and its neighbours (SKEW_ROWS), as index offsets.
    const mid = line * stepAcross;
    const before = Math.max(0, line - SKEW_ROWS) * stepAcross;
    const after = Math.min(across - 1, line + SKEW_ROWS) * stepAcross;
    let start = -1;
    let gap = 0;
    for (let pos = 0; pos <= along; pos++) {
      const i = pos * stepAlong;
      if (pos < along && (mask[i + mid] || mask[i + before] || mask[i + after])) {
        if (start < 0) start = pos;
        gap = 0;
        continue;
      }
      if (start >= 0 && pos < along && gap < MAX_GAP) {
        gap++;
        continue;
      }
      if (start >= 0 && pos - gap - start >= minLength && whitenRule(start, pos - gap, line)) found++;
      start = -1;
      gap = 0;
    }
  }
  return found;
}

/**
 * `image` without its long horizontal and vertical rules and, when it had some, with its light shading turned to
 * paper when `shading` is set (see the file's comment). The same image object when it has no rules.
 */
export function removeRules(image: GreyImage, options: { shading?: boolean } = {}): RuleRemoval {
  const { width, height, data } = image;
  const none: RuleRemoval = { image, horizontal: 0, vertical: 0 };
  if (width < 32 || height < 32) return none;
  const { paper, ink } = levels(data);
  if (paper - ink < 64) return none;
  const inkBelow = paper - INK_SHARE * (paper - ink);
  const mask = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) mask[i] = (data[i] ?? 255) < inkBelow ? 1 : 0;
  const stroke = tallStroke(mask, width, height);
  const maxThickness = Math.max(MIN_MAX_THICKNESS, Math.round(RULE_MAX_THICKNESS * width));
  const out = Uint8Array.from(data);
  const rows: Walk = { along: width, across: height, stepAlong: 1, stepAcross: width };
  const columns: Walk = { along: height, across: width, stepAlong: width, stepAcross: 1 };
  const minH = Math.max(RULE_LENGTH_H * width, RULE_GLYPHS * stroke);
  const minV = Math.max(RULE_LENGTH_V * width, RULE_HEIGHT_V * height, RULE_GLYPHS * stroke);
  const horizontal = whitenRuns(mask, out, rows, minH, maxThickness, paper);
  // A page without a horizontal rule (most receipts, plain letters) is left as it is: no table grid to clean, and
  // the vertical pass is not paid.
  if (horizontal === 0) return none;
  const vertical = whitenRuns(mask, out, columns, minV, maxThickness, paper);
  if (options.shading) {
    const shadeAbove = paper - SHADE_DEPTH * (paper - ink);
    for (let i = 0; i < out.length; i++) if ((out[i] ?? 0) >= shadeAbove) out[i] = 255;
  }
  return { image: { width, height, data: out }, horizontal, vertical };
}
