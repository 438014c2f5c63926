/**
 * Text printed up the page's margin (a form's imprint, "Copyright ... 2013" running along the left edge) that OCR,
 * reading the page's lines across, reads glyph by glyph: a column of lone characters (or pairs), one on each line
 * ("2", "S", "3", "=", "Hf", ...). Kept, each joins the line beside it, and "S Wirkarbeit HT" or "8 2001015001325"
 * is what a table's row or a field reads. Such a column stands apart from the page's print: it lies wholly beyond
 * every other word (left of them all, or right of them all), its characters are centred on one vertical, and they
 * are many different characters, not all digits (a quantity column of "1"s and a column of tax codes stay).
 */
import { median } from "../document/median.js";
import type { Word } from "../document/model.js";

/** Characters of a glyph word: one, or two OCR read as one word ("Hf"). */
const MAX_GLYPHS = 2;
/** Fewest lone characters stacked in one margin that make a column of upright glyphs rather than a few specks. */
const MIN_GLYPHS = 6;
/** Centres of one column's glyphs lie within this many median glyph widths of the column's median centre. */
const CENTRE_SPREAD = 1.5;
/** Share of the column's glyphs that are no digit: vertical words read across give letters and signs among digits. */
const MIN_NON_DIGITS = 0.3;
/**
 * Share of the column's glyphs that differ from one another: words read glyph by glyph give many characters, while a
 * column of tax codes printed after a receipt's amounts ("S", "Z", "S") repeats a few.
 */
const MIN_DISTINCT_SHARE = 0.4;

/** A glyph or two read as a word: what OCR makes of each line's share of text running up the margin. */
const lone = (w: Word): boolean => w.source === "ocr" && [...w.text.trim()].length <= MAX_GLYPHS;

/** The glyphs of `candidates` (lone characters beyond all other print) that stand on one vertical, or none. */
function column(candidates: readonly Word[]): Word[] {
  if (candidates.length < MIN_GLYPHS) return [];
  const centre = (w: Word): number => (w.box.x0 + w.box.x1) / 2;
  const middle = median(candidates.map(centre));
  const width = median(candidates.map((w) => w.box.x1 - w.box.x0));
  const stacked = candidates.filter((w) => Math.abs(centre(w) - middle) <= CENTRE_SPREAD * Math.max(width, 1e-4));
  if (stacked.length < MIN_GLYPHS) return [];
  const nonDigits = stacked.filter((w) => !/\d/.test(w.text)).length;
  const distinct = new Set(stacked.map((w) => w.text.trim())).size;
  return nonDigits >= MIN_NON_DIGITS * stacked.length && distinct >= MIN_DISTINCT_SHARE * stacked.length ? stacked : [];
}

/**
 * Ids of the words of an OCR'd page that are margin text read glyph by glyph (see the file's comment), to be left out
 * of its lines; none on a text layer's page.
 */
export function marginGlyphs(words: readonly Word[]): Set<number> {
  const glyphs = words.filter(lone);
  if (glyphs.length < MIN_GLYPHS) return new Set();
  const print = words.filter((w) => !lone(w) && w.text.trim() !== "");
  if (print.length === 0) return new Set();
  const leftmost = Math.min(...print.map((w) => w.box.x0));
  const rightmost = Math.max(...print.map((w) => w.box.x1));
  const left = column(glyphs.filter((w) => w.box.x1 <= leftmost));
  const right = column(glyphs.filter((w) => w.box.x0 >= rightmost));
  return new Set([...left, ...right].map((w) => w.id));
}
