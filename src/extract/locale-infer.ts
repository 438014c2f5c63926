/**
 * Document-level locale inference. With an explicit locale its hints win; otherwise day-first vs month-first comes
 * from the unambiguous numeric dates printed on the document (25/03/2024 can only be DMY), the decimal separator
 * from how amounts are written, and only when the page says nothing do language and currency cues decide. The
 * source of the decision is kept so ambiguous dates decided by a guess carry a lower confidence.
 */
import { MAX_YEAR, MIN_YEAR } from "./normalise/date.js";
import type { DateOrder, LocaleHints } from "./normalise/locale.js";

export type OrderSource = "locale" | "document" | "guess";

export interface InferredLocale {
  hints: LocaleHints;
  orderSource: OrderSource;
}

const NUMERIC_DATE = /(?<![\d.,/-])(\d{1,4})([./-])(\d{1,2})\2(\d{2,4})(?![\d,/-])/g;

/** What may stand between the two dates of a period ("05/03/2022 - 06/02/2022", "from 1.2.2024 to 3.4.2024"). */
const PERIOD_JOIN = /^\s*(?:[-–—~]|to|until|till|through|thru|bis|au|à|a|al|hasta|tot|t\/m)?\s*$/i;
/** Longest period a document bills or covers, in days. */
const MAX_PERIOD_DAYS = 366;

/** Days since the epoch of day `d` of month `m` of year `y`, or null when that is no date. */
function dayNumber(y: number, m: number, d: number): number | null {
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  const t = Date.UTC(y, m - 1, d);
  return new Date(t).getUTCDate() === d ? t / 86_400_000 : null;
}

/**
 * The order a period of two numeric dates ("05/03/2022 - 06/02/2022") can only be read in: its end on or after its
 * start and within a year of it. Null when both orders, or neither, give such a period.
 */
function periodOrder(first: RegExpMatchArray, second: RegExpMatchArray): DateOrder | null {
  if ((first[1] ?? "").length > 2 || (second[1] ?? "").length > 2 || first[2] !== second[2]) return null;
  const year = (m: RegExpMatchArray) => {
    const y = Number(m[4]);
    return (m[4] ?? "").length === 2 ? 2000 + y : y;
  };
  const span = (order: DateOrder): boolean => {
    const day = (m: RegExpMatchArray) =>
      order === "DMY" ? dayNumber(year(m), Number(m[3]), Number(m[1])) : dayNumber(year(m), Number(m[1]), Number(m[3]));
    const from = day(first);
    const to = day(second);
    return from !== null && to !== null && to >= from && to - from <= MAX_PERIOD_DAYS;
  };
  const dmy = span("DMY");
  const mdy = span("MDY");
  return dmy === mdy ? null : dmy ? "DMY" : "MDY";
}

function orderEvidence(text: string): Record<DateOrder, number> {
  const votes: Record<DateOrder, number> = { DMY: 0, MDY: 0, YMD: 0 };
  const dates = [...text.matchAll(NUMERIC_DATE)];
  // A period's dates are read in the order that makes it one ("05/03/2022 - 06/02/2022": 3 May to 2 June, not
  // 5 March back to 6 February), though each alone could be either.
  dates.forEach((m, i) => {
    const next = dates[i + 1];
    if (!next || m.index === undefined || next.index === undefined) return;
    if (!PERIOD_JOIN.test(text.slice(m.index + m[0].length, next.index))) return;
    const order = periodOrder(m, next);
    if (order) votes[order] += 1;
  });
  for (const m of dates) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    const c = Number(m[4]);
    if ((m[1] ?? "").length === 4) {
      if (isYear(a) && b <= 12 && c <= 31) votes.YMD += 1;
      continue;
    }
    const yearDigits = (m[4] ?? "").length;
    // A misread clock time ("11.14.9060") is no date: its "year" must be one.
    if (yearDigits !== 2 && !(yearDigits === 4 && isYear(c))) continue;
    if (a > 12 && a <= 31 && b >= 1 && b <= 12) votes.DMY += 1;
    // Month-first dates are written with slashes or dashes; a dotted triple with a middle part over 12 is a clock
    // time (11.14.00), which would otherwise turn a day-first page month-first.
    else if (b > 12 && b <= 31 && a >= 1 && a <= 12 && m[2] !== ".") votes.MDY += 1;
  }
  return votes;
}

