import type { Box } from "../document/model.js";
import { glyphAdvances, relativeAdvances } from "./glyph-widths.js";
import type { RawWord } from "./page-builder.js";

/** The parts of a pdfjs text item this module reads (kept structural so the maths is testable without pdfjs). */
export interface TextRun {
  str: string;
  /** Text rendering matrix in PDF user space: [a, b, c, d, e, f], (e, f) the run's baseline origin. */
  transform: number[];
  /** Advance width of the whole run in user space. */
  width: number;
  fontName: string;
}

export interface RunStyle {
  fontFamily: string;
  ascent: number;
  descent: number;
}

/** Maps a PDF user-space point to page ratios (0..1, origin top-left, page rotation applied). */
export type ToPageRatio = (x: number, y: number) => [number, number];

/** Runs that touch (gap under this share of the font size) on one baseline continue the same word ("1/1", "€"). */
const GLUE_GAP_EM = 0.15;

// Fonts without metrics report 0 or nonsense; these are typical Latin values (ascender ~0.75-0.9 em, descender ~0.2).
const DEFAULT_ASCENT = 0.8;
const DEFAULT_DESCENT = -0.2;

function fontExtent(style: RunStyle | undefined): { ascent: number; descent: number } {
  const ascent = style && style.ascent > 0.4 && style.ascent < 1.3 ? style.ascent : DEFAULT_ASCENT;
  const descent = style && style.descent < 0 && style.descent > -0.6 ? style.descent : DEFAULT_DESCENT;
  return { ascent, descent };
}

/**
 * What reading a page's runs had to guess or leave out; none of it stops the page (each says how it degraded).
 * - unmapped_characters: characters without a Unicode value (control characters: a font's glyphs with no ToUnicode
 *   entry, NUL in Chromium/Skia PDFs) are left out of the words, their width kept.
 * - guessed_widths: a character's width could not be measured, so it takes the run's mean width.
 * - zero_width_runs: a run reports no width (a font without widths): its width is estimated from its characters.
 * - bad_geometry: a run whose position is not a number is left out.
 */
export type TextLayerIssue = "unmapped_characters" | "guessed_widths" | "zero_width_runs" | "bad_geometry";

/** Control characters print nothing: a code no Unicode value was found for, never part of a word's text. */
const CONTROL = /\p{Cc}/gu;
/** Format characters (zero-width space, soft hyphen, joiners) are invisible by design: dropped without a word. */
const FORMAT = /\p{Cf}/gu;

/**
 * Splits pdfjs text runs into words and gives each a box hugging its glyphs: from the run's baseline, up by the
 * font's ascent and down by its descent, along the run's own direction (so rotated text and rotated pages work),
 * across the word's share of the run width by measured glyph widths. What could not be read as it should is in
 * `issues`; it never throws for a run's content.
 */
export function wordsFromRuns(
  runs: readonly TextRun[],
  styles: Readonly<Record<string, RunStyle>>,
  toPageRatio: ToPageRatio,
): { words: RawWord[]; issues: Set<TextLayerIssue> } {
  const words: RawWord[] = [];
  const issues = new Set<TextLayerIssue>();
  /** Where the previous run ended, to glue a word split across runs (font change mid-word, kerning-split runs). */
  let previous: { endX: number; endY: number; fontSize: number; dir: [number, number]; open: boolean } | undefined;
  /**
   * Runs of a font that gives its glyphs no width all start where the first one did (pdf.js gives each glyph as a
   * run there): they are laid out one after the other from that origin, in the order the page draws them.
   */
  let pen: { x: number; y: number; advance: number; open: boolean } | undefined;
  for (const run of runs) {
    const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = run.transform;
    const str = run.str.replace(FORMAT, "");
    const blank = str.trim() === "";
    if (![a, b, c, d, e, f, run.width].every(Number.isFinite)) {
      if (!blank) issues.add("bad_geometry");
      previous = undefined;
      continue;
    }
    const scaleX = Math.hypot(a, b);
    const fontSize = Math.hypot(c, d);
    // Text of no height (size 0) is hidden, not printed.
    if (blank || fontSize === 0) {
      previous = undefined;
      continue;
    }
    const style = styles[run.fontName];
    const family = style?.fontFamily ?? "sans-serif";
    const { ascent, descent } = fontExtent(style);
    // A run squeezed to no width (Tz 0) keeps the direction its glyphs' upright implies.
    const dir: [number, number] = scaleX > 0 ? [a / scaleX, b / scaleX] : [d / fontSize, -c / fontSize];
    const up: [number, number] = [c / fontSize, d / fontSize];
    let width = run.width;
    let [x, y] = [e, f];
    let glue: boolean;
    if (width > 0 && scaleX > 0) {
      if (pen) pen.open = false;
      glue =
        previous?.open === true &&
        /^\S/u.test(str) &&
        Math.abs(previous.dir[0] - dir[0]) + Math.abs(previous.dir[1] - dir[1]) < 1e-3 &&
        Math.hypot(e - previous.endX, f - previous.endY) < GLUE_GAP_EM * Math.max(fontSize, previous.fontSize);
    } else {
      issues.add("zero_width_runs");
      const ems = relativeAdvances(str, family).widths.reduce((sum, w) => sum + w, 0);
      width = ems * (scaleX > 0 ? scaleX : fontSize);
      const continues = pen !== undefined && Math.hypot(e - pen.x, f - pen.y) < 1e-3 * fontSize;
      if (!pen || !continues) pen = { x: e, y: f, advance: 0, open: false };
      [x, y] = [e + dir[0] * pen.advance, f + dir[1] * pen.advance];
      glue = continues && pen.open && /^\S/u.test(str);
      pen.advance += width;
      pen.open = /\S$/u.test(str);
    }
    const { advances, guessed } = glyphAdvances(str, family, width);
    if (guessed) issues.add("guessed_widths");
    const starts: number[] = [];
    advances.reduce((at, w, i) => {
      starts[i] = at;
      return at + w;
    }, 0);
    const point = (along: number, height: number): [number, number] =>
      toPageRatio(x + dir[0] * along + up[0] * height, y + dir[1] * along + up[1] * height);
    previous = {
      endX: x + dir[0] * width,
      endY: y + dir[1] * width,
      fontSize,
      dir,
      open: /\S$/u.test(str),
    };
    for (const match of str.matchAll(/\S+/gu)) {
      const text = match[0].replace(CONTROL, "");
      if (text.length < match[0].length) issues.add("unmapped_characters");
      if (text === "") continue;
      const first = match.index;
      const lastChar = first + match[0].length - 1;
      const from = starts[first] ?? 0;
      const to = (starts[lastChar] ?? 0) + (advances[lastChar] ?? 0);
      const corners = [
        point(from, ascent * fontSize),
        point(to, ascent * fontSize),
        point(from, descent * fontSize),
        point(to, descent * fontSize),
      ];
      const box = boundsOf(corners);
      const last = words[words.length - 1];
      if (glue && first === 0 && last) {
        last.text += text;
        last.box = boundsOf([...corners, [last.box.x0, last.box.y0], [last.box.x1, last.box.y1]]);
      } else {
        words.push({ text, box, confidence: 1 });
      }
    }
  }
  return { words, issues };
}

function boundsOf(points: readonly [number, number][]): Box {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}
