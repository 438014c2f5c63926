/**
 * OCR'd pages for extraction tests: word boxes in pixels of a 200 dpi A4 scan, as tesseract gives them (the heights
 * those of the ink), on a page tilted by a slight skew.
 */
import type { Document, Word } from "../../src/document/model.js";

const WIDTH = 1700;
const HEIGHT = 2400;
/** dy/dx of the scan: enough for extraction to regroup rows on levelled coordinates. */
const SKEW = 0.008;

/** A word as OCR read it: its text, left edge, top and height in pixels (its width from its letters), confidence. */
export type Read = readonly [text: string, x: number, top: number, height: number, confidence?: number];

/** A word as OCR boxed it: its text, its box's corners in pixels, its confidence. */
export type Boxed = readonly [text: string, x0: number, y0: number, x1: number, y1: number, confidence: number];

/** A page of words as OCR boxed them, each array one OCR line. */
export function boxed(lines: readonly (readonly Boxed[])[]): Document {
  const words: Word[] = [];
  const ids = lines.map((line) =>
    line.map(([text, x0, y0, x1, y1, confidence]) => {
      const box = { x0: x0 / WIDTH, y0: y0 / HEIGHT, x1: x1 / WIDTH, y1: y1 / HEIGHT };
      words.push({ id: words.length, text, box, source: "ocr", confidence });
      return words.length - 1;
    }),
  );
  const box = { x0: 0, y0: 0, x1: 1, y1: 1 };
  return {
    type: "png",
    pages: [
      {
        pageNum: 1,
        width: WIDTH,
        height: HEIGHT,
        source: "ocr",
        words,
        lines: ids.map((wordIds) => ({ wordIds, box })),
      },
    ],
  };
}

/** A word's box on the page tilted by SKEW (its width from its letters). */
export function boxOf([text, x, top, height, confidence = 0.95]: Read): Boxed {
  const width = Math.max(6, text.length * height * 0.45);
  const y = top + SKEW * (x + width / 2);
  return [text, x, y, x + width, y + height, confidence];
}

/**
 * An OCR'd page tilted by SKEW: each line's words as given; marks (`[text, x, top, height, confidence]`) as lines of
 * their own, before the print.
 */
export function scan(lines: readonly (readonly Read[])[], marks: readonly Read[] = []): Document {
  return boxed([...marks.map((m) => [boxOf(m)]), ...lines.map((line) => line.map(boxOf))]);
}

/** Words of a line of body text (24 px) from `x`, one space apart. */
export function line(text: string, x: number, top: number, height = 24): Read[] {
  const out: Read[] = [];
  let cursor = x;
  for (const token of text.split(" ")) {
    out.push([token, cursor, top, height]);
    cursor += token.length * height * 0.45 + height * 0.5;
  }
  return out;
}
