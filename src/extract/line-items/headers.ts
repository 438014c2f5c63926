/** Looking up the table-header and stop words of vocabulary/table-headers.ts. */
import {
  type ColumnRole,
  HEADER_PHRASES,
  HEADER_QUALIFIERS,
  HEADER_TAX_LEADS,
  STOP_PHRASES,
} from "../vocabulary/table-headers.js";
import { foldWord } from "./fold.js";
import { OcrVocabulary } from "./ocr-words.js";

export type { ColumnRole };

/** Longest header phrase, in words: bounds the phrase search. */
export const MAX_PHRASE_WORDS = 3;

const PHRASE_ROLES = new Map<string, ColumnRole[]>();
for (const [role, phrases] of Object.entries(HEADER_PHRASES) as [ColumnRole, readonly string[]][]) {
  for (const phrase of phrases) {
    const roles = PHRASE_ROLES.get(phrase) ?? [];
    roles.push(role);
    PHRASE_ROLES.set(phrase, roles);
  }
}

/**
 * The header words OCR misreadings are matched against (ocr-words.ts): every word of a header phrase, keyed by the
 * roles of the phrases it is part of, and the qualifiers and tax leads.
 */
const HEADER_WORDS: OcrVocabulary = (() => {
  const roles = new Map<string, Set<string>>();
  const add = (word: string, key: string): void => {
    if (word === "") return;
    const keys = roles.get(word) ?? new Set<string>();
    keys.add(key);
    roles.set(word, keys);
  };
  for (const [phrase, phraseRoles] of PHRASE_ROLES) for (const word of phrase.split(" ")) add(word, phraseRoles.join());
  for (const word of [...HEADER_QUALIFIERS, ...HEADER_TAX_LEADS]) add(word, "qualifier");
  return new OcrVocabulary(new Map([...roles].map(([word, keys]) => [word, [...keys].sort().join("|")])));
})();

/** Header phrases of several words by their words run together, as OCR may read them: "totalht" -> "total ht". */
const GLUED_PHRASES: ReadonlyMap<string, string> = new Map(
  [...PHRASE_ROLES.keys()].filter((phrase) => phrase.includes(" ")).map((phrase) => [phrase.replace(/ /g, ""), phrase]),
);

/** Header words that name the description column, alone or in a phrase; "desc" and "descr" abbreviate them. */
const DESCRIPTION_WORDS: ReadonlySet<string> = new Set(
  [...PHRASE_ROLES].filter(([, roles]) => roles.includes("description")).flatMap(([phrase]) => phrase.split(" ")),
);

/**
 * The header word an OCR'd word is a misreading of ("descripci6n" -> "descripcion", "kuanti" -> "kuantiti", "preco"
 * from "Preços/IVA"), the phrase it runs together ("totalht" -> "total ht"), or the folded word itself when it is no
 * misreading of one. `text` is the word as read.
 */
export function headerWordOf(folded: string, text: string): string {
  const word = HEADER_WORDS.nearest(folded);
  if (word !== null) return word;
  // A phrase whose words OCR ran together ("TOTALHT"): the phrase, its words apart.
  const glued = GLUED_PHRASES.get(folded);
  if (glued !== undefined) return glued;
  // Words OCR ran together at a slash or stop ("Preços/IVA" for "Preço s/ IVA"): the first names the cell, unless the
  // second names the description, whole or abbreviated ("Code/Desc": the description column, its codes printed in it).
  const parts = /^(\p{L}{4,})[/.](\p{L}+)/u.exec(text.trim());
  if (parts === null) return folded;
  const tail = foldWord(parts[2] ?? "");
  const second = HEADER_WORDS.nearest(tail);
  const abbreviates = tail.length >= 3 && [...DESCRIPTION_WORDS].some((w) => w.startsWith(tail));
  if ((second !== null && DESCRIPTION_WORDS.has(second)) || abbreviates) return folded;
  return HEADER_WORDS.nearest(foldWord(parts[1] ?? "")) ?? folded;
}

/** The roles a folded phrase may name (several for "bil", "artikel"). */
export function rolesOf(phrase: string): readonly ColumnRole[] {
  // "MwSt-%" folds to "mwst%": the phrase "mwst %".
  return PHRASE_ROLES.get(phrase) ?? (phrase.endsWith("%") ? PHRASE_ROLES.get(`${phrase.slice(0, -1)} %`) : null) ?? [];
}

const QUALIFIER_SET: ReadonlySet<string> = new Set(HEADER_QUALIFIERS);

/** Whether a folded word only qualifies a header cell ("ht", "netto", "eur"). */
export function isQualifier(word: string): boolean {
  return QUALIFIER_SET.has(word);
}

const TAX_LEADS: ReadonlySet<string> = new Set(HEADER_TAX_LEADS);

/** Whether a folded word makes the tax word after it a qualifier ("excl" in "Price excl. VAT"). */
export function isTaxLead(word: string): boolean {
  return TAX_LEADS.has(word);
}

/** Whether a line's folded words start with a stop phrase. */
export function startsWithStop(words: readonly string[]): boolean {
  // A rate may come first: "21% BTW", "19 % MwSt."
  let skip = 0;
  while (skip < words.length && /^\d+(?:\d+)?%?$|^%$/.test(words[skip] ?? "")) skip++;
  const folded = words.slice(skip);
  for (let n = Math.min(3, folded.length); n >= 1; n--) {
    if (STOP_SET.has(folded.slice(0, n).join(" "))) return true;
  }
  return false;
}

const STOP_SET = new Set(STOP_PHRASES);
