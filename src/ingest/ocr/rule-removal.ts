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
 * crosses it there, and those pixels are kept. A shorter vertical run joining two whitened horizontal rules is a box's
 * side and goes too (BOX_SIDE_GLYPHS). Where a tilted rule steps from one row to the next, all of it goes with its
 * blurred edge. Pages without a horizontal rule are left as they are. With `shading`,
 * light grey (a shaded band, at most SHADE_DEPTH of the way from the paper to the ink) becomes paper too.
 *
 * Measured 2026-11-27 (bench/ocr-rules.ts: scans made as bench/scan-invoices.ts makes them, each page read by ingest's
 * engine as it is and with its rules out; share of the born-digital PDF's words found; tesseract is noisy page by
 * page, so compare totals): einvoices-dev (in sample: the rules' thresholds were looked at on its pages) 0.738 ->
 * 0.805 of 5440 words with the rules out, 0.781 with the shading flattened too; invoices-dev (out of sample) 0.899 ->
 * 0.897 of 5262; receipts-dev (bench/ocr-variants.ts, crop-noinvert-reread against crop-noinvert-lines-reread) F1
 * 0.867 -> 0.855, and 0.783 with the shading flattened (faint thermal print fades). Extraction on the scans
 * (bench/scan-invoices.ts, same tree both ways): einvoices-dev F1 0.661 -> 0.690, invoices-dev 0.912 -> 0.903. Not a
 * gain out of sample then, and a loss on receipts, so ingest removed no rules.
 *
 * Since 2026-11-27 (second pass) ingest takes the rules out of office pages only (isOfficePage: no taller
 * than A4; receipts, strips, are read as they are) and box sides with them. Labelled fields right born-digital and wrong
 * on the 200 dpi scan (a diagnostic scoring each field with HEAD's extraction, OCR'd Documents cached, same window),
 * before -> rules out alone -> with box sides -> with the tilted rules' steps and edges too (as now): einvoices-dev (in
 * sample: its boxed due dates, `Joate d'échéance`, and dotted totals led to the last two) 47 -> 44 -> 38 -> 39 of 183
 * labelled fields; invoices-dev (out of sample) 13 -> 13 -> 15 -> 11 of 235; synthetic scans (bench:synth --count 40
 * --seed 7, out of sample) 25 -> 22 -> 22 -> 22 of 476; 4 einvoices-dev PDFs rendered and turned ±3° (clean, levelled
 * back) 20 -> 27 (rules alone) -> 27 -> 24 of 96: still a loss there. Receipts: 1 of the 120 receipts-dev photos and 6
 * of the 251 receipts-train ones are as short as A4 (the others read byte-identical pages): their 28 labelled fields
 * read the same (21 right) with the rules out as now. CPU about 45-50 ms per 200 dpi page (4 Mpx) against
 * 1.5-2.5 s of OCR. Their pictures (QR codes, barcodes) go after the rules: picture-removal.ts, officePageForOcr.
 *
 * Since 2026-11-29 rules are looked for among lighter pixels than the text's ink (RULE_INK_SHARE): a scan's blur left
 * a ruled table's hairlines at grey 150-190, not ink at half the way from paper to ink, and tesseract then lost the
 * table's rows whole. On scans not looked at (bench:synth seed 2, 100 documents) header-field F1 went 0.948 -> 0.958
 * and line-item row F1 (150 documents) 0.942 -> 0.970; einvoices-dev's scans 0.782 -> 0.813; receipt photos as short
 * as A4 read the same labelled fields right (README, "Accuracy").
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
/**
 * A vertical run this many times the text's tall strokes long, whose both ends meet a horizontal rule already
 * whitened (and its middle none), is the side of a box (a boxed "Date d'échéance : 02/03/2026", a one-line cell of a
 * totals grid) and goes too, however short: left beside the first letter it is read into it (`Date` -> `Joate`).
 */
const BOX_SIDE_GLYPHS = 1.3;
/**
 * How far from a run's end, in pixels along it and across it, the whitened horizontal rule is looked for: a box's side
 * ends on the rule's own rows (their crossing is kept as a glyph's would be), a letter standing across a rule ends well
 * beyond them.
 */
const BOX_CORNER_ALONG = 3;
const BOX_CORNER_ACROSS = 4;
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
/**
 * Pixels on each side of a rule's ink (or a picture's, picture-removal.ts) also whitened: its blurred edge, lighter
 * than ink but darker than paper.
 */
