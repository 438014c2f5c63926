/**
 * Whether two lines are printed in one type size. A text layer gives every word of a font its font's height, so
 * their heights compare as they are. OCR's boxes hug the ink: "Evergreen Supply" (capitals and descenders) is 69 px
 * tall where "Co. Inc.", wrapped under it in the same type, is 48 px, and "mma Anderson" is as tall as the smaller
 * sender line over it that has descenders. An OCR'd word's height is divided by the share of the type's height its
 * letters reach (capitals, digits and ascenders up to ~0.74 em, x-height letters ~0.55 em; descenders another ~0.23
 * em below). On scans of HTML-printed letters this put "Co. Inc." within 11 % of the "Evergreen Supply" it continues
 * (ink 44 % apart) and an addressee's name set a size larger 21 % from the sender line over it; it is no fine
 * measure: another display name's wrapped legal form came out 15 % apart, just past OCR_TOLERANCE.
 */
import { median } from "../document/median.js";
import type { Word } from "../document/model.js";
import type { LineSegment } from "./layout.js";

const REACHES_CAP = /[\p{Lu}\p{N}bdfhkltß!?#%&@$]|[ij]/u;
const X_HEIGHT = /\p{Ll}/u;
const DESCENDS = /[gjpqy()[\]{}|]/;
/** Heights in em of the top of capitals and ascenders, of the x-height, and the depth of descenders. */
const CAP = 0.74;
const X = 0.55;
const DESCENDER = 0.23;

/** Tolerance of a text layer's heights (one font size) and of OCR'd type sizes (estimated from the ink). */
const LAYER_TOLERANCE = 0.1;
const OCR_TOLERANCE = 0.15;
/** An OCR'd word whose type size is this many times a smaller word's of its line was stretched (printedHeight). */
const STRETCHED = 1.4;

/** A word's type size (its em) from its ink height and letters; null for marks with no letter or digit. */
function wordTypeSize(word: Word): number | null {
  const top = REACHES_CAP.test(word.text) ? CAP : X_HEIGHT.test(word.text) ? X : null;
  if (top === null) return null;
  return (word.box.y1 - word.box.y0) / (top + (DESCENDS.test(word.text) ? DESCENDER : 0));
}

/** A line's type size from its OCR'd words (page-height ratio), or null when none gives one. */
function ocrTypeSize(seg: LineSegment): number | null {
  const sizes = seg.words.map(wordTypeSize).filter((s): s is number => s !== null);
  return sizes.length > 0 ? median(sizes) : null;
}

/**
 * A line's height as its print shows it. A text layer's, and most OCR'd lines', is its words' median height; but on a
 * skewed page tesseract's single-block reading can stretch a word's box over the neighbouring column's line ("Muster"
 * 40 px tall beside "GmbH" 20 px, the addressee of a window letter turned by 0.8°, which then stood out as display
 * type). An OCR'd line is no taller than the type size (at capital height) of its words that agree with its smallest
 * one; a word stretched past that is left out.
 */
export function printedHeight(seg: LineSegment): number {
  if (!seg.words.some((w) => w.source === "ocr")) return seg.height;
  const sizes = seg.words.map(wordTypeSize).filter((s): s is number => s !== null);
  if (sizes.length === 0) return seg.height;
  const smallest = Math.min(...sizes);
  return Math.min(seg.height, CAP * median(sizes.filter((s) => s <= STRETCHED * smallest)));
}

/** Whether `a` is printed in the type size of `b`. */
export function sameTypeSize(a: LineSegment, b: LineSegment): boolean {
  const read = a.words.some((w) => w.source === "ocr") || b.words.some((w) => w.source === "ocr");
  const sizeA = read ? ocrTypeSize(a) : null;
  const sizeB = read ? ocrTypeSize(b) : null;
  if (sizeA !== null && sizeB !== null) return Math.abs(sizeA - sizeB) <= OCR_TOLERANCE * sizeB;
  return Math.abs(a.height - b.height) <= LAYER_TOLERANCE * b.height;
}

/** Characters a line holds at least for its width per character to say its type's size. */
const PITCH_MIN_CHARS = 8;
/** A line whose width per character is at most this share of the page's typical line's is set in smaller type. */
const NARROWER = 0.85;

/** Width (page-width ratio) per printed character, spaces counted, of a line long enough to tell; else null. */
function pitch(seg: LineSegment): number | null {
  const chars = [...seg.text].length;
  return chars >= PITCH_MIN_CHARS ? (seg.box.x1 - seg.box.x0) / chars : null;
}

/**
 * Whether an OCR'd line is set in smaller type than most of its page's lines, told by the width its characters take
 * rather than by its boxes' heights: on a page levelled before reading, tesseract can give a small line's words boxes
 * half again as tall as the larger type under it (a sender line over the address window read 29-35 px against the
 * address's 21-23 px), while the widths it measures hold. False for a text layer (its heights are its fonts').
 */
export function narrowerThanText(seg: LineSegment, page: { segments: readonly LineSegment[] }): boolean {
  if (!seg.words.some((w) => w.source === "ocr")) return false;
  const own = pitch(seg);
  const pitches = page.segments.map(pitch).filter((p): p is number => p !== null);
  return own !== null && pitches.length > 0 && own <= NARROWER * median(pitches);
}
