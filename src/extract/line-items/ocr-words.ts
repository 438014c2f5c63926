/**
 * Words OCR misread, matched to the nearest word of a small vocabulary (the table-header words): OCR's usual
 * confusions (rn/m, vv/w, ii/ü, l/1/I, O/0, S/5, ó/6, B/8) cost nothing, other edits are allowed by the word's length
 * (one from five letters, two from eight, three from twelve). Accents are folded before (line-items/fold.ts).
 */

/** Digits OCR reads for the letters they look like; "i" and "l" are one stroke. */
const GLYPHS: Readonly<Record<string, string>> = { "0": "o", "1": "l", i: "l", "5": "s", "6": "o", "8": "b" };

/** A folded word with OCR's look-alike glyphs made one: "kuantlt1" and "kuantiti" read alike. */
export function glyphForm(word: string): string {
  return word
    .replace(/rn/g, "m")
    .replace(/vv/g, "w")
    .replace(/ii/g, "u")
    .replace(/[0156i8]/g, (c) => GLYPHS[c] ?? c);
}

/** Edits allowed between two words whose longer glyph form has `length` letters. */
export function editBound(length: number): number {
  return length >= 12 ? 3 : length >= 8 ? 2 : length >= 5 ? 1 : 0;
}

/** Rows of the edit-distance table, reused (words are short: longer ones are compared in fresh arrays). */
const ROW_A = new Int32Array(64);
const ROW_B = new Int32Array(64);

/** Edit distance of two short words, stopping early beyond `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const long = b.length >= ROW_A.length;
  let previous = long ? new Int32Array(b.length + 1) : ROW_A;
  let row = long ? new Int32Array(b.length + 1) : ROW_B;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      const v = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      row[j] = v;
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    [previous, row] = [row, previous];
  }
  return previous[b.length] ?? max + 1;
}

/**
 * A vocabulary to match misread words against: each word with a key naming what it means (words of one key are
 * interchangeable; two nearest words of different keys leave a misreading unresolved).
 */
export class OcrVocabulary {
  /** Glyph forms by length: the candidates of a word are those within its bound in length. */
  private readonly byLength = new Map<number, { word: string; form: string; key: string }[]>();
  private readonly known: ReadonlySet<string>;
  private readonly memo = new Map<string, string | null>();

  constructor(words: ReadonlyMap<string, string>) {
    this.known = new Set(words.keys());
    for (const [word, key] of words) {
      const form = glyphForm(word);
      const list = this.byLength.get(form.length) ?? [];
      list.push({ word, form, key });
      this.byLength.set(form.length, list);
    }
  }

  /**
   * The vocabulary word a folded word is a misreading of, or null: the word itself when known; else the nearest word
   * within the bound, when the nearest of different keys are not as near. Words of fewer than three letters, or with
   * fewer than two letters among them, are not guessed at.
   */
  nearest(word: string): string | null {
    if (this.known.has(word)) return word;
    if (word.length < 3 || (word.match(/\p{L}/gu)?.length ?? 0) < 2) return null;
    const cached = this.memo.get(word);
    if (cached !== undefined) return cached;
    const form = glyphForm(word);
    let best: { word: string; key: string } | null = null;
    let bestDistance = Number.POSITIVE_INFINITY;
    let tie = false;
    const reach = editBound(form.length + 3);
    for (let length = Math.max(1, form.length - reach); length <= form.length + reach; length++) {
      for (const candidate of this.byLength.get(length) ?? []) {
        const max = editBound(Math.max(form.length, candidate.form.length));
        const d = editDistance(form, candidate.form, Math.min(max, bestDistance));
        if (d > max || d > bestDistance) continue;
        if (d < bestDistance) {
          best = candidate;
          bestDistance = d;
          tie = false;
        } else if (best !== null && candidate.key !== best.key) tie = true;
      }
    }
    const found = best === null || tie ? null : best.word;
    if (this.memo.size > 5000) this.memo.clear();
    this.memo.set(word, found);
    return found;
  }
}
