/**
 * A geometric view of the Document that extraction reasons over: lines split into segments at wide gaps (so two
 * columns on one line are two segments), segments grouped into rows, and per-page statistics. Computed once per
 * extract() call; everything downstream reads it.
 */
import { median } from "../document/median.js";
import type { Box, Document, Page, Word } from "../document/model.js";
import { ghostMarks, markBelow } from "./ghost-marks.js";
import { LABELS } from "./labels.js";
import { marginGlyphs } from "./margin-glyphs.js";
import { foldForMatching } from "./text.js";

export interface LineSegment {
  /** Index in Layout.segments (reading order: page, then top to bottom, then left to right). */
  index: number;
  pageNum: number;
  words: Word[];
  /** foldForMatching() of each word's text. */
  folded: string[];
  text: string;
  box: Box;
  /** Median word height in page-height ratios. */
  height: number;
  /** Row index within its page. */
  row: number;
}

export interface PageLayout {
  pageNum: number;
  /** Natural width / height: receipts are tall and narrow. */
  aspect: number;
  width: number;
  height: number;
  segments: LineSegment[];
  rows: LineSegment[][];
  medianHeight: number;
}

export interface Layout {
  pages: PageLayout[];
  segments: LineSegment[];
  wordsById: Map<number, Word>;
  /** Where each word sits: segment index and position inside it. */
  wordPlace: Map<number, { segment: number; position: number }>;
}

export function unionBox(boxes: readonly Box[]): Box {
  let x0 = 1;
  let y0 = 1;
  let x1 = 0;
  let y1 = 0;
  for (const b of boxes) {
    x0 = Math.min(x0, b.x0);
    y0 = Math.min(y0, b.y0);
    x1 = Math.max(x1, b.x1);
    y1 = Math.max(y1, b.y1);
  }
  return { x0, y0, x1, y1 };
}

/**
 * A gap this many text heights wide (three spaces or more) before a party's section label that ends the line parts
 * the label from the text before it: a bill-to column's heading ("Rechnungsempfänger", "Bill to") set level with a
 * long sender name in the column beside it, closer than a column gap.
 */
const SECTION_LABEL_GAP = 1.0;

/** Whether `words` from `from` on spell a whole label of a party's section (supplier or customer). */
function sectionLabelTail(words: readonly Word[], from: number): boolean {
  const key = words
    .slice(from)
    .map((w) => foldForMatching(w.text))
    .join("");
  return (LABELS.get(key) ?? []).some((e) => e.role === "customer" || e.role === "supplier");
}

/** Type this much larger than the type beside it is another element of the page, not more of the same line. */
const TYPE_STEP = 1.3;

/**
 * Two words of a text layer in clearly different type sizes: a letterhead's name wrapped up to a display title in
 * larger type ("Sonnenschein Software GmbH &" then "RECHNUNG", a gap of more than the smaller type's height). OCR's
 * boxes vary with ascenders and descenders, so only a text layer's sizes tell.
 */
function typeChanges(a: Word, b: Word): boolean {
  if (a.source === "ocr" || b.source === "ocr") return false;
  const ha = a.box.y1 - a.box.y0;
  const hb = b.box.y1 - b.box.y0;
  return Math.max(ha, hb) > TYPE_STEP * Math.min(ha, hb);
}

/**
 * Splits a line's words where the gap is wider than a column gap (relative to the text height, in page units), or
 * where a few spaces part a party's section label or type of another size from the text before it.
 */