export const HALO = 2;
/** Ink is darker than this share of the way from the paper to the darkest ink. */
const INK_SHARE = 0.5;
/**
 * A rule's pixels are darker than this share of the way from the paper to the darkest ink: a hairline rule blurred by
 * the scan is much lighter than the text's strokes (grey 150-190 where text is 40, paper 254), and left in it splits
 * tesseract's lines so that a ruled table's rows are lost whole.
 */
const RULE_INK_SHARE = 0.3;
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
  // Row by row (the mask is row-major), with the run of every sampled column carried down from row to row.
  const runs = new Uint32Array(Math.ceil(width / 2));
  const ended = (run: number): void => {
    if (run < 2 || run > longest) return;
    counts[run]!++;
    total++;
  };
  for (let y = 0; y < height; y++)
    for (let x = 0, c = 0, i = y * width; x < width; x += 2, c++, i += 2) {
      if (mask[i]) runs[c]!++;
      else if (runs[c]) {
        ended(runs[c]!);
        runs[c] = 0;
      }
    }
  for (const run of runs) ended(run);
  return total === 0 ? 0 : greyLevelAt(counts, total, 0.9);
}

/** A page's ink as the rule and picture searches see it. */
export interface PageInk {
  /** Paper's grey level and the darkest ink's. */
  paper: number;
  ink: number;
  /** 1 where a pixel is ink: darker than INK_SHARE of the way from the paper to the darkest ink. */
  mask: Uint8Array;
  /** Height of the text's tall strokes (ascenders, capitals), pixels; 0 when there is no text-like ink. */
  stroke: number;
}

/**
 * `image`'s ink: pixels darker than `share` of the way from the paper to the darkest ink. Null for an image too small
 * or too flat (under 64 grey levels from paper to ink) to have any.
 */
export function pageInk(image: GreyImage, share = INK_SHARE): PageInk | null {
  const { width, height, data } = image;
  if (width < 32 || height < 32) return null;
  const { paper, ink } = levels(data);
  if (paper - ink < 64) return null;
  // Grey levels are whole numbers: below the share's level is below its ceiling, a comparison of integers (twice as
  // fast over a page's millions of pixels).
  const inkBelow = Math.ceil(paper - share * (paper - ink));
  const mask = new Uint8Array(data.length);
  for (let i = 0, n = data.length; i < n; i++) mask[i] = data[i]! < inkBelow ? 1 : 0;
  return { paper, ink, mask, stroke: tallStroke(mask, width, height) };
}

/** How one pass walks the pixels: along a rule (`along` positions) and across it (`across` lines). */
interface Walk {
  along: number;
  across: number;
  /** Index step from one position along to the next, and from one line across to the next. */
  stepAlong: number;
  stepAcross: number;
}

/** Ink pixels of `mask` on each line across `walk` (each row, or each column). */
function inkPerLine(mask: Uint8Array, walk: Walk): Uint32Array {
  const { along, across, stepAcross } = walk;
  const counts = new Uint32Array(across);
  if (stepAcross === 1) {
    // Lines are columns: added up row by row, as the mask lies.
    for (let i = 0; i < mask.length; i += across) for (let x = 0; x < across; x++) counts[x]! += mask[i + x]!;
  } else
    for (let line = 0; line < across; line++) {
      let count = 0;
      for (let i = line * stepAcross, end = i + along; i < end; i++) count += mask[i]!;
      counts[line] = count;
    }
  return counts;
}

/**
 * Whitens in `out` the rules of `mask` that run `walk`'s way, clearing their mask bits (and marking the pixels whitened
 * in `cleared`, when given). `minLength`: shortest run taken for a rule, or `shortRun.minLength` for a run
 * `shortRun.takes` (from `start` to `end` on line `line`); `maxThickness`: thickest rule. Returns how many rules it
 * whitened.
 */
