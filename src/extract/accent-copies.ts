/**
 * OCR drops the accents of a name set in display type ("Groupe Lefevre SA" in a letterhead) that it reads right where
 * the page prints the name again in body type ("Chèques à l'ordre de Groupe Lefèvre SA"). A name's word read without
 * accents takes the accented spelling of a surely read copy of the same word elsewhere on the page: same letters once
 * accents are folded (foldForMatching), and no other accented spelling of them read as surely. Text layers are left as
 * printed.
 */
import { type FieldDecision, withOcrRepair } from "./decision.js";
import type { Layout } from "./layout.js";
import { foldForMatching } from "./text.js";

/** How surely a copy must be read to lend its accents. */
const SURE = 0.8;

const ACCENTED = /[\u00C0-\u024F]/u;

/**
 * The accented spellings surely read on the page, by their letters folded (a spelling read two ways lends none):
 * computed once per document and shared by the names that ask.
 */
export function accentedCopies(layout: Layout): ReadonlyMap<string, string> {
  const copies = new Map<string, string>();
  const ambiguous = new Set<string>();
  for (const word of layout.wordsById.values()) {
    const text = word.text.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, "");
    if (word.confidence < SURE || !ACCENTED.test(text) || text.length < 3) continue;
    const key = foldForMatching(text);
    const seen = copies.get(key);
    if (seen !== undefined && seen.toLowerCase() !== text.toLowerCase()) ambiguous.add(key);
    else copies.set(key, text);
  }
  for (const key of ambiguous) copies.delete(key);
  return copies;
}

/** Keeps the case of `read` ("LEFEVRE" -> "LEFÈVRE", "Lefevre" -> "Lefèvre") in the accented spelling `copy`. */
function inCaseOf(read: string, copy: string): string {
  if (read === read.toUpperCase()) return copy.toUpperCase();
  if (read[0] === read[0]?.toUpperCase() && read.slice(1) === read.slice(1).toLowerCase()) {
    return copy.charAt(0).toUpperCase() + copy.slice(1).toLowerCase();
  }
  return copy;
}

/**
 * The name decision with the accents of its words' surely read copies put back (OCR readings only). `copiesOf` gives
 * accentedCopies' map, asked only for a name OCR read.
 */
export function withAccentsFromCopies(
  decision: FieldDecision,
  copiesOf: () => ReadonlyMap<string, string>,
): FieldDecision {
  if (!decision.best?.words.some((w) => w.source === "ocr")) return decision;
  const copies = copiesOf();
  if (copies.size === 0) return decision;
  return withOcrRepair(decision, (value) =>
    value.replace(/\p{L}{3,}/gu, (word) => {
      if (ACCENTED.test(word)) return word;
      const copy = copies.get(foldForMatching(word));
      return copy === undefined ? word : inCaseOf(word, copy);
    }),
  );
}
