/** Looking up the table-header and stop words of vocabulary/table-headers.ts. */
import { type ColumnRole, HEADER_PHRASES, STOP_PHRASES } from "../vocabulary/table-headers.js";

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

/** The roles a folded phrase may name (several for "bil", "artikel"). */
export function rolesOf(phrase: string): readonly ColumnRole[] {
  return PHRASE_ROLES.get(phrase) ?? [];
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