function whitenRuns(
  mask: Uint8Array,
  out: Uint8Array,
  walk: Walk,
  minLength: number,
  maxThickness: number,
  paper: number,
  cleared?: Uint8Array,
  shortRun?: { minLength: number; takes: (start: number, end: number, line: number) => boolean },
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
   * alone it goes with its blurred edge (HALO); where it is one line thicker (the step of a tilted rule) all of it
   * goes, edge included; two lines thicker (a glyph touching the rule), only the lines of the rule's last clean
   * position (`band`) and their edge go; thicker still (CROSSING_MARGIN), a glyph crosses the rule and all of it stays.
   * Updates `band`.
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
        if (cleared) cleared[i] = 1;
      }
    } else if (thick <= rule + CROSSING_MARGIN && band[0] >= 0) {
      // Left there, a tilted rule's steps and edge make grey dashes that read as a row of dots under the text above
      // it (`681.87` -> `......81.87`).
      const [from, to] = thick === rule + 1 ? [lo, hi] : band;
      for (let l = Math.max(0, from - HALO); l <= Math.min(across - 1, to + HALO); l++) {
        const i = base + l * stepAcross;
        if (l >= from && l <= to && l >= lo && l <= hi) mask[i] = 0;
        else if (mask[i]) continue;
        out[i] = paper;
        if (cleared) cleared[i] = 1;
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
  // A run `length` long, with gaps of at most MAX_GAP bridged, holds at least length / (MAX_GAP + 1) ink pixels on its
  // line and neighbours: lines whose neighbourhood holds fewer than the shortest run taken needs are passed over (the
  // same rules are found, on a dense A4 page in four fifths of the time). Counted before the pass, which only clears
  // ink, so a count never falls short of a line's ink.
  const ink = inkPerLine(mask, walk);
  const least = Math.ceil(Math.min(minLength, shortRun?.minLength ?? minLength) / (MAX_GAP + 1));
  let found = 0;
  for (let line = 0; line < across; line++) {
    let near = 0;
    for (let l = Math.max(0, line - SKEW_ROWS); l <= Math.min(across - 1, line + SKEW_ROWS); l++) near += ink[l]!;
    if (near < least) continue;
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
      const length = pos - gap - start;
      const taken =
        start >= 0 &&
        (length >= minLength ||
          (shortRun !== undefined && length >= shortRun.minLength && shortRun.takes(start, pos - gap, line)));
      if (taken && whitenRule(start, pos - gap, line)) found++;
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
  const found = pageInk(image, RULE_INK_SHARE);
  if (!found) return none;
  const { paper, ink, mask, stroke } = found;
  const maxThickness = Math.max(MIN_MAX_THICKNESS, Math.round(RULE_MAX_THICKNESS * width));
  const out = Uint8Array.from(data);
  const rows: Walk = { along: width, across: height, stepAlong: 1, stepAcross: width };
  const columns: Walk = { along: height, across: width, stepAlong: width, stepAcross: 1 };
  const minH = Math.max(RULE_LENGTH_H * width, RULE_GLYPHS * stroke);
  const minV = Math.max(RULE_LENGTH_V * width, RULE_HEIGHT_V * height, RULE_GLYPHS * stroke);
  const cleared = new Uint8Array(data.length);
  const horizontal = whitenRuns(mask, out, rows, minH, maxThickness, paper, cleared);
  // A page without a horizontal rule (most receipts, plain letters) is left as it is: no table grid to clean, and
  // the vertical pass is not paid.
  if (horizontal === 0) return none;
  /** Whether a whitened horizontal rule lies within BOX_CORNER_ALONG rows and BOX_CORNER_ACROSS columns of (x, y). */
  const ruleNear = (x: number, y: number): boolean => {
    for (let yy = Math.max(0, y - BOX_CORNER_ALONG); yy <= Math.min(height - 1, y + BOX_CORNER_ALONG); yy++)
      for (let xx = Math.max(0, x - BOX_CORNER_ACROSS); xx <= Math.min(width - 1, x + BOX_CORNER_ACROSS); xx++)
        if (cleared[yy * width + xx]) return true;
    return false;
  };
  const boxSides = {
    minLength: BOX_SIDE_GLYPHS * stroke,
    // Two rules, one at each end: a letter crossing one rule has it at its middle and both ends near it.
    takes: (top: number, bottom: number, x: number) =>
      ruleNear(x, top) && ruleNear(x, bottom - 1) && !ruleNear(x, (top + bottom) >> 1),
  };
  const vertical = whitenRuns(mask, out, columns, minV, maxThickness, paper, undefined, boxSides);
  if (options.shading) {
    const shadeAbove = paper - SHADE_DEPTH * (paper - ink);
    for (let i = 0; i < out.length; i++) if ((out[i] ?? 0) >= shadeAbove) out[i] = 255;
  }
  return { image: { width, height, data: out }, horizontal, vertical };
}

/**
 * A page image no taller than this many times its width is an office page (A4 is 1.414, Letter 1.29, landscape pages
 * less); receipts are strips (1.41-3.5 on the 120 dev receipts, where only one receipt scanned on a whole A4 page is
 * as short as A4).
 */
const OFFICE_PAGE_MAX_ASPECT = 1.415;

/** Whether `page` is an office page (no taller than OFFICE_PAGE_MAX_ASPECT), not a receipt or a strip. */
export function isOfficePage(page: GreyImage): boolean {
  return page.width > 0 && page.height / page.width <= OFFICE_PAGE_MAX_ASPECT;
}