function splitAtGaps(words: Word[], pageWidth: number, pageHeight: number): Word[][] {
  const parts: Word[][] = [];
  let current: Word[] = [];
  for (const [i, word] of words.entries()) {
    const prev = current[current.length - 1];
    if (prev) {
      const gap = (word.box.x0 - prev.box.x1) * pageWidth;
      const height = Math.max(prev.box.y1 - prev.box.y0, word.box.y1 - word.box.y0) * pageHeight;
      const smaller = Math.min(prev.box.y1 - prev.box.y0, word.box.y1 - word.box.y0) * pageHeight;
      if (
        gap > 2.2 * height ||
        (gap > SECTION_LABEL_GAP * height && sectionLabelTail(words, i)) ||
        (gap > smaller && typeChanges(prev, word))
      ) {
        parts.push(current);
        current = [];
      }
    }
    current.push(word);
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

/** How much of the shorter of two segments' heights they share. */
export function levelShare(a: LineSegment, b: LineSegment): number {
  const overlap = Math.min(a.box.y1, b.box.y1) - Math.max(a.box.y0, b.box.y0);
  return overlap / Math.min(a.box.y1 - a.box.y0, b.box.y1 - b.box.y0);
}

function groupRows(segments: LineSegment[]): LineSegment[][] {
  const sorted = [...segments].sort((a, b) => a.box.y0 + a.box.y1 - (b.box.y0 + b.box.y1));
  const rows: LineSegment[][] = [];
  for (const seg of sorted) {
    const row = rows[rows.length - 1];
    const first = row?.[0];
    if (row && first) {
      if (levelShare(first, seg) > 0.5) {
        row.push(seg);
        continue;
      }
    }
    rows.push([seg]);
  }
  for (const row of rows) row.sort((a, b) => a.box.x0 - b.box.x0);
  return rows;
}

/**
 * Skew of a scanned page as dy/dx in page units, from consecutive words of the same line: a page rotated by a
 * degree or two breaks rows apart, so rows are regrouped on deskewed coordinates when the skew is noticeable.
 */
function estimateSkew(page: Page, wordsById: Map<number, Word>): number {
  const slopes: number[] = [];
  for (const line of page.lines) {
    for (let i = 1; i < line.wordIds.length; i++) {
      const a = wordsById.get(line.wordIds[i - 1] ?? -1);
      const b = wordsById.get(line.wordIds[i] ?? -1);
      if (!a || !b) continue;
      const dx = ((b.box.x0 + b.box.x1 - a.box.x0 - a.box.x1) / 2) * page.width;
      const dy = ((b.box.y0 + b.box.y1 - a.box.y0 - a.box.y1) / 2) * page.height;
      const height = (a.box.y1 - a.box.y0) * page.height;
      if (dx > height && Math.abs(dy) < 0.5 * height) slopes.push(dy / dx);
    }
  }
  return slopes.length >= 8 ? median(slopes) : 0;
}

/**
 * Rows of words on deskewed coordinates (y shifted by -slope * x), each row left to right; `dropped` left out, words
 * `isMark` tells (markBelow) placed after the print.
 */
function deskewedLines(
  page: Page,
  slope: number,
  dropped: ReadonlySet<number>,
  isMark: (word: Word) => boolean,
): Word[][] {
  const shift = (w: Word) => (slope * ((w.box.x0 + w.box.x1) / 2) * page.width) / page.height;
  const byHeight = (a: { y0: number; y1: number }, b: { y0: number; y1: number }): number =>
    a.y0 + a.y1 - (b.y0 + b.y1);
  const placed = page.words
    .filter((w) => w.text.trim() !== "" && !dropped.has(w.id))
    .map((w) => ({ word: w, y0: w.box.y0 - shift(w), y1: w.box.y1 - shift(w) }));
  // Specks and marks find their rows after the print: one placed first opens a row that the rest of a line's words
  // join, apart from the words it overlaps.
  const tier = (w: Word): number => (isSpeck(w) ? 2 : isMark(w) ? 1 : 0);
  const words = [0, 1, 2].flatMap((t) => placed.filter((w) => tier(w.word) === t).sort(byHeight));
  const rows: Array<{ top: number; bottom: number; words: Word[] }> = [];
  for (const w of words) {
    const height = w.y1 - w.y0;
    const row = rows.find((r) => {
      const overlap = Math.min(r.bottom, w.y1) - Math.max(r.top, w.y0);
      return overlap > 0.5 * Math.min(height, r.bottom - r.top) && !r.words.some((o) => sameSpot(o, w.word));
    });
    if (row) {
      row.words.push(w.word);
      row.top += (w.y0 - row.top) / row.words.length;
      row.bottom += (w.y1 - row.bottom) / row.words.length;
    } else rows.push({ top: w.y0, bottom: w.y1, words: [w.word] });
  }
  return rows.sort((a, b) => a.top - b.top).map((r) => r.words.sort((a, b) => a.box.x0 - b.box.x0));
}

/**
 * Two words of a row printed on one spot: a line read twice (a re-read, a second pass) puts each word beside its echo.
 * Neighbours whose boxes OCR let overlap by a little (a large bold name's "Redbrick" box running into "Joinery") are
 * no echoes: they share a quarter of the narrower word's width at most.
 */
function sameSpot(a: Word, b: Word): boolean {
  const shared = Math.min(a.box.x1, b.box.x1) - Math.max(a.box.x0, b.box.x0);
  return shared > 0 && shared > ECHO_SHARE * Math.min(a.box.x1 - a.box.x0, b.box.x1 - b.box.x0);
}

const ECHO_SHARE = 0.25;

/** OCR confidence under which a lone character is rather a speck of dirt or a logo's edge than print. */
const SPECK_CONFIDENCE = 0.5;

/** A rule's piece ("_", "—", "="): read alone it still parts a receipt's blocks, no speck. */
const RULE_MARK = /^[-_—–=~*.]$/;

/**
 * A character OCR read alone and doubted: a segment of nothing else (" s ", " x " beside a logo, above the sender's
 * name) is noise, no line of the page; kept, it sat in the name's row and hid the sender's block.
 */
function isSpeck(word: Word): boolean {
  const text = word.text.trim();
  return word.source === "ocr" && [...text].length === 1 && word.confidence < SPECK_CONFIDENCE && !RULE_MARK.test(text);
}

export function buildLayout(document: Document): Layout {
  const pages: PageLayout[] = [];
  const segments: LineSegment[] = [];
  const wordsById = new Map<number, Word>();
  const wordPlace = new Map<number, { segment: number; position: number }>();
  for (const page of document.pages) {
    for (const w of page.words) wordsById.set(w.id, w);
    const pageSegments: LineSegment[] = [];
    const slope = page.source === "ocr" ? estimateSkew(page, wordsById) : 0;
    // Glyphs read up the margin and marks read over print are no text of the page's lines.
    const isMark = markBelow(page.words);
    const dropped =
      page.source === "ocr"
        ? new Set([...marginGlyphs(page.words), ...ghostMarks(page.words, isMark)])
        : new Set<number>();
    const lines = (
      Math.abs(slope) > 0.004
        ? deskewedLines(page, slope, dropped, isMark)
        : page.lines.map((line) =>
            line.wordIds
              .map((id) => wordsById.get(id))
              .filter((w): w is Word => w !== undefined && w.text.trim() !== "")
              .sort((a, b) => a.box.x0 - b.box.x0),
          )
    )
      .map((line) => line.filter((w) => !dropped.has(w.id)))
      .filter((line) => line.length > 0);
    const deskew = (b: Box): Box => {
      const shift = (slope * ((b.x0 + b.x1) / 2) * page.width) / page.height;
      return { x0: b.x0, x1: b.x1, y0: b.y0 - shift, y1: b.y1 - shift };
    };
    for (const words of lines) {
      for (const part of splitAtGaps(words, page.width, page.height)) {
        if (part.every(isSpeck)) continue;
        const text = part.map((w) => w.text).join(" ");
        pageSegments.push({
          index: -1,
          pageNum: page.pageNum,
          words: part,
          folded: part.map((w) => foldForMatching(w.text)),
          text,
          // Geometry for reasoning is deskewed; the words keep their own boxes for the output.
          box: unionBox(part.map((w) => (slope === 0 ? w.box : deskew(w.box)))),
          height: median(part.map((w) => w.box.y1 - w.box.y0)),
          row: -1,
        });
      }
    }
    const rows = groupRows(pageSegments);
    rows.forEach((row, r) => {
      for (const seg of row) seg.row = r;
    });
    const ordered = rows.flat();
    for (const seg of ordered) {
      seg.index = segments.length;
      segments.push(seg);
      seg.words.forEach((w, position) => {
        wordPlace.set(w.id, { segment: seg.index, position });
      });
    }
    pages.push({
      pageNum: page.pageNum,
      aspect: page.height > 0 ? page.width / page.height : 1,
      width: page.width,
      height: page.height,
      segments: ordered,
      rows,
      medianHeight: median(ordered.flatMap((s) => s.words.map((w) => w.box.y1 - w.box.y0))),
    });
  }
  return { pages, segments, wordsById, wordPlace };
}

/** All text of the document, line by line, for language detection and document-level cues. */
export function fullText(layout: Layout): string {
  return layout.pages.map((p) => p.rows.map((r) => r.map((s) => s.text).join("  ")).join("\n")).join("\n\f");
}
