import type { Document, Line, Page, Word, WordSource } from "../../src/document/model.js";

/** A printed row of a receipt: [text, x in px] cells; the words of a cell are set 8 px per character apart. */
export type ReceiptRow = Array<[string, number]>;
/** A row as printedPage reads it (a ReceiptRow, or any read-only list of cells). */
type PrintedRow = ReadonlyArray<readonly [string, number]>;

/**
 * A till receipt as OCR delivers it: a 400 px wide page, words with boxes, one Line per printed row at row index * 18
 * px, every word read with the given OCR confidence.
 */
export function receipt(rows: readonly ReceiptRow[], confidence = 0.95): Document {
  return { type: "jpeg", pages: [printedPage(rows, 400, "ocr", confidence)] };
}

/** A text-layer PDF page `width` px wide from rows as receipt() places them (every word confidence 1). */
export function textDocument(rows: readonly PrintedRow[], width: number): Document {
  return { type: "pdf", pages: [printedPage(rows, width, "text", 1)] };
}

/** A scanned page `width` px wide from rows as receipt() places them, every word read by OCR with `confidence`. */
export function scannedDocument(rows: readonly PrintedRow[], width: number, confidence = 0.9): Document {
  return { type: "png", pages: [printedPage(rows, width, "ocr", confidence)] };
}

function printedPage(rows: readonly PrintedRow[], width: number, source: WordSource, confidence: number): Page {
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
          source,
          confidence,
        });
        ids.push(words.length - 1);
        cursor += w + 8;
      }
    }
    const own = ids.map((id) => words[id] as Word);
    // An empty row is space between printed rows: no line.
    if (own.length === 0) return;
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
  return { pageNum: 1, width, height, source, words, lines };
}
