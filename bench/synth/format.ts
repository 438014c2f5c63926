/** How dates, times and amounts are written on the page, per locale; plus the label (normal) forms. */
import type { Lang, LocaleProfile, NumberStyle } from "./locales.js";
import type { Rng } from "./prng.js";

export interface CalendarDate {
  y: number;
  m: number;
  d: number;
}

const MONTHS: Record<Lang, readonly string[]> = {
  en: [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
  ],
  de: [
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
  ],
  fr: [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
  ],
  es: [
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
  ],
  nl: [
    "januari",
    "februari",
    "maart",
    "april",
    "mei",
    "juni",
    "juli",
    "augustus",
    "september",
    "oktober",
    "november",
    "december",
  ],
};

const pad2 = (n: number): string => String(n).padStart(2, "0");

export function isoDate(date: CalendarDate): string {
  return `${date.y}-${pad2(date.m)}-${pad2(date.d)}`;
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  const t = new Date(Date.UTC(date.y, date.m - 1, date.d + days));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

/** The same day `months` later (earlier when negative), kept to the 28th so every month has it. */
export function addMonths(date: CalendarDate, months: number): CalendarDate {
  const m = date.m - 1 + months;
  return { y: date.y + Math.floor(m / 12), m: (((m % 12) + 12) % 12) + 1, d: Math.min(date.d, 28) };
}

export function randomDate(rng: Rng, fromYear: number, toYear: number): CalendarDate {
  return { y: rng.int(fromYear, toYear), m: rng.int(1, 12), d: rng.int(1, 28) };
}

export type DateStyle = "numeric" | "numeric-short-year" | "iso" | "long" | "short-month";

/** A date writer fixed per document, so all dates on one page share a style as they do on real documents. */
export interface DateWriter {
  style: DateStyle;
  separator: string;
  padded: boolean;
  upper: boolean;
}

export function chooseDateWriter(rng: Rng, locale: LocaleProfile, allowShortYear: boolean): DateWriter {
  const styles: (readonly [DateStyle, number])[] = [
    ["numeric", 60],
    ["iso", 10],
    ["long", 18],
    ["short-month", locale.lang === "en" ? 12 : 0],
    ["numeric-short-year", allowShortYear ? 10 : 0],
  ];
  return {
    style: rng.weighted(styles),
    separator: rng.pick(locale.dateSeparators),
    padded: rng.chance(0.8),
    upper: locale.tag === "en-MY" || rng.chance(0.1),
  };
}

export function writeDate(date: CalendarDate, writer: DateWriter, locale: LocaleProfile): string {
  const day = writer.padded ? pad2(date.d) : String(date.d);
  const month = writer.padded ? pad2(date.m) : String(date.m);
  const monthName = MONTHS[locale.lang][date.m - 1]!;
  switch (writer.style) {
    case "iso":
      return isoDate(date);
    case "numeric":
    case "numeric-short-year": {
      const year = writer.style === "numeric" ? String(date.y) : pad2(date.y % 100);
      const parts = locale.dateOrder === "MDY" ? [month, day, year] : [day, month, year];
      return parts.join(writer.separator);
    }
    case "short-month": {
      const short = monthName.slice(0, 3);
      const text = locale.dateOrder === "MDY" ? `${short} ${date.d}, ${date.y}` : `${pad2(date.d)} ${short} ${date.y}`;
      return writer.upper ? text.toUpperCase() : text;
    }
    case "long":
      switch (locale.lang) {
        case "en":
          return locale.dateOrder === "MDY" ? `${monthName} ${date.d}, ${date.y}` : `${date.d} ${monthName} ${date.y}`;
        case "de":
          return `${date.d}. ${monthName} ${date.y}`;
        case "fr":
          return `${date.d === 1 ? "1er" : date.d} ${monthName} ${date.y}`;
        case "es":
          return `${date.d} de ${monthName} de ${date.y}`;
        case "nl":
          return `${date.d} ${monthName} ${date.y}`;
      }
  }
}

export interface ClockTime {
  h: number;
  min: number;
  s: number;
}

export function labelTime(time: ClockTime): string {
  return `${pad2(time.h)}:${pad2(time.min)}`;
}

export function writeTime(rng: Rng, time: ClockTime, locale: LocaleProfile): string {
  const twelveHour = locale.lang === "en" && locale.tag !== "en-GB" && rng.chance(0.5);
  if (twelveHour) {
    const h = time.h % 12 === 0 ? 12 : time.h % 12;
    const suffix = time.h < 12 ? "AM" : "PM";
    return `${rng.chance(0.5) ? pad2(h) : h}:${pad2(time.min)}${rng.chance(0.5) ? " " : ""}${suffix}`;
  }
  if (locale.lang === "fr" && rng.chance(0.3)) return `${pad2(time.h)}h${pad2(time.min)}`;
  const seconds = rng.chance(0.4) ? `:${pad2(time.s)}` : "";
  return `${pad2(time.h)}:${pad2(time.min)}${seconds}`;
}

/** Label form of an amount in cents: "1234.50", "-12.00". */
export function labelAmount(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${pad2(abs % 100)}`;
}

export function writeNumber(cents: number, style: NumberStyle): string {
  const abs = Math.abs(cents);
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, style.thousands);
  return `${cents < 0 ? "-" : ""}${whole}${style.decimal}${pad2(abs % 100)}`;
}

/** Quantities and rates: integers plain, fractions with the locale's decimal mark. */
export function writeDecimal(value: number, style: NumberStyle, maxFraction = 2): string {
  if (Number.isInteger(value)) return String(value);
  return value.toFixed(maxFraction).replace(/0+$/, "").replace(".", style.decimal);
}

export type CurrencyMark = "none" | "symbol" | "explicit-symbol" | "code-before" | "code-after";

/** Writes money the way the document shows it: with the symbol, the code, or bare. */
export function writeMoney(
  cents: number,
  style: NumberStyle,
  mark: CurrencyMark,
  locale: LocaleProfile,
  currency: string,
): string {
  const n = writeNumber(cents, style);
  if (mark === "none") return n;
  if (mark === "code-before") return `${currency} ${n}`;
  if (mark === "code-after") return `${n} ${currency}`;
  const symbol = (mark === "explicit-symbol" ? locale.explicitSymbol : locale.currencySymbol) ?? currency;
  if (locale.symbolAfter) return `${n} ${symbol}`;
  // A leading symbol goes after the minus sign: "-$12.00", as accounting software prints it.
  const sign = cents < 0 ? "-" : "";
  const bare = writeNumber(Math.abs(cents), style);
  // Letter symbols ("CHF") take a space; "$", "£" and "A$" sit against the number. Malaysian tills print "RM12.50".
  const spaced = /^[A-Z]+$/.test(symbol) && locale.tag !== "en-MY";
  return spaced ? `${sign}${symbol} ${bare}` : `${sign}${symbol}${bare}`;
}
