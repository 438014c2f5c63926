/**
 * Marks OCR read on top of print: an accent read apart from its letter ("ax" over the "è" of "Rivière"), a speck or
 * a rule's end read as "=" or ":" over a name. Each lies on the spot of a word at least three times its height, and
 * is far smaller than the page's text. Kept, it takes the line's place when rows are formed (the print beside it, on
 * the same spot, cannot join it) and cuts a name into pieces ("Harbourside" | "Consulting" | ": Pty Ltd"), or reads
 * into it ("Conseil = Riviere = ax SAS"). The print under it is read already: the mark is no text of the page.
 * Punctuation between words ("-", ".", ",") is as small but stands beside the words, on no word's spot, and stays.
 */
import { median } from "../document/median.js";
import type { Word } from "../document/model.js";

/** A mark is shorter than this share of the page's median word ("=", ":", "ax": 4 to 12 px beside 23 px text). */
const MARK_HEIGHT = 0.6;
/** The word a ghost lies on is at least this many times its height (a 46 px name under a 12 px "ax"). */
const PRINT_RATIO = 3;
/** Share of the mark's width that lies over the word. */
const OVER_SHARE = 0.5;

const height = (w: Word): number => w.box.y1 - w.box.y0;

/** Whether `mark` lies within `word`'s box: most of its width over it, and between its top and bottom. */
function liesOn(mark: Word, word: Word): boolean {
  const shared = Math.min(mark.box.x1, word.box.x1) - Math.max(mark.box.x0, word.box.x0);
  const middle = (mark.box.y0 + mark.box.y1) / 2;
  return shared > OVER_SHARE * (mark.box.x1 - mark.box.x0) && middle > word.box.y0 && middle < word.box.y1;
}

/** Whether an OCR word of the page of `words` is as small as a mark (punctuation, an accent, a speck). */
export function markBelow(words: readonly Word[]): (word: Word) => boolean {
  const read = words.filter((w) => w.source === "ocr" && w.text.trim() !== "");
  const limit = MARK_HEIGHT * median(read.map(height));
  return (word) => word.source === "ocr" && height(word) < limit;
}

/**
 * Ids of the OCR words of one page that are marks read over a taller word of it (none on a text layer); `isMark` is
 * markBelow(words).
 */
export function ghostMarks(words: readonly Word[], isMark: (word: Word) => boolean): Set<number> {
  const ghosts = new Set<number>();
  const read = words.filter((w) => w.source === "ocr" && w.text.trim() !== "");
  for (const mark of read) {
    if (!isMark(mark)) continue;
    if (read.some((word) => word !== mark && height(word) >= PRINT_RATIO * height(mark) && liesOn(mark, word)))
      ghosts.add(mark.id);
  }
  return ghosts;
}
