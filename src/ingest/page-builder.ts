import type { Box, Page, PageWarning, Word, WordSource } from "../document/model.js";
import { groupLines, unionBox } from "./lines.js";
import { uprightBox } from "./ocr/orientation.js";

/** A word before it has a document-wide id. */
export interface RawWord {
  text: string;
  box: Box;
  confidence: number;
}

/**
 * A step reading a page that degraded without stopping it (text layer read in part, OCR by the fallback engine):
 * ingest turns it into the Document's warning for that page.
 */
export interface PageNote {
  code: PageWarning["code"];
  /** Says what degraded, as a sentence that follows "Page N:". */
  message: string;
}

/** Words of a page's own text layer, with what reading them degraded. */
export interface TextLayer {
  words: RawWord[];
  notes: PageNote[];
}

const clamp01 = (v: number): number => Math.min(1, Math.max(0, v));

function clampBox(box: Box): Box {
  return { x0: clamp01(box.x0), y0: clamp01(box.y0), x1: clamp01(box.x1), y1: clamp01(box.y1) };
}

/**
 * Assembles a page: words in reading order (row by row, left to right) with ids counted up from `firstId`,
 * so ids are unique across the document and follow reading order.
 *
 * `rotation` is the clockwise turn in degrees that made the page upright for OCR (OcrResult.rotation). The lines and
 * their order are those of the page read upright: words are grouped on their boxes turned upright. The boxes the page
 * keeps stay in ratios of the page as uploaded, and its size is the uploaded one: the result's bounding boxes are
 * ratios of the page as uploaded (spec) and page images are served as uploaded (workflows/page-images.ts), so a box
 * must land on the word in the image a user draws on.
 */
export function buildPage(
  pageNum: number,
  size: { width: number; height: number },
  source: WordSource,
  raw: readonly RawWord[],
  firstId: number,
  rotation = 0,
): Page {
  const kept = raw
    .filter((w) => w.text.trim() !== "")
    .map((w) => ({ ...w, text: w.text.trim(), box: clampBox(w.box) }));
  const turned = rotation % 360 !== 0 && size.width > 0 && size.height > 0;
  const rows = groupLines(kept.map((w) => (turned ? uprightBox(w.box, rotation, size) : w.box)));
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