function isYear(value: number): boolean {
  return value >= MIN_YEAR && value <= MAX_YEAR;
}

function decimalEvidence(text: string): { comma: number; dot: number } {
  const comma = (text.match(/(?<![\d,])\d{1,3}(?:[.' ]\d{3})*,\d{2}(?![\d,.])/g) ?? []).length;
  const dot = (text.match(/(?<![\d.])\d{1,3}(?:[,' ]\d{3})*\.\d{2}(?![\d.,])/g) ?? []).length;
  return { comma, dot };
}

/**
 * Month-first is the convention only in the US (and a few places that print USD); everywhere else day-first. Dates
 * written with dots ("08.06.2022") are day-first wherever they are printed.
 */
function guessOrder(text: string, language: string | null): DateOrder {
  const separators = [...text.matchAll(NUMERIC_DATE)].filter((m) => (m[1] ?? "").length <= 2).map((m) => m[2]);
  if (separators.length > 0 && separators.every((sep) => sep === ".")) return "DMY";
  const usd =
    /\bUSD\b|US\$/.test(text) || (/\$\s?\d/.test(text) && !/\b(GST|VAT|ABN|RM|SGD|AUD|NZD|CAD|HKD)\b/i.test(text));
  return language === "en" && usd ? "MDY" : "DMY";
}

/** Countries whose documents say where they are from without a locale: what "$" means depends on it. */
const COUNTRY_CUES: ReadonlyArray<[string, RegExp]> = [
  ["AU", /\bA\.?B\.?N\.?\b|\bPty\.?\s+Ltd\b|\b(VIC|NSW|QLD|TAS|ACT|NT)\s+\d{4}\b|\bAustralia\b|\bEFTPOS\b/],
  ["NZ", /\bNew Zealand\b|\bGST No\.?\s*\d{2,3}-\d{3}-\d{3}\b/],
  ["CA", /\bGST\/HST\b|\bCanada\b|\b(ON|BC|QC|AB|MB|NS)\s+[A-Z]\d[A-Z]\s?\d[A-Z]\d\b/],
  ["SG", /\bSingapore\b|\bUEN\b/],
  ["MY", /\bSdn\.?\s*Bhd\b|\bMalaysia\b|\bRM\s?\d/i],
  ["HK", /\bHong Kong\b/],
];

function inferCountry(text: string): string | undefined {
  return COUNTRY_CUES.find(([, cue]) => cue.test(text))?.[0];
}

export function inferLocale(given: LocaleHints, text: string, language: string | null): InferredLocale {
  const hints: LocaleHints = { ...given };
  if (hints.language === undefined && language) hints.language = language;
  if (hints.country === undefined) {
    const country = inferCountry(text);
    if (country) hints.country = country;
  }
  if (hints.decimalSeparator === undefined) {
    const { comma, dot } = decimalEvidence(text);
    if (comma > dot) hints.decimalSeparator = ",";
    else if (dot > comma) hints.decimalSeparator = ".";
  }
  if (given.dateOrder !== undefined) return { hints, orderSource: "locale" };
  const votes = orderEvidence(text);
  const best = (Object.entries(votes) as Array<[DateOrder, number]>).sort((a, b) => b[1] - a[1])[0];
  if (best && best[1] > 0 && best[0] !== "YMD") {
    hints.dateOrder = best[0];
    return { hints, orderSource: "document" };
  }
  hints.dateOrder = guessOrder(text, language);
  return { hints, orderSource: "guess" };
}
