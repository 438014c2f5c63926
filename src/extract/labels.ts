/**
 * The label table: the label phrases of vocabulary/label-phrases.ts folded into one lookup (spaces and punctuation
 * removed, so "Sub-Total", "SUB TOTAL" and "Subtotal:" are one entry), and the repair of label words OCR garbled.
 * Longer and closer matches win over shorter ones, which is how "total tax" beats "total" and "sub total" beats
 * "total".
 */
import { foldForMatching } from "./text.js";
import { LABEL_PHRASES, type LabelRole } from "./vocabulary/label-phrases.js";

export type { LabelRole };

export interface LabelEntry {
  role: LabelRole;
  weight: number;
  /** Number of words the phrase had, used to prefer the more specific of two matches ending at the same word. */
  words: number;
}

function compile(): Map<string, LabelEntry[]> {
  const map = new Map<string, LabelEntry[]>();
  for (const [role, phrases] of Object.entries(LABEL_PHRASES) as Array<[LabelRole, readonly string[]]>) {
    for (const phrase of phrases) {
      const [text = "", weightText] = phrase.split("|");
      const key = foldForMatching(text);
      if (!key) continue;
      const entry: LabelEntry = {
        role,
        weight: weightText ? Number(weightText) : 1,
        words: text.trim().split(/[\s\-/]+/).length,
      };
      const list = map.get(key) ?? [];
      if (!list.some((e) => e.role === role)) list.push(entry);
      map.set(key, list);
    }
  }
  return map;
}

/** Folded phrase -> roles it can label. */
export const LABELS: ReadonlyMap<string, readonly LabelEntry[]> = compile();

/** Longest phrase in characters after folding: bounds the backwards walk over words. */
export const MAX_LABEL_CHARS = Math.max(...[...LABELS.keys()].map((k) => k.length));

/** Roles whose label words OCR often garbles on till receipts ("POTAL", "FOUNDING ADJUSTMENT", "CASK"). */
const FUZZY_ROLES: ReadonlySet<LabelRole> = new Set([
  "total",
  "subtotal",
  "tax",
  "amountDue",
  "cash",
  "change",
  "rounding",
  "discount",
  "invoiceDate",
  "genericDate",
]);

function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** Folded words of the label phrases of `roles` that `keep` accepts. */
function labelWords(roles: ReadonlySet<LabelRole>, keep: (word: string) => boolean): Set<string> {
  const words = new Set<string>();
  for (const [role, phrases] of Object.entries(LABEL_PHRASES) as Array<[LabelRole, readonly string[]]>) {
    if (!roles.has(role)) continue;
    for (const phrase of phrases) {
      for (const w of (phrase.split("|")[0] ?? "").split(/\s+/).map(foldForMatching)) if (keep(w)) words.add(w);
    }
  }
  return words;
}

/**
 * Index of one-edit variants -> word for the words given. One deletion on both sides covers a dropped, an added and
 * a substituted character; a variant two words share is dropped, so only unambiguous readings are corrected.
 */
export function fuzzyIndex(
  words: Iterable<string>,
  variants: (word: string) => string[] = (word) => [word, ...deletions(word)],
): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  const ambiguous = new Set<string>();
  for (const word of words) {
    for (const variant of variants(word)) {
      const seen = map.get(variant);
      if (seen !== undefined && seen !== word) ambiguous.add(variant);
      else map.set(variant, word);
    }
  }
  for (const variant of ambiguous) map.delete(variant);
  return map;
}

/** The indexed word `word` is one edit away from, or `word` itself; words under 5 letters collide too often. */
export function nearestWord(word: string, index: ReadonlyMap<string, string>): string {
  if (word.length < 5 || index.has(word)) return index.get(word) ?? word;
  for (const variant of deletions(word)) {
    const hit = index.get(variant);
    if (hit && Math.abs(hit.length - word.length) <= 1) return hit;
  }
  return word;
}

/** Label words (5+ letters) of the roles OCR garbles; shorter ones collide with ordinary words. */
const FUZZY = fuzzyIndex(labelWords(FUZZY_ROLES, (w) => w.length >= 5));

