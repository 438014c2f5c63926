/**
 * Dates as printed on invoices and receipts -> ISO `YYYY-MM-DD`.
 * Numeric forms (03/04/2024, 3.4.24, 2024-04-03, 20240403) and textual ones in the month-name languages of
 * `months.ts` ("11 Jan 2019", "Jan 11, 2019", "11. Januar 2019", "3 de marzo de 2024", "03-MAR-2018", "11JAN19").
 * Textual parsing is hand-rolled on a month table rather than chrono-node: chrono finds dates *inside* prose, guesses
 * missing parts from today's date and has no Malay, while here the whole string must be one complete date.
 */
import type { DateOrder, LocaleHints } from "./locale.js";
import { isWeekday, monthNumber } from "./months.js";
import { fold, trimEdges } from "./trim.js";

export interface ParsedDate {
  /** YYYY-MM-DD */
  iso: string;
  /** True when day <= 12 and month <= 12 and the order came from the hints or the day-first default. */
  ambiguous: boolean;
  order: DateOrder | "text";
}

export const MIN_YEAR = 1970;
export const MAX_YEAR = 2069;

/** Two-digit years: 00-69 -> 2000-2069, 70-99 -> 1970-1999. */
function fullYear(digits: string): number | null {
  const value = Number(digits);
  if (digits.length === 2) return value < 70 ? 2000 + value : 1900 + value;
  if (digits.length === 4) return value;
  return null;
}

function isoDate(year: number | null, month: number, day: number): string | null {
  if (year === null || year < MIN_YEAR || year > MAX_YEAR) return null;
  if (month < 1 || month > 12 || day < 1) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return null;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/**
 * Scanners read 0 as O and 1 as l or I. Inside a token that is already mostly digits and sits between date
 * separators the swap cannot turn a word into a date, so it is undone there and nowhere else.
 */
function repairDigits(token: string): string {
  if (!/\d/.test(token) || !/^[\dOoIl|]+$/.test(token)) return token;
  return token.replace(/[Oo]/g, "0").replace(/[Il|]/g, "1");
}

const NUMERIC = /^([\dOoIl|]{1,4}) ?([./-]) ?([\dOoIl|]{1,2}) ?\2 ?([\dOoIl|]{1,4})$/;
const COMPACT = /^(\d{4})(\d{2})(\d{2})$/;

function parseNumeric(text: string, hints: LocaleHints): ParsedDate | null {
  const compact = COMPACT.exec(text);
  if (compact !== null) {
    const iso = isoDate(Number(compact[1]), Number(compact[2]), Number(compact[3]));
    return iso === null ? null : { iso, ambiguous: false, order: "YMD" };
  }
  const match = NUMERIC.exec(text);
  if (match === null) return null;
  const [first, second, third] = [match[1], match[3], match[4]].map((part) => repairDigits(part ?? ""));
  if (first === undefined || second === undefined || third === undefined) return null;
  if (!/^\d+$/.test(first + second + third)) return null;
  if (first.length === 4 || (hints.dateOrder === "YMD" && first.length === 2 && third.length <= 2)) {
    const iso = isoDate(fullYear(first), Number(second), Number(third));
    if (iso === null) return null;
    const ambiguous = first.length === 2 && Number(second) <= 12 && Number(third) <= 12;
    return { iso, ambiguous, order: "YMD" };
  }
  if (first.length > 2 || (third.length !== 2 && third.length !== 4)) return null;
  const a = Number(first);
  const b = Number(second);
  const year = fullYear(third);
  if (a > 12 || b > 12) {
    const order: DateOrder = a > 12 ? "DMY" : "MDY";
    const iso = order === "DMY" ? isoDate(year, b, a) : isoDate(year, a, b);
    return iso === null ? null : { iso, ambiguous: false, order };
  }
  const order: DateOrder = hints.dateOrder === "MDY" ? "MDY" : "DMY";
  const iso = order === "DMY" ? isoDate(year, b, a) : isoDate(year, a, b);
  return iso === null ? null : { iso, ambiguous: true, order };
}

/** Words that sit between the parts of a written date: "3 de marzo de 2024", "the 3rd of March", "le 3 mars". */
const FILLERS = new Set(["de", "del", "of", "the", "le", "den", "am", "el"]);

function textualTokens(text: string): string[] {
  return text
    .replace(/(\d)(?:st|nd|rd|th|er|e|º|°|ª)(?![\p{L}])/giu, "$1")
    .replace(/(\p{L})(?=\d)|(\d)(?=\p{L})/gu, "$1$2 ")
    .split(/[\s.,/-]+/)
    .filter((token) => token !== "" && !FILLERS.has(fold(token)));
}

function parseTextual(text: string): ParsedDate | null {
  let tokens = textualTokens(text);
  // A leading weekday may take two words ("quinta-feira").
  while (tokens.length > 3 && tokens[0] !== undefined && isWeekday(tokens[0])) tokens = tokens.slice(1);
  if (tokens.length !== 3) return null;
  const repaired = tokens.map((token) => repairDigits(token));
  const monthAt = repaired.findIndex((token) => !/^\d+$/.test(token));
  if (monthAt < 0 || repaired.some((token, index) => index !== monthAt && !/^\d+$/.test(token))) return null;
  const month = monthNumber(repaired[monthAt] ?? "");
  if (month === null) return null;
  const numbers = repaired.filter((_, index) => index !== monthAt);
  const [x = "", y = ""] = numbers;
  let iso: string | null = null;
  if (monthAt === 1 && x.length === 4 && y.length <= 2) iso = isoDate(fullYear(x), month, Number(y));
  else if ((monthAt === 1 || monthAt === 0) && x.length <= 2) iso = isoDate(fullYear(y), month, Number(x));
  return iso === null ? null : { iso, ambiguous: false, order: "text" };
}

/** Parses the whole string as one date, or returns null. See the module comment for the forms. */
export function parseDate(text: string, hints: LocaleHints): ParsedDate | null {
  // Every date form has digits; the engine calls this on every word span of a page, so leave early.
  if (!/\d/.test(text)) return null;
  const cleaned = trimEdges(text);
  if (cleaned === "" || cleaned.length > 40) return null;
  return parseNumeric(cleaned, hints) ?? parseTextual(cleaned);
}
