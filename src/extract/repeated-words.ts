/**
 * The repair of a header word against the same word printed elsewhere on the document: a receipt names its shop more
 * than once (a header, an "Owned by" line, a web or social address in the footer), and OCR does not misread every copy
 * the same way. "SANYO STATIONERY SHOP" (read at 0.95) on a receipt that also prints "SANYU SUPPLY SDN BHD" (1.00) and
 * "Sanyu.Stationery" is the SANYU of the other two.
 *
 * A run of letters of the header is put right to another reading when that reading is printed at least twice
 * elsewhere (two copies against one), one letter away (a substitution), one copy read surely; the run itself printed
 * nowhere else; no other reading as close; the run no word of the header vocabulary (a printed "TAMAN" is no misread
 * "LAMAN" however often the receipt says LAMAN). Text-layer words are what their producer wrote and are left as they
 * are.
 */
import type { Word } from "../document/model.js";
import { inCaseOf, isHeaderWord } from "./receipt-repair.js";

/** Runs of letters shorter than this are one letter from too many other words. */
const MIN_LETTERS = 4;

/** The best of the other copies must be read at least this surely. */
const SURE = 0.9;

/** How often a run of letters is printed on the document (upper case) and how surely its best copy was read. */
interface Reading {
  count: number;
  confidence: number;
}

function letterRuns(text: string): string[] {
  return [...text.matchAll(/\p{L}+/gu)].map((m) => m[0].toUpperCase()).filter((run) => run.length >= MIN_LETTERS);
}

/** Whether `a` and `b` (same length) differ in exactly one letter. */
function oneSubstitution(a: string, b: string): boolean {
  if (a.length !== b.length || a === b) return false;
  let differences = 0;
  for (let i = 0; i < a.length && differences < 2; i++) if (a[i] !== b[i]) differences++;
  return differences === 1;
}

/** The repair of a word against the other words of `words` (the document's): see the file comment. */
export function repairFromRepeats(words: readonly Word[]): (word: Word) => Word {
  // Per run, the readings of every word; a word's own run is left out of its count when it is looked up.
  const byRun = new Map<string, { ids: Set<number>; confidence: number }>();
  for (const w of words) {
    for (const run of letterRuns(w.text)) {
      const entry = byRun.get(run) ?? { ids: new Set<number>(), confidence: 0 };
      entry.ids.add(w.id);
      entry.confidence = Math.max(entry.confidence, w.confidence);
      byRun.set(run, entry);
    }
  }
  const elsewhere = (run: string, id: number): Reading => {
    const entry = byRun.get(run);
    if (!entry) return { count: 0, confidence: 0 };
    return { count: entry.ids.size - (entry.ids.has(id) ? 1 : 0), confidence: entry.confidence };
  };
  return (word) => {
    if (word.source !== "ocr") return word;
    let changed = false;
    const text = word.text.replace(/\p{L}+/gu, (letters) => {
      const run = letters.toUpperCase();
      if (run.length < MIN_LETTERS || isHeaderWord(run) || elsewhere(run, word.id).count > 0) return letters;
      let found: string | null = null;
      for (const other of byRun.keys()) {
        if (!oneSubstitution(run, other)) continue;
        if (found !== null) return letters;
        found = other;
      }
      if (found === null) return letters;
      const reading = elsewhere(found, word.id);
      if (reading.count < 2 || reading.confidence < SURE) return letters;
      changed = true;
      return inCaseOf(letters, found);
    });
    return changed ? { ...word, text } : word;
  };
}
