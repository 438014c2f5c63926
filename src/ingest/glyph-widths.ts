import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createCanvas, GlobalFonts, type SKRSContext2D } from "@napi-rs/canvas";

/**
 * Relative advance widths of characters. pdfjs reports a text run's exact total width but not its glyphs' widths,
 * so word boundaries inside a run are placed by relative widths scaled to the exact run width: accurate to a
 * fraction of a glyph. Proportional text is measured with Liberation Sans (metric-compatible with Helvetica/Arial,
 * the commonest PDF fonts), loaded from pdfjs' bundled fonts so the result never depends on the system's fonts;
 * monospaced text needs no measuring.
 */
const MEASURE_FAMILY = "docsift-measure-sans";
const cache = new Map<string, number>();
let context: SKRSContext2D | undefined;

function measuringContext(): SKRSContext2D {
  if (!context) {
    const pdfjsRoot = dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));
    GlobalFonts.registerFromPath(join(pdfjsRoot, "standard_fonts", "LiberationSans-Regular.ttf"), MEASURE_FAMILY);
    context = createCanvas(1, 1).getContext("2d");
    context.font = `100px ${MEASURE_FAMILY}`;
  }
  return context;
}

function measure(char: string): number {
  const known = cache.get(char);
  if (known !== undefined) return known;
  const width = Math.max(0, measuringContext().measureText(char).width);
  cache.set(char, width);
  return width;
}

function isMonospace(fontFamily: string): boolean {
  return /mono|courier|fixed/i.test(fontFamily);
}

/** Width of each UTF-16 code unit's character of `text`, summing to `totalWidth`. */
export function glyphAdvances(text: string, fontFamily: string, totalWidth: number): number[] {
  const chars = [...text];
  const raw = isMonospace(fontFamily) ? chars.map(() => 1) : chars.map(measure);
  const sum = raw.reduce((a, b) => a + b, 0);
  const widths = sum > 0 ? raw.map((w) => (w / sum) * totalWidth) : raw.map(() => totalWidth / chars.length);
  // Astral characters occupy two code units; the second gets a zero width so indices line up with `text`.
  return chars.flatMap((c, i) => (c.length === 2 ? [widths[i]!, 0] : [widths[i]!]));
}
