import type { Box } from "../document/model.js";
import { glyphAdvances } from "./glyph-widths.js";
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
 * Splits pdfjs text runs into words and gives each a box hugging its glyphs: from the run's baseline, up by the
 * font's ascent and down by its descent, along the run's own direction (so rotated text and rotated pages work),
 * across the word's share of the run width by measured glyph widths.
 */
export function wordsFromRuns(
  runs: readonly TextRun[],
  styles: Readonly<Record<string, RunStyle>>,
  toPageRatio: ToPageRatio,
): RawWord[] {
  const words: RawWord[] = [];
  /** Where the previous run ended, to glue a word split across runs (font change mid-word, kerning-split runs). */
  let previous: { endX: number; endY: number; fontSize: number; dir: [number, number]; open: boolean } | undefined;
  for (const run of runs) {
    const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = run.transform;
    const scaleX = Math.hypot(a, b);
    const fontSize = Math.hypot(c, d);
    if (run.str.trim() === "" || !(run.width > 0) || scaleX === 0 || fontSize === 0) {
      previous = undefined;
      continue;
    }
    const style = styles[run.fontName];
    const { ascent, descent } = fontExtent(style);
    const advances = glyphAdvances(run.str, style?.fontFamily ?? "sans-serif", run.width);
    const starts: number[] = [];
    advances.reduce((at, w, i) => {
      starts[i] = at;
      return at + w;
    }, 0);
    const dir: [number, number] = [a / scaleX, b / scaleX];
    const up: [number, number] = [c / fontSize, d / fontSize];
    const point = (along: number, height: number): [number, number] =>
      toPageRatio(e + dir[0] * along + up[0] * height, f + dir[1] * along + up[1] * height);
    const glue =
      previous?.open === true &&
      /^\S/u.test(run.str) &&
      Math.abs(previous.dir[0] - dir[0]) + Math.abs(previous.dir[1] - dir[1]) < 1e-3 &&
      Math.hypot(e - previous.endX, f - previous.endY) < GLUE_GAP_EM * Math.max(fontSize, previous.fontSize);
    previous = {
      endX: e + dir[0] * run.width,
      endY: f + dir[1] * run.width,
      fontSize,
      dir,
      open: /\S$/u.test(run.str),
    };
    for (const match of run.str.matchAll(/\S+/gu)) {
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
        last.text += match[0];
        last.box = boundsOf([...corners, [last.box.x0, last.box.y0], [last.box.x1, last.box.y1]]);
      } else {
        words.push({ text: match[0], box, confidence: 1 });
      }
    }
  }
  return words;
}

function boundsOf(points: readonly [number, number][]): Box {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}
