import type { Document, Line, Word } from "../../src/document/model.js";

/** A printed row of a receipt: [text, x in px] cells; the words of a cell are set 8 px per character apart. */
export type ReceiptRow = Array<[string, number]>;

/**
 * A till receipt as OCR delivers it: a 400 px wide page, words with boxes, one Line per printed row at row index * 18
 * px, every word read with the given OCR confidence.
 */
export function receipt(rows: readonly ReceiptRow[], confidence = 0.95): Document {
  const width = 400;
  const height = 18 * rows.length + 40;
  const words: Word[] = [];
  const lines: Line[] = [];
  rows.forEach((cells, r) => {
    const y0 = 20 + r * 18;
    const ids: number[] = [];
    for (const [text, x] of cells) {
      let cursor = x;
      for (const token of text.split(" ")) {
        const w = token.length * 8;
        words.push({
          id: words.length,
          text: token,
          box: { x0: cursor / width, y0: y0 / height, x1: (cursor + w) / width, y1: (y0 + 12) / height },
          source: "ocr",
          confidence,
        });
        ids.push(words.length - 1);
        cursor += w + 8;
      }
    }
    const own = ids.map((id) => words[id] as Word);
    lines.push({
      wordIds: ids,
      box: {
        x0: Math.min(...own.map((w) => w.box.x0)),
        y0: y0 / height,
        x1: Math.max(...own.map((w) => w.box.x1)),
        y1: (y0 + 12) / height,
      },
    });
  });
  return { type: "jpeg", pages: [{ pageNum: 1, width, height, source: "ocr", words, lines }] };
}
