import type { Box, Page, PageWarning, Word, WordSource } from "../document/model.js";
import { boxOnUpright, quarterTurn, uprightBox, uprightSize } from "../document/page-frame.js";
import { groupLines, unionBox } from "./lines.js";

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
 * `rotation` is the clockwise turn in degrees that made the page upright for OCR (OcrResult.rotation); the words'
 * boxes are on the page as uploaded (ratios of `size`). The lines and their order are those of the page read upright:
 * words are grouped on their boxes turned upright. A page turned by a quarter or half turn is built turned back by
 * it (document/page-frame.ts): its words' boxes and size are those of the page as it reads, so extraction finds its
 * rows, columns and labels as on any upright page, and the page records the turn (Page.rotation) so that the
 * result's boxes are put back on the page as uploaded (spec: ratios of the page as uploaded; page images are served
 * as uploaded, workflows/page-images.ts). A skew of a few degrees is left in the boxes, as on any scan: extraction
 * levels its rows itself (extract/layout.ts). Levelling the boxes here too lost 3 fields and found 1 on the 6
 * invoices-dev documents of `bench:scan-invoices --rotated 6` turned 3° (each read once, extracted both ways).
 */
export function buildPage(
  pageNum: number,
  size: { width: number; height: number },
  source: WordSource,
  raw: readonly RawWord[],
  firstId: number,
  rotation = 0,
): Page {
  const sized = size.width > 0 && size.height > 0;
  const turned = rotation % 360 !== 0 && sized;
  const quarter = sized ? quarterTurn(rotation) : 0;
  const kept = raw
    .filter((w) => w.text.trim() !== "")
    .map((w) => ({ ...w, text: w.text.trim(), box: clampBox(w.box) }));
  const rows = groupLines(kept.map((w) => (turned ? uprightBox(w.box, rotation, size) : w.box)));
  const boxOf = (box: Box): Box => (quarter === 0 ? box : boxOnUpright(box, quarter, size));
  const words: Word[] = [];
  const lines = rows.map((row) => {
    const wordIds = row.map((i) => {
      const w = kept[i]!;
      const id = firstId + words.length;
      words.push({ id, text: w.text, box: boxOf(w.box), source, confidence: w.confidence });
      return id;
    });
    return { wordIds, box: unionBox(row.map((i) => boxOf(kept[i]!.box))) };
  });
  if (quarter === 0) return { pageNum, width: size.width, height: size.height, source, words, lines };
  return { pageNum, ...uprightSize(size, quarter), source, words, lines, rotation: quarter };
}
