/** Pages of generated tables for the line-item reader's unit tests: rows of cells placed where they print. */
import type { Document, Line, Page, Word, WordSource } from "../../src/document/model.js";

/** A cell as printed: text and its left and right edges (page-width ratios); optional OCR confidence. */
export type Cell = [text: string, x0: number, x1: number, confidence?: number];

export interface TablePageOptions {
  top?: number;
  /** Distance between rows' tops (text is 0.011 high); 0.02 unless told. */
  spacing?: number;
  /** Each row's top, where given (a row's lines set tighter than the rows); else from `top` and `spacing`. */
  tops?: readonly number[];
  source?: WordSource;
  /** Extra words (OCR echoes) placed as given. */
  extra?: { text: string; box: Word["box"]; confidence: number }[];
}

let nextId = 1;

/** A cell of text starting at x0, `charWidth` of the page's width per character. */
export function left(text: string, x0: number, charWidth = 0.012): Cell {
  return [text, x0, x0 + text.length * charWidth];
}

/** A cell ending at x1 (a number set flush right), `charWidth` of the page's width per character. */
export function right(text: string, x1: number, charWidth = 0.012): Cell {
  return [text, x1 - text.length * charWidth, x1];
}

/** A page from rows of cells, one row per line; a row's cells split into words spread over the cell. */
export function tablePage(pageNum: number, rows: readonly (readonly Cell[])[], options: TablePageOptions = {}): Page {
  const top = options.top ?? 0.3;
  const source = options.source ?? "text";
  const words: Word[] = [];
  const lines: Line[] = [];
  rows.forEach((cells, r) => {
    const y0 = options.tops?.[r] ?? top + r * (options.spacing ?? 0.02);
    const ids: number[] = [];
    for (const [text, x0, x1, confidence] of cells) {
      const parts = text.split(" ");
      const step = (x1 - x0) / parts.length;
      parts.forEach((part, i) => {
        const id = nextId++;
        ids.push(id);
        words.push({
          id,
          text: part,
          box: { x0: x0 + i * step, y0, x1: x0 + (i + 1) * step - step * 0.15, y1: y0 + 0.011 },
          source,
          confidence: source === "ocr" ? (confidence ?? 0.9) : 1,
        });
      });
    }
    if (ids.length === 0) return;
    const own = words.filter((w) => ids.includes(w.id));
    lines.push({
      wordIds: ids,
      box: {
        x0: Math.min(...own.map((w) => w.box.x0)),
        y0,
        x1: Math.max(...own.map((w) => w.box.x1)),
        y1: y0 + 0.011,
      },
    });
  });
  for (const e of options.extra ?? [])
    words.push({ id: nextId++, text: e.text, box: e.box, source, confidence: e.confidence });
  return { pageNum, width: 595, height: 842, source, words, lines };
}

export function tableDocument(...pages: Page[]): Document {
  return { type: "pdf", pages };
}
