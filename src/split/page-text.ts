/** A page's lines as text with their vertical place: what the split features read. */
import type { Page } from "../document/model.js";

export interface PageLine {
  text: string;
  /** Top and bottom of the line as page ratios (0 = top). */
  y0: number;
  y1: number;
  /** Left and right ends as page ratios. */
  x0: number;
  x1: number;
}

/** Lines in reading order; words the line list misses are ignored (ingest puts every word in a line). */
export function pageLines(page: Page): PageLine[] {
  const byId = new Map(page.words.map((w) => [w.id, w]));
  const lines: PageLine[] = [];
  for (const line of page.lines) {
    const words = line.wordIds.map((id) => byId.get(id)).filter((w) => w !== undefined);
    const text = words
      .map((w) => w.text)
      .join(" ")
      .trim();
    if (text === "") continue;
    lines.push({ text, y0: line.box.y0, y1: line.box.y1, x0: line.box.x0, x1: line.box.x1 });
  }
  return lines;
}

/** Words that carry content: two letters or digits at least (OCR specks and rules are not content). */
export function contentWordCount(page: Page): number {
  let n = 0;
  for (const w of page.words) if ((w.text.match(/[\p{L}\d]/gu) ?? []).length >= 2) n += 1;
  return n;
}