/** Whole label phrases (folded, words run together) of the roles OCR garbles, 7+ letters: "totalttc", "montantht". */
const FUZZY_PHRASES = fuzzyIndex(
  [...LABELS]
    .filter(([key, entries]) => key.length >= 7 && entries.some((e) => FUZZY_ROLES.has(e.role)))
    .map(([k]) => k),
);

/**
 * The label a run of words read by OCR most likely is when it is none as read: one character off a whole label
 * phrase of 7+ letters ("TOTALTIC", "TOTAL TIC": "total ttc" with its "T" read as "I"). Null when none is that near.
 */
export function nearLabel(folded: string): readonly LabelEntry[] | null {
  if (folded.length < 7) return null;
  const hit = nearestWord(folded, FUZZY_PHRASES);
  return hit === folded ? null : (LABELS.get(hit) ?? null);
}

/**
 * The customer's section headings ("Bill to", "Rechnung an", "Facturer à"), folded, 6+ letters. The supplier's are
 * left out: "LIEFERN AN" (ship to) is one letter off "Lieferant" once a letter is dropped.
 */
const CUSTOMER_HEADINGS = fuzzyIndex(
  [...LABELS].filter(([key, entries]) => key.length >= 6 && entries.some((e) => e.role === "customer")).map(([k]) => k),
);

/**
 * The customer's section heading a line OCR read is when it is none as read: a character lost or a speck added ("B IL
 * TO" for "BILL TO", white letters on a coloured band). Null when none is that near. A character read as another is
 * not enough: "FACTURE o." (a title and a speck) is one letter off "Facturé à".
 */
export function nearCustomerHeading(folded: string): readonly LabelEntry[] | null {
  const hit = nearestWord(folded, CUSTOMER_HEADINGS);
  return hit === folded || hit.length === folded.length ? null : (LABELS.get(hit) ?? null);
}

/**
 * Four-letter date label words ("date", "data"), corrected only by one substituted letter ("Cate:", "Hate:") and only
 * when the caller has seen a date beside the word: "Mate" or "Rate" on their own are words, not damaged labels.
 */
const SHORT_DATE_WORDS = fuzzyIndex(
  labelWords(new Set<LabelRole>(["invoiceDate", "genericDate"]), (w) => /^\p{L}{4}$/u.test(w)),
  substitutions,
);

/** The word with each letter in turn replaced by "?". */
function substitutions(word: string): string[] {
  return [...word].map((_, i) => `${word.slice(0, i)}?${word.slice(i + 1)}`);
}

/**
 * The label word an OCR-damaged word most likely is: one substituted, dropped or added character ("potal" ->
 * "total", "founding" -> "rounding"). Words that are labels already, or short, are returned unchanged, except that
 * with `beforeDate` a four-letter word one letter off a date label is read as it ("cate" -> "date").
 */
export function correctLabelWord(word: string, beforeDate = false): string {
  // Beside a date, "Cate" is a date label before it is a "carte" missing its "r".
  const dateWord = beforeDate && !LABELS.has(word) ? shortDateWord(word) : null;
  if (dateWord) return dateWord;
  for (const reading of letterReadings(word)) {
    const hit = nearestLabelWord(reading);
    if (hit !== reading || (reading !== word && LABELS.has(reading))) return hit;
  }
  return word;
}

function shortDateWord(word: string): string | null {
  if (word.length !== 4) return null;
  for (const variant of substitutions(word)) {
    const hit = SHORT_DATE_WORDS.get(variant);
    if (hit) return hit;
  }
  return null;
}

/**
 * The word as printed, then with the digits OCR reads for look-alike letters turned back ("t0ta1" -> "total",
 * "5ubt0tal" -> "subtotal"); "1" stands for "l" or "i". Only words that are mostly letters are label words.
 */
function letterReadings(word: string): string[] {
  if (!/[0158]/.test(word) || (word.match(/[a-z]/g) ?? []).length < 3) return [word];
  const shared = (text: string) => text.replace(/0/g, "o").replace(/5/g, "s").replace(/8/g, "b");
  return [word, shared(word.replace(/1/g, "l")), shared(word.replace(/1/g, "i"))];
}

function nearestLabelWord(word: string): string {
  return LABELS.has(word) ? (FUZZY.get(word) ?? word) : nearestWord(word, FUZZY);
}
