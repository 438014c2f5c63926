/**
 * The repair of header words OCR read as other glyphs of the same shape ("rn" for "m", "in" for "m", "l" for "i"),
 * against the vocabulary of a business header (vocabulary/header-words.ts): a shop's street and town are compared
 * letter for letter with the labels, and one such misreading loses the whole address. header-lexicon.ts repairs
 * doubtful words one edit away; this repairs surely read words that are no header word but one glyph confusion from
 * exactly one.
 *
 * On receipts-train (250 receipts, the corpus looked at) it put right a net 4 more addresses; on receipts-dev
 * (aggregate only) a net 2 more. "F" read for "P" ("Fetaling") and premises words before a number ("Nc 8", "Bik 2")
 * came later: receipts-train's addresses 0.763 -> 0.767 out of fold, receipts-dev's unchanged (0.705).
 */
import type { Word } from "../document/model.js";
import { ADDRESS_WORDS, PLACE_NAMES, TRADE_WORDS } from "./vocabulary/header-words.js";

/** Header words: left as read, and what a misread word is put right to. */
const KNOWN: ReadonlySet<string> = new Set(
  [...Object.values(TRADE_WORDS).flat(), ...Object.values(ADDRESS_WORDS).flat(), ...PLACE_NAMES].map((w) =>
    w.toUpperCase(),
  ),
);

/** Whether `word` (upper case) is a word of the header vocabulary: a trade, street or place word. */
export function isHeaderWord(word: string): boolean {
  return KNOWN.has(word);
}

/** Shorter words are one edit from too many others. */
const MIN_LETTERS = 4;

/** `target` in the case of `model`: UPPER, lower or Capitalised. */
export function inCaseOf(model: string, target: string): string {
  if (model === model.toUpperCase()) return target.toUpperCase();
  if (model === model.toLowerCase()) return target.toLowerCase();
  return target.charAt(0).toUpperCase() + target.slice(1).toLowerCase();
}

/**
 * Glyph groups OCR reads for one another in print, whatever its confidence: "rn" for "m" ("Perrnas"), "in" for "m"
 * ("Alain"), "n" for "m" ("Lunpur"), "l" and "i" for each other ("Peiabur"), "h" for "m" ("Tahn" is no word either).
 */
const GLYPH_CONFUSIONS: ReadonlyArray<readonly [string, string]> = [
  ["rn", "m"],
  ["in", "m"],
  ["ni", "m"],
  ["ii", "m"],
  ["n", "m"],
  ["m", "n"],
  ["i", "l"],
  ["l", "i"],
  ["h", "m"],
  ["c", "o"],
  ["e", "a"],
  ["f", "p"],
];

/** Header words of four letters and more, the targets of glyph repairs. */
const TARGETS: ReadonlySet<string> = new Set([...KNOWN].filter((w) => w.length >= MIN_LETTERS));

/** The word of `targets` (upper case) one glyph confusion away from `key` (upper case), when there is exactly one. */
function confusedFor(key: string, targets: ReadonlySet<string> = TARGETS): string | null {
  const found = new Set<string>();
  const lower = key.toLowerCase();
  for (const [read, meant] of GLYPH_CONFUSIONS) {
    for (let at = lower.indexOf(read); at >= 0; at = lower.indexOf(read, at + 1)) {
      const candidate = (lower.slice(0, at) + meant + lower.slice(at + read.length)).toUpperCase();
      if (targets.has(candidate)) found.add(candidate);
    }
  }
  return found.size === 1 ? ([...found][0] ?? null) : null;
}

/**
 * A header word that is no word of the header vocabulary but one glyph confusion away from exactly one ("Perrnas" ->
 * "Permas", "Kuala Lunpur" -> "Lumpur", "Shah Alain" -> "Alam"), put right however surely OCR read it: OCR is sure of
 * the shapes it saw, and "rn" looks like "m".
 */
export function repairGlyphConfusion(word: Word): Word {
  let changed = false;
  const text = word.text.replace(/\p{L}+/gu, (run) => {
    const key = run.toUpperCase();
    if (run.length < MIN_LETTERS || KNOWN.has(key)) return run;
    const meant = confusedFor(key);
    if (meant === null) return run;
    changed = true;
    return inCaseOf(run, meant);
  });
  return changed ? { ...word, text } : word;
}

/** Premises words an address line starts with before a number ("No 8", "Blk 2", "Lot 3"), upper case. */
const PREMISES_WORDS: ReadonlySet<string> = new Set(["NO", "BLK", "LOT", "UNIT"]);

/**
 * "Nc 8, Jalan ...", "Bik 2, Unit G1": a short word before a number that is no premises word but one glyph confusion
 * from exactly one (GLYPH_CONFUSIONS), put right. `next` is the word printed after it on the line.
 */
export function repairPremisesWord(word: Word, next: Word | undefined): Word {
  const key = word.text.toUpperCase();
  if (next === undefined || !/^\d/.test(next.text) || !/^\p{L}{2,4}$/u.test(word.text) || PREMISES_WORDS.has(key)) {
    return word;
  }
  const meant = confusedFor(key, PREMISES_WORDS);
  return meant === null ? word : { ...word, text: inCaseOf(word.text, meant) };
}

/**
 * Digits and letters OCR swapped inside a token whose other characters leave no doubt: "l" beside a digit in a
 * number ("7/ll8B" -> "7/118B"), a zero inside an upper-case word ("S0ON" -> "SOON"), a one among dotted capitals
 * ("D.1.Y." -> "D.I.Y.").
 */
export function repairMixedGlyphs(word: Word): Word {
  let text = word.text;
  if (/\d/.test(text)) {
    for (let i = 0; i < 2; i++) text = text.replace(/(?<=[\d/])l|l(?=[\d/]*\d)/g, "1");
  }
  if (/^[A-Z]{2,}0[A-Z]+[.,]?$|^[A-Z]+0[A-Z]{2,}[.,]?$/.test(text)) text = text.replace("0", "O");
  if (/^(?:[A-Z1]\.){2,}$/.test(text) && /[A-Z]/.test(text)) text = text.replace(/1(?=\.)/g, "I");
  return text === word.text ? word : { ...word, text };
}
