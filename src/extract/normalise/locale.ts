/**
 * Locale hints: what a BCP 47 tag tells the parsers about ambiguous dates and numbers.
 * The conventions come from the runtime's CLDR data (Intl) rather than a hand-kept table.
 */
import { canonicalLocale } from "../../domain/locale.js";

export type DateOrder = "DMY" | "MDY" | "YMD";

export interface LocaleHints {
  dateOrder?: DateOrder;
  decimalSeparator?: "," | ".";
  /** ISO 3166 alpha-2, upper case. */
  country?: string;
  /** ISO 639-1 (or the tag's primary language subtag), lower case. */
  language?: string;
}

/** A fixed date whose day, month and year are all different, so their printed order is unambiguous. */
const PROBE_DATE = new Date(Date.UTC(2024, 2, 4));

/**
 * Languages whose region-less tag says nothing reliable about date order: CLDR maps bare `en` to en-US (MDY),
 * yet most English-language documents in the world are day-first. Leaving the order out lets the engine infer it.
 */
const ORDER_NEEDS_REGION = new Set(["en"]);

/** The canonical tag (domain/locale.ts) when the runtime has data for it: Intl would answer others with its default. */
function supported(tag: string): string | null {
  const name = canonicalLocale(tag);
  return name !== null && Intl.DateTimeFormat.supportedLocalesOf([name]).length > 0 ? name : null;
}

function dateOrderOf(tag: string): DateOrder | undefined {
  const parts = new Intl.DateTimeFormat(tag, { year: "numeric", month: "numeric", day: "numeric", timeZone: "UTC" })
    .formatToParts(PROBE_DATE)
    .map((part) => part.type)
    .filter((type) => type === "year" || type === "month" || type === "day");
  const order = parts.map((type) => type[0]?.toUpperCase()).join("");
  return order === "DMY" || order === "MDY" || order === "YMD" ? order : undefined;
}

function decimalSeparatorOf(tag: string): "," | "." | undefined {
  const decimal = new Intl.NumberFormat(tag).formatToParts(1.5).find((part) => part.type === "decimal")?.value;
  return decimal === "," || decimal === "." ? decimal : undefined;
}

/** BCP 47 tag -> hints (en-US: MDY + "."; en-AU, en-GB: DMY + "."; de-DE, fr-FR: DMY + ","). Unknown or absent -> {}. */
export function localeHints(tag: string | undefined): LocaleHints {
  if (tag === undefined) return {};
  const name = supported(tag);
  if (name === null) return {};
  const locale = new Intl.Locale(name);
  const hints: LocaleHints = { language: locale.language };
  if (locale.region !== undefined && /^[A-Z]{2}$/.test(locale.region)) hints.country = locale.region;
  const dateOrder = dateOrderOf(name);
  if (dateOrder !== undefined && (locale.region !== undefined || !ORDER_NEEDS_REGION.has(locale.language))) {
    hints.dateOrder = dateOrder;
  }
  const decimalSeparator = decimalSeparatorOf(name);
  if (decimalSeparator !== undefined) hints.decimalSeparator = decimalSeparator;
  return hints;
}
