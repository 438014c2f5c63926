/**
 * Repairs of a receipt's address as OCR read it, checked against the rest of the address itself:
 * - a postcode misread by one glyph ("96000 KUALA LUMPUR", "B1750 MASAI JOHOR") is put right when it falls outside
 *   the range of the state the address names after it and exactly one usual misreading of one of its first two
 *   digits lands inside (vocabulary/postcodes.ts);
 * - two place or street words OCR ran together ("BAHRUJOHOR") are split again, and a place or street word OCR broke
 *   in two ("T AMAN", "Seksy en") is joined again.
 * On receipts-train (the corpus looked at) they put right a net 7 more addresses of 249; on receipts-dev (aggregate
 * only) the count of right addresses stayed the same.
 */
import { ADDRESS_WORDS, PLACE_NAMES, TRADE_WORDS } from "./vocabulary/header-words.js";
import { DIGIT_CONFUSIONS, DIGIT_FOR_LETTER, MALAYSIAN_STATES, type StateRange } from "./vocabulary/postcodes.js";

/** The state named last in `text` and where its name ends; null when none is named. */
function namedState(text: string): { state: StateRange; at: number } | null {
  const folded = text.toLowerCase().replace(/[^a-z0-9]/g, " ");
  let found: { state: StateRange; at: number } | null = null;
  for (const state of MALAYSIAN_STATES) {
    for (const name of state.names) {
      const re = new RegExp(`(?<![a-z0-9])${name.replace(/ /g, " +")}(?![a-z0-9])`, "g");
      for (const m of folded.matchAll(re)) {
        const at = (m.index ?? 0) + m[0].length;
        if (!found || at > found.at) found = { state, at };
      }
    }
  }
  return found;
}

/** Whether `text` names a state or federal territory ("SELANGOR DARUL EHSAN", "W.P. KUALA LUMPUR"). */
export function namesState(text: string): boolean {
  return namedState(text) !== null;
}

function inState(postcode: string, state: StateRange): boolean {
  const prefix = Number(postcode.slice(0, 2));
  return state.prefixes.some(([from, to]) => prefix >= from && prefix <= to);
}

/** `token` as a postcode (letters OCR put for digits mapped back), or null when it cannot be one. */
function asPostcode(token: string): string | null {
  if (token.length !== 5 || [...token].filter((c) => /\d/.test(c)).length < 3) return null;
  const digits = [...token].map((c) => (/\d/.test(c) ? c : (DIGIT_FOR_LETTER[c] ?? "")));
  return digits.every((d) => d !== "") ? digits.join("") : null;
}

/** The one postcode in `state` one usual misreading of its first two digits away, or null (none, or several). */
function nearestInState(postcode: string, state: StateRange): string | null {
  const found = new Set<string>();
  for (let i = 0; i < 2; i++) {
    for (const d of DIGIT_CONFUSIONS[postcode[i] ?? ""] ?? "") {
      const candidate = postcode.slice(0, i) + d + postcode.slice(i + 1);
      if (inState(candidate, state)) found.add(candidate);
    }
  }
  return found.size === 1 ? ([...found][0] ?? null) : null;
}

/** The address with a postcode that contradicts the state it names put right (see the file comment). */
export function repairPostcode(address: string): string {
  const named = namedState(address);
  if (!named) return address;
  return address.replace(/(?<![\p{L}\d])[0-9A-Za-z]{5}(?![\p{L}\d])/gu, (token, offset: number) => {
    if (offset >= named.at) return token;
    const postcode = asPostcode(token);
    if (postcode === null) return token;
    if (inState(postcode, named.state)) return postcode;
    return nearestInState(postcode, named.state) ?? token;
  });
}

const WORDS: ReadonlySet<string> = new Set(
  [...PLACE_NAMES, ...Object.values(ADDRESS_WORDS).flat()].filter((w) => w.length >= 4),
);

/** "BAHRUJOHOR" -> "BAHRU JOHOR": a word of letters that is two place or street words run together, split. */
export function splitRunTogether(text: string): string {
  return text.replace(/\p{L}{8,}/gu, (word) => {
    const lower = word.toLowerCase();
    if (WORDS.has(lower)) return word;
    for (let cut = 4; cut <= lower.length - 4; cut++) {
      if (WORDS.has(lower.slice(0, cut)) && WORDS.has(lower.slice(cut)))
        return `${word.slice(0, cut)} ${word.slice(cut)}`;
    }
    return word;
  });
}

const HEADER_WORDS: ReadonlySet<string> = new Set(
  [...WORDS, ...Object.values(TRADE_WORDS).flat()].filter((w) => w.length >= 4),
);

/**
 * "T AMAN" -> "TAMAN", "HOL DINGS" -> "HOLDINGS": two tokens that make a header word (a place, street or trade word)
 * together, one of them none on its own, joined.
 */
export function joinBrokenWords(text: string): string {
  const tokens = text.split(" ");
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const a = tokens[i] ?? "";
    const b = tokens[i + 1];
    if (b !== undefined && /^\p{L}+$/u.test(a) && /^\p{L}+[,.]?$/u.test(b)) {
      const joined = `${a}${b}`;
      const core = joined.replace(/[,.]$/, "").toLowerCase();
      const known = (t: string) => HEADER_WORDS.has(t.replace(/[,.]$/, "").toLowerCase());
      if (HEADER_WORDS.has(core) && !(known(a) && known(b))) {
        out.push(joined);
        i++;
        continue;
      }
    }
    out.push(a);
  }
  return out.join(" ");
}
