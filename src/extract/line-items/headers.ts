/** Looking up the table-header and stop words of vocabulary/table-headers.ts. */
import {
  type ColumnRole,
  HEADER_PHRASES,
  HEADER_QUALIFIERS,
  HEADER_TAX_LEADS,
  STOP_PHRASES,
} from "../vocabulary/table-headers.js";

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

/** Single-word header phrases of five letters or more: the ones an OCR misreading may be matched against. */
const FUZZY_WORDS = [...PHRASE_ROLES.keys()].filter((p) => !p.includes(" ") && p.length >= 5);

/** Edit distance of two short words, stopping early beyond `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      row.push(v);
      best = Math.min(best, v);
    }
    if (best > max) return max + 1;
    previous = row;
  }
  return previous[b.length] ?? max + 1;
}

/**
 * The roles of a word OCR may have misread ("descripci6en" for "descripcion"): the one header word within one edit
 * (two from eight letters); none when two words of different roles are as close.
 */
export function fuzzyRolesOf(word: string): readonly ColumnRole[] {
  if (word.length < 5) return [];
  const max = word.length >= 8 ? 2 : 1;
  let best: string | null = null;
  let bestDistance = max + 1;
  let tie = false;
  for (const candidate of FUZZY_WORDS) {
    const d = distance(word, candidate, max);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
      tie = false;
    } else if (d === bestDistance && best !== null && rolesOf(candidate)[0] !== rolesOf(best)[0]) tie = true;
  }
  return best === null || tie ? [] : rolesOf(best);
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
