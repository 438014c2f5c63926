import type { Box, Page, Word, WordSource } from "../document/model.js";
import { groupLines, unionBox } from "./lines.js";

/** A word before it has a document-wide id. */
export interface RawWord {
  text: string;
  box: Box;
  confidence: number;
}

const clamp01 = (v: number): number => Math.min(1, Math.max(0, v));

function clampBox(box: Box): Box {
  return { x0: clamp01(box.x0), y0: clamp01(box.y0), x1: clamp01(box.x1), y1: clamp01(box.y1) };
}

/**
 * Assembles a page: words in reading order (row by row, left to right) with ids counted up from `firstId`,
 * so ids are unique across the document and follow reading order.
 */
export function buildPage(
  pageNum: number,
  size: { width: number; height: number },
  source: WordSource,
  raw: readonly RawWord[],
  firstId: number,
): Page {
  const kept = raw
    .filter((w) => w.text.trim() !== "")
    .map((w) => ({ ...w, text: w.text.trim(), box: clampBox(w.box) }));
  const rows = groupLines(kept.map((w) => w.box));
  const words: Word[] = [];
  const lines = rows.map((row) => {
    const wordIds = row.map((i) => {
      const w = kept[i]!;
      const id = firstId + words.length;
      words.push({ id, text: w.text, box: w.box, source, confidence: w.confidence });
      return id;
    });
    return { wordIds, box: unionBox(row.map((i) => kept[i]!.box)) };
  });
  return { pageNum, width: size.width, height: size.height, source, words, lines };
}
