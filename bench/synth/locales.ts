/**
 * Locale profiles: how a document written in a given BCP 47 locale prints dates and numbers, which currency and
 * country it belongs to. Label wording lives in vocabulary.ts.
 */
import type { Country } from "./ids.js";

export type Lang = "en" | "de" | "fr" | "es" | "nl";

/** Order of day, month and year in numeric dates: the truth of an ambiguous 03/04/2024 follows from it. */
export type DateOrder = "DMY" | "MDY";

export interface NumberStyle {
  thousands: string;
  decimal: string;
}

export interface LocaleProfile {
  tag: string;
  lang: Lang;
  country: Country;
  currency: string;
  dateOrder: DateOrder;
  /** Numeric date separators seen in this locale. */
  dateSeparators: readonly string[];
  numberStyles: readonly NumberStyle[];
  /** How amounts carry the currency: a symbol before or after, or the ISO code. */
  currencySymbol: string | null;
  symbolAfter: boolean;
  /** A bare "$" needs context (USD or AUD?): documents then also print the code somewhere. */
  symbolAmbiguous: boolean;
  /** An unambiguous local symbol ("A$") some documents use instead. */
  explicitSymbol: string | null;
  paper: "A4" | "Letter";
}

const COMMA_DECIMAL: NumberStyle = { thousands: ".", decimal: "," };
const COMMA_DECIMAL_PLAIN: NumberStyle = { thousands: "", decimal: "," };
const SPACE_COMMA: NumberStyle = { thousands: " ", decimal: "," };
const DOT_DECIMAL: NumberStyle = { thousands: ",", decimal: "." };
const DOT_DECIMAL_PLAIN: NumberStyle = { thousands: "", decimal: "." };

export const LOCALES: Record<string, LocaleProfile> = {
  "en-US": {
    tag: "en-US",
    lang: "en",
    country: "US",
    currency: "USD",
    dateOrder: "MDY",
    dateSeparators: ["/", "-"],
    numberStyles: [DOT_DECIMAL, DOT_DECIMAL, DOT_DECIMAL_PLAIN],
    currencySymbol: "$",
    symbolAfter: false,
    symbolAmbiguous: false,
    explicitSymbol: null,
    paper: "Letter",
  },
  "en-GB": {
    tag: "en-GB",
    lang: "en",
    country: "GB",
    currency: "GBP",
    dateOrder: "DMY",
    dateSeparators: ["/", ".", "-"],
    numberStyles: [DOT_DECIMAL, DOT_DECIMAL, DOT_DECIMAL_PLAIN],
    currencySymbol: "£",
    symbolAfter: false,
    symbolAmbiguous: false,
    explicitSymbol: null,
    paper: "A4",
  },
  "en-AU": {
    tag: "en-AU",
    lang: "en",
    country: "AU",
    currency: "AUD",
    dateOrder: "DMY",
    dateSeparators: ["/", "-", "."],
    numberStyles: [DOT_DECIMAL, DOT_DECIMAL, DOT_DECIMAL_PLAIN],
    currencySymbol: "$",
    symbolAfter: false,
    symbolAmbiguous: true,
    explicitSymbol: "A$",
    paper: "A4",
  },
  "en-MY": {
    tag: "en-MY",
    lang: "en",
    country: "MY",
    currency: "MYR",
    dateOrder: "DMY",
    dateSeparators: ["/", "-"],
    numberStyles: [DOT_DECIMAL, DOT_DECIMAL_PLAIN],
    currencySymbol: "RM",
    symbolAfter: false,
    symbolAmbiguous: false,
    explicitSymbol: null,
    paper: "A4",
  },
  "de-DE": {
    tag: "de-DE",
    lang: "de",
    country: "DE",
    currency: "EUR",
    dateOrder: "DMY",
    dateSeparators: [".", ".", "/"],
    numberStyles: [COMMA_DECIMAL, COMMA_DECIMAL, COMMA_DECIMAL_PLAIN],
    currencySymbol: "€",
    symbolAfter: true,
    symbolAmbiguous: false,
    explicitSymbol: null,
    paper: "A4",
  },
  "de-CH": {
    tag: "de-CH",
    lang: "de",
    country: "CH",
    currency: "CHF",
    dateOrder: "DMY",
    dateSeparators: ["."],
    numberStyles: [{ thousands: "'", decimal: "." }, DOT_DECIMAL_PLAIN],
    currencySymbol: null,
    symbolAfter: false,
    symbolAmbiguous: false,
    explicitSymbol: null,
    paper: "A4",
  },
  "fr-FR": {
    tag: "fr-FR",
    lang: "fr",
    country: "FR",
    currency: "EUR",
    dateOrder: "DMY",
    dateSeparators: ["/", "/", "."],
    numberStyles: [SPACE_COMMA, SPACE_COMMA, COMMA_DECIMAL_PLAIN, COMMA_DECIMAL],
    currencySymbol: "€",
    symbolAfter: true,
    symbolAmbiguous: false,
    explicitSymbol: null,
    paper: "A4",
  },
  "es-ES": {
    tag: "es-ES",
    lang: "es",
    country: "ES",
    currency: "EUR",
    dateOrder: "DMY",
    dateSeparators: ["/", "-"],
    numberStyles: [COMMA_DECIMAL, COMMA_DECIMAL, COMMA_DECIMAL_PLAIN],
    currencySymbol: "€",
    symbolAfter: true,
    symbolAmbiguous: false,
    explicitSymbol: null,
    paper: "A4",
  },
  "nl-NL": {
    tag: "nl-NL",
    lang: "nl",
    country: "NL",
    currency: "EUR",
    dateOrder: "DMY",
    dateSeparators: ["-", "-", "/"],
    numberStyles: [COMMA_DECIMAL, COMMA_DECIMAL, COMMA_DECIMAL_PLAIN],
    currencySymbol: "€",
    symbolAfter: false,
    symbolAmbiguous: false,
    explicitSymbol: null,
    paper: "A4",
  },
};

/** Relative frequency of each locale among invoices and receipts. */
export const INVOICE_LOCALES: readonly (readonly [string, number])[] = [
  ["en-US", 14],
  ["en-GB", 12],
  ["en-AU", 12],
  ["de-DE", 18],
  ["de-CH", 4],
  ["fr-FR", 14],
  ["es-ES", 12],
  ["nl-NL", 14],
];

export const RECEIPT_LOCALES: readonly (readonly [string, number])[] = [
  ["en-US", 12],
  ["en-GB", 10],
  ["en-AU", 14],
  ["en-MY", 16],
  ["de-DE", 14],
  ["fr-FR", 12],
  ["es-ES", 10],
  ["nl-NL", 12],
];

export function localeProfile(tag: string): LocaleProfile {
  const profile = LOCALES[tag];
  if (!profile) throw new Error(`unknown synthetic locale ${tag}`);
  return profile;
}
