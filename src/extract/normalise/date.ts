/**
 * Dates as printed on invoices and receipts -> ISO `YYYY-MM-DD`.
 * Numeric forms (03/04/2024, 3.4.24, 2024-04-03, 20240403) and textual ones in the month-name languages of
 * `months.ts` ("11 Jan 2019", "Jan 11, 2019", "11. Januar 2019", "3 de marzo de 2024", "03-MAR-2018", "11JAN19").
 * Textual parsing is hand-rolled on a month table rather than chrono-node: chrono finds dates *inside* prose, guesses
 * missing parts from today's date and has no Malay, while here the whole string must be one complete date.
 * Scans misread digits and letters: a date with one impossible part ("61/03/18") or a month name one letter off
 * ("14/dun/2017") is read when exactly one OCR confusion explains it, and flagged `repaired` so scorers trust it less.
 * So is a date that lost one separator ("12/012018", "0406-18") when a single place to put it back gives a date;
 * `lostSeparator` tells such a reading apart, since alone it is too often a phone or document number to trust.
 */
import type { DateOrder, LocaleHints } from "./locale.js";
import { fuzzyMonthNumber, isWeekday, monthNumber } from "./months.js";
import { foldAccentsAndCase, trimEdges } from "./trim.js";

export interface ParsedDate {
  /** YYYY-MM-DD */
  iso: string;
  /** True when day <= 12 and month <= 12 and the order came from the hints or the day-first default. */
  ambiguous: boolean;
  order: DateOrder | "text";
  /** Present when the date only reads after undoing an OCR misreading ("61/03/18", "14/dun/2017"). */
  repaired?: true;
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

/**
 * What OCR prints for a digit it misreads, reversed: the digits each printed character may stand for. Closed and
 * half-closed loops swap among themselves (0/6/8/9, 3/8, 5/6), strokes among themselves (1/7); Z, S and B are
 * letters read for 2, 5 and 8, and "?" is a digit the engine could not read at all.
 */
const MISREAD_DIGITS: Readonly<Record<string, string>> = {
  "0": "689",
  "1": "7",
  "3": "8",
  "5": "6",
  "6": "058",
  "7": "1",
  "8": "0369",
  "9": "08",
  Z: "2",
  z: "2",
  S: "5",
  B: "8",
  "?": "0123456789",
};

const PART = "[\\dOoIl|ZzSB?]";
const NUMERIC = new RegExp(`^(${PART}{1,4}) ?([./-]) ?(${PART}{1,2}) ?\\2 ?(${PART}{1,4})$`);
const COMPACT = /^(\d{4})(\d{2})(\d{2})$/;

type Role = "day" | "month" | "year";
type Parts = readonly [string, string, string];

const ROLES: Readonly<Record<DateOrder, readonly [Role, Role, Role]>> = {
  DMY: ["day", "month", "year"],
  MDY: ["month", "day", "year"],
  YMD: ["year", "month", "day"],
};

/** The order the parts are printed in, from their widths and the hints (day first without one), or null. */
function layoutOf([first, , third]: Parts, hints: LocaleHints): DateOrder | null {
  if (first.length === 4 || (hints.dateOrder === "YMD" && first.length === 2 && third.length <= 2)) return "YMD";
  if (first.length > 2 || (third.length !== 2 && third.length !== 4)) return null;
  return hints.dateOrder === "MDY" ? "MDY" : "DMY";
}

function isoOf(parts: Parts, order: DateOrder): string | null {
  if (!parts.every((part) => /^\d+$/.test(part))) return null;
  const roles = ROLES[order];
  const value = (role: Role) => parts[roles.indexOf(role)] ?? "";
  return isoDate(fullYear(value("year")), Number(value("month")), Number(value("day")));
}

/** Day and month could be swapped: the order came from the hints, not from the numbers. */
function isAmbiguous([first, second, third]: Parts, order: DateOrder): boolean {
  if (order === "YMD") return first.length === 2 && Number(second) <= 12 && Number(third) <= 12;
  return Number(first) <= 12 && Number(second) <= 12;
}

/** Reads digits as printed; a day over 12 decides the order whatever the hints say (25/03 is never MDY). */
function readPrinted(parts: Parts, layout: DateOrder): ParsedDate | null {
  const [a, b] = [Number(parts[0]), Number(parts[1])];
  const order = layout !== "YMD" && (a > 12 || b > 12) ? (a > 12 ? "DMY" : "MDY") : layout;
  const iso = isoOf(parts, order);
  return iso === null ? null : { iso, ambiguous: isAmbiguous(parts, order), order };
}

/** A part that cannot be what its position says: not all digits, no day 1..31, no month 1..12, no 19xx/20xx year. */
function outOfRange(part: string, role: Role): boolean {
  if (!/^\d+$/.test(part)) return true;
  const value = Number(part);
  if (role === "day") return value < 1 || value > 31;
  if (role === "month") return value < 1 || value > 12;
  return part.length === 4 && (value < 1900 || value > 2099);
}

/** Every way of reading one character of `part` as another digit (see MISREAD_DIGITS). */
function misreadings(part: string): string[] {
  return [...part].flatMap((char, index) =>
    [...(MISREAD_DIGITS[char] ?? "")].map((digit) => part.slice(0, index) + digit + part.slice(index + 1)),
  );
}

/**
 * "61/03/18", "12-02-2618", "69/10/2017": exactly one part is impossible for its position (in the hinted order,
 * since its numbers no longer say which is the day), and undoing one OCR digit confusion in it gives a real date.
 * Only a single such reading is taken: "00/01/2024" could be the 6th, 8th or 9th and stays unread. Parts in range
 * are never touched, so a valid date is never "repaired" into another one.
 */
function readRepaired(parts: Parts, layout: DateOrder): ParsedDate | null {
  const roles = ROLES[layout];
  const broken = parts.flatMap((part, index) => (outOfRange(part, roles[index] ?? "year") ? [index] : []));
  const [index] = broken;
  if (broken.length !== 1 || index === undefined) return null;
  const readings = new Map<string, ParsedDate>();
  for (const variant of misreadings(parts[index] ?? "")) {
    const fixed: Parts = [
      index === 0 ? variant : parts[0],
      index === 1 ? variant : parts[1],
      index === 2 ? variant : parts[2],
    ];
    const iso = isoOf(fixed, layout);
    if (iso !== null) readings.set(iso, { iso, ambiguous: isAmbiguous(fixed, layout), order: layout, repaired: true });
  }
  return readings.size === 1 ? ([...readings.values()][0] ?? null) : null;
}

/** Two runs of digits with one date separator between them: a date printed with two, one of which OCR dropped. */
const LOST_SEPARATOR = /^(\d{2,6})([/-])(\d{2,6})$/;

/**
 * Whether a date's text is the one-separator shape `readLostSeparator` reads. A label glued in front ("Date:") is
 * ignored; the dates the other readers accept always print two separators or none.
 */
export function lostSeparator(text: string): boolean {
  return LOST_SEPARATOR.test(trimEdges(text).replace(/^\D+/, ""));
}

/**
 * "12/012018", "11-0418", "0406-18": the separator is put back at every place that leaves padded parts (two-digit
 * day and month, two- or four-digit year), and the text is read only when exactly one of them gives a date as
 * printed. No digit is changed too: one repair per reading. Dots are left alone, since "1012.18" is an amount.
 */
function readLostSeparator(text: string, hints: LocaleHints): ParsedDate | null {
  const match = LOST_SEPARATOR.exec(text);
  if (match === null) return null;
  const [, head = "", , tail = ""] = match;
  const splits: Parts[] = [];
  for (let at = 2; at <= head.length - 2; at++) splits.push([head.slice(0, at), head.slice(at), tail]);
  for (let at = 2; at <= tail.length - 2; at++) splits.push([head, tail.slice(0, at), tail.slice(at)]);
  const readings = new Map<string, ParsedDate>();
  for (const parts of splits) {
    if (!parts.every((part) => part.length === 2 || part.length === 4)) continue;
    const layout = layoutOf(parts, hints);
    const read = layout === null ? null : readPrinted(parts, layout);
    if (read !== null) readings.set(read.iso, { ...read, repaired: true });
  }
  return readings.size === 1 ? ([...readings.values()][0] ?? null) : null;
}

function parseNumeric(text: string, hints: LocaleHints): ParsedDate | null {
  const compact = COMPACT.exec(text);
  if (compact !== null) {
    const iso = isoDate(Number(compact[1]), Number(compact[2]), Number(compact[3]));
    return iso === null ? null : { iso, ambiguous: false, order: "YMD" };
  }
  const match = NUMERIC.exec(text);
  if (match === null) return readLostSeparator(text, hints);
  const parts: Parts = [repairDigits(match[1] ?? ""), repairDigits(match[3] ?? ""), repairDigits(match[4] ?? "")];
  // A part without a single digit ("SB", "??") is a word or noise, not a misread number.
  if (!parts.every((part) => /\d/.test(part))) return null;
  const layout = layoutOf(parts, hints);
  if (layout === null) return null;
  return readPrinted(parts, layout) ?? readRepaired(parts, layout);
}

/** Words that sit between the parts of a written date: "3 de marzo de 2024", "the 3rd of March", "le 3 mars". */
const FILLERS = new Set(["de", "del", "of", "the", "le", "den", "am", "el"]);

function textualTokens(text: string): string[] {
  return text
    .replace(/(\d)(?:st|nd|rd|th|er|e|º|°|ª)(?![\p{L}])/giu, "$1")
    .replace(/(\p{L})(?=\d)|(\d)(?=\p{L})/gu, "$1$2 ")
    .split(/[\s.,/-]+/)
    .filter((token) => token !== "" && !FILLERS.has(foldAccentsAndCase(token)));
}

/** A month name whose O was read as a zero ("0ct 3, 2016"): a zero before letters is a digit in no date. */
const ZERO_FOR_O = /(?<![\p{L}\d])0(\p{L}{2,})/u;

/** The French "1er" (the first of a month) whose 1 OCR read as a letter: "ler mars 2025", "Ier février 2025". */
const FIRST_READ_AS_LETTER = /(?<![\p{L}\d])[lI|](?=er\s)/u;

function parseTextual(text: string): ParsedDate | null {
  const zero = ZERO_FOR_O.exec(text);
  if (zero !== null && monthNumber(`o${zero[1]}`) !== null) {
    const read = parseTextual(text.replace(ZERO_FOR_O, "o$1"));
    return read && { ...read, repaired: true };
  }
  if (FIRST_READ_AS_LETTER.test(text)) {
    const read = parseTextual(text.replace(FIRST_READ_AS_LETTER, "1"));
    return read && { ...read, repaired: true };
  }
  let tokens = textualTokens(text);
  // A leading weekday may take two words ("quinta-feira").
  while (tokens.length > 3 && tokens[0] !== undefined && isWeekday(tokens[0])) tokens = tokens.slice(1);
  if (tokens.length !== 3) return null;
  const repaired = tokens.map((token) => repairDigits(token));
  const monthAt = repaired.findIndex((token) => !/^\d+$/.test(token));
  if (monthAt < 0 || repaired.some((token, index) => index !== monthAt && !/^\d+$/.test(token))) return null;
  const word = repaired[monthAt] ?? "";
  const exact = monthNumber(word);
  // A misread month is only trusted between day and year ("14/dun/2017"), where nothing else is ever printed; in
  // front it is too often a word that precedes a number ("Doc 12/2018").
  const month = exact ?? (monthAt === 1 ? fuzzyMonthNumber(word) : null);
  if (month === null) return null;
  const numbers = repaired.filter((_, index) => index !== monthAt);
  const [x = "", y = ""] = numbers;
  let iso: string | null = null;
  if (monthAt === 1 && x.length === 4 && y.length <= 2) iso = isoDate(fullYear(x), month, Number(y));
  else if ((monthAt === 1 || monthAt === 0) && x.length <= 2) iso = isoDate(fullYear(y), month, Number(x));
  if (iso === null) return null;
  return exact === null
    ? { iso, ambiguous: false, order: "text", repaired: true }
    : { iso, ambiguous: false, order: "text" };
}

/** Day and month, a colon, then the other separator before a four-digit year: the colon was that separator too. */
const COLON_FOR_SEPARATOR = /^\d{1,2}:\d{1,2}([/-])\d{4}$/;

/** Parses the whole string as one date, or returns null. See the module comment for the forms. */
export function parseDate(text: string, hints: LocaleHints): ParsedDate | null {
  // Every date form has digits; the engine calls this on every word span of a page, so leave early.
  if (!/\d/.test(text)) return null;
  // A rule or leader printed after the date ("28/03/2017--") is no part of it: no date ends in a separator.
  // Nor is a speck read as dots before it ("..27:03/2018").
  const cleaned = trimEdges(text)
    .replace(/(\d)[-/.]+$/, "$1")
    .replace(/^\.+(?=\d)/, "");
  if (cleaned === "" || cleaned.length > 40) return null;
  const parsed = parseNumeric(cleaned, hints) ?? parseTextual(cleaned);
  if (parsed !== null) return parsed;
  // "05~05-17": a hyphen OCR read as a tilde, between digits beside the date's other hyphen.
  const tilde = /^(\d{1,4})~(\d{1,2})-(\d{1,4})$|^(\d{1,4})-(\d{1,2})~(\d{1,4})$/.test(cleaned);
  // "27:03/2018": a slash or hyphen OCR read as a colon, beside the date's other separator and a four-digit year.
  const colon = COLON_FOR_SEPARATOR.exec(cleaned);
  const repaired = tilde
    ? parseNumeric(cleaned.replace("~", "-"), hints)
    : colon
      ? parseNumeric(cleaned.replace(":", colon[1] ?? "/"), hints)
      : null;
  return repaired === null ? null : { ...repaired, repaired: true };
}
