import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createCanvas, GlobalFonts, type SKRSContext2D } from "@napi-rs/canvas";

/**
 * Relative advance widths of characters. pdfjs reports a text run's exact total width but not its glyphs' widths,
 * so word boundaries inside a run are placed by relative widths scaled to the exact run width: accurate to a
 * fraction of a glyph. Proportional text is measured with Liberation Sans (metric-compatible with Helvetica/Arial,
 * the commonest PDF fonts), loaded from pdfjs' bundled fonts so the result never depends on the system's fonts;
 * monospaced text needs no measuring.
 *
 * Measuring never fails a page: a character the canvas refuses (a NUL, which Chromium/Skia PDFs map glyphs without
 * Unicode to) or a canvas that cannot start gets the mean width of the run's measured characters, and the caller
 * is told widths were guessed.
 */
const MEASURE_FAMILY = "docsift-measure-sans";
/** The size measured at: widths come out in hundredths of an em. */
const MEASURE_PX = 100;
/** Guessed width of a character when nothing in its run could be measured: a typical Latin glyph, in em. */
const TYPICAL_ADVANCE_EM = 0.55;
/** Characters never handed to the canvas: controls have no glyph of their own (and NUL cannot cross to native code). */
const UNMEASURABLE = /\p{Cc}/u;

const cache = new Map<string, number | null>();
let context: SKRSContext2D | null | undefined;

function measuringContext(): SKRSContext2D | null {
  if (context === undefined) {
    try {
      const pdfjsRoot = dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));
      GlobalFonts.registerFromPath(join(pdfjsRoot, "standard_fonts", "LiberationSans-Regular.ttf"), MEASURE_FAMILY);
      context = createCanvas(1, 1).getContext("2d");
      context.font = `${MEASURE_PX}px ${MEASURE_FAMILY}`;
    } catch {
      // No canvas (native module or font missing): every width is guessed, and each page read says so.
      context = null;
    }
  }
  return context;
}

/** Width of `char` in em, or null when it cannot be measured. */
function measure(char: string): number | null {
  const known = cache.get(char);
  if (known !== undefined) return known;
  let width: number | null = null;
  const ctx = UNMEASURABLE.test(char) ? null : measuringContext();
  if (ctx) {
    try {
      const measured = ctx.measureText(char).width;
      width = Number.isFinite(measured) ? Math.max(0, measured) / MEASURE_PX : null;
    } catch {
      width = null;
    }
  }
  cache.set(char, width);
  return width;
}

function isMonospace(fontFamily: string): boolean {
  return /mono|courier|fixed/i.test(fontFamily);
}

/** Advances of a run's characters (one per code point), in em; `guessed` when some could not be measured. */
export interface RelativeAdvances {
  widths: number[];
  guessed: boolean;
}

/** Advance of each code point of `text` in em (monospaced text: every character the same). */
export function relativeAdvances(text: string, fontFamily: string): RelativeAdvances {
  const chars = [...text];
  if (isMonospace(fontFamily)) return { widths: chars.map(() => TYPICAL_ADVANCE_EM), guessed: false };
  const measured = chars.map(measure);
  const known = measured.filter((w): w is number => w !== null);
  const guessed = known.length < measured.length;
  const mean = known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : TYPICAL_ADVANCE_EM;
  return { widths: measured.map((w) => w ?? mean), guessed };
}

/**
 * Width of each UTF-16 code unit's character of `text`, summing to `totalWidth`; `guessed` when some character's
 * width could not be measured and was taken as the run's mean.
 */
export function glyphAdvances(
  text: string,
  fontFamily: string,
  totalWidth: number,
): { advances: number[]; guessed: boolean } {
  const chars = [...text];
  const { widths: raw, guessed } = relativeAdvances(text, fontFamily);
  const sum = raw.reduce((a, b) => a + b, 0);
  const widths = sum > 0 ? raw.map((w) => (w / sum) * totalWidth) : raw.map(() => totalWidth / chars.length);
  // Astral characters occupy two code units; the second gets a zero width so indices line up with `text`.
  const advances = chars.flatMap((c, i) => (c.length === 2 ? [widths[i]!, 0] : [widths[i]!]));
  return { advances, guessed };
}
