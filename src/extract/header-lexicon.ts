/**
 * The repair of header words OCR misread by one letter against the vocabulary of a business header (trade words,
 * street words, places: vocabulary/header-words.ts): "Bahtu" -> "Bahru", "dalan" -> "Jalan", "LKAWASAN" ->
 * "KAWASAN". A header's name and address are compared letter for letter, and one wrong letter in a common word loses
 * the whole field.
 *
 * The lists are English and Malay words and the places of Malaysia, whose receipts the development corpus holds.
 * Only words OCR doubted are repaired, only to a word one edit away, only when exactly one
 * word is that close, and only on documents in English or Malay (or in no language told): "Markt" on a German
 * receipt is no misread "Market".
 *
 * On the 120 receipts of receipts-dev (bench/ocr-variants.ts, variant crop-reread) this took F1 from 0.844 to 0.855
 * (names 0.803 -> 0.821, addresses 0.655 -> 0.682). Repairing every word, however surely read, cost names (0.744:
 * "KEDAI" -> "KEDAH" until Malay trade words were listed, "RESTAURANTS" -> "RESTAURANT" until plurals were kept);
 * repairing only words below 0.9 instead of 0.95 gave 0.853.
 */
import type { Word } from "../document/model.js";
import { ADDRESS_WORDS, PLACE_NAMES, TRADE_WORDS } from "./vocabulary/header-words.js";

/** Words shorter than this are one edit from too many others ("Part", "Mart", "Park") to repair or repair to. */
const MIN_LENGTH = 5;

const TRADE: ReadonlySet<string> = new Set(Object.values(TRADE_WORDS).flat());

const LEXICON: ReadonlySet<string> = new Set(
  [...TRADE, ...Object.values(ADDRESS_WORDS).flat(), ...PLACE_NAMES].filter((w) => w.length >= MIN_LENGTH),
);
/** A word OCR read at least this surely is left as read. */
const SURE = 0.95;

/**
 * Whether `a` and `b` are at most one edit (insertion, deletion or substitution) apart. Stricter than labels.ts's
 * fuzzyIndex, which also pairs words that each lose a different letter ("Alain" and "Jalan" both give "alan"): a
 * header word is a name, and two edits make another one.
 */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** `target` written in the case pattern of `model`: UPPER, Capitalised or lower. */
function inCaseOf(model: string, target: string): string {
  if (model === model.toUpperCase()) return target.toUpperCase();
  if (model[0] === model[0]?.toUpperCase()) return target[0]?.toUpperCase() + target.slice(1);
  return target;
}

/** Whether `word` (any case) names a trade or a kind of business, in the singular or the plural. */
export function isTradeWord(word: string): boolean {
  const lower = word.toLowerCase();
  return TRADE.has(lower) || TRADE.has(singular(lower));
}

/** Languages whose header words the lexicon holds; null: the language could not be told. */
const LEXICON_LANGUAGES: ReadonlySet<string | null> = new Set(["en", "ms", "id", null]);

/** The repair for a document in `language`: repairHeaderWord where the lexicon is that language's, else none. */
export function headerRepairFor(language: string | null): (word: Word) => Word {
  return LEXICON_LANGUAGES.has(language) ? repairHeaderWord : (word) => word;
}

/** "restaurants" -> "restaurant": a plural of a header word is a header word, not a misreading of one. */
function singular(word: string): string {
  return word.endsWith("s") ? word.slice(0, -1) : word;
}

/** The lexicon word one edit from `core` (lower case letters), when there is exactly one. */
function nearest(core: string): string | null {
  let found: string | null = null;
  for (const entry of LEXICON) {
    if (!withinOneEdit(core, entry) || singular(entry) === core) continue;
    if (found !== null) return null;
    found = entry;
  }
  return found;
}

/**
 * `word` with each run of letters repaired to a header word one edit away, when OCR doubted the word and exactly one
 * such word exists; punctuation and digits around the letters stay ("Bahtu,Johor" -> "Bahru,Johor"). Otherwise
 * `word` itself.
 */
export function repairHeaderWord(word: Word): Word {
  if (word.confidence >= SURE) return word;
  const text = word.text.replace(/\p{L}+/gu, (letters) => {
    const core = letters.toLowerCase();
    if (core.length < MIN_LENGTH || LEXICON.has(core) || LEXICON.has(singular(core))) return letters;
    const entry = nearest(core);
    return entry ? inCaseOf(letters, entry) : letters;
  });
  return text === word.text ? word : { ...word, text };
}
