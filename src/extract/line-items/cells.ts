/** Cell text -> normal form: money, quantities, tax rates, dates. Null when the text does not read as one. */
import { parseAmount } from "../normalise/amount.js";
import type { LocaleHints } from "../normalise/locale.js";

/** The hyphens and dashes a PDF may print as a minus sign ("‐5,00" with U+2010), as "-". */
function minus(text: string): string {
  return text.replace(/[\u2010\u2011\u2012\u2212]/g, "-");
}

/** Money as printed ("1.234,50 €", "(12.00)", "-5,00") -> "1234.50"; null for anything else. */
export function moneyCell(text: string, hints: LocaleHints): string | null {
  // Smudges OCR reads before a number ("~~ 533,39") are no sign or currency.
  const trimmed = minus(text.trim()).replace(/^[~=_—|]+\s*/, "");
  if (!/\d/.test(trimmed) || /%/.test(trimmed)) return null;
  // Letters joined to digits by a hyphen are a code ("RN-1483", "AB-12.50"), not a currency and a minus sign.
  if (/^\p{L}+-\d/u.test(trimmed)) return null;
  const parsed = parseAmount(trimmed, hints)?.text ?? null;
  if (parsed !== null) return parsed;
  const closed = closeNumberGaps(trimmed);
  return closed === trimmed ? null : (parseAmount(closed, hints)?.text ?? null);
}

/**
 * OCR's stray spaces inside a number closed: "5, 920.20" -> "5,920.20", "217 .53" -> "217.53", "A$ 12.00" ->
 * "A$12.00". Only a space beside a separator between digits, or after a currency sign, is taken out.
 */
export function closeNumberGaps(text: string): string {
  return text
    .replace(/(\d[.,'’])\s+(?=\d)/g, "$1")
    .replace(/(\d)\s+(?=[.,]\d{1,2}(?!\d))/g, "$1")
    .replace(/([$€£¥])\s+(?=\d)/g, "$1");
}

/** Whether a chunk reads as money with decimals (receipts' item amounts always print cents). */
export function hasCents(text: string): boolean {
  return /\d[.,]\d{2}(?!\d)/.test(text) || /\d[.,][-–]{1,2}$/.test(text);
}

/** A plain decimal without trailing zeros: 3 -> "3", 2.5 -> "2.5". */
export function plainDecimal(value: number): string {
  const text = value.toFixed(4).replace(/\.?0+$/, "");
  return text === "-0" ? "0" : text;
}

/** A currency sign or code printed before or after the number ("0.025 €", "EUR 3,3333"). */
const CURRENCY_MARK = /^(?:[$€£¥]|[A-Z]{3})\s*|\s*(?:[$€£¥]|[A-Z]{3})$/g;

/**
 * A number with three or four decimals as unit prices and quantities print them ("3,3333", "1.000,0000", "-5,0000"),
 * which money parsing leaves alone: the last separator is the decimal one when the digits after it are not a
 * thousands group (four of them, or three with another separator before).
 */
function finePlaces(text: string): number | null {
  // Thousands grouped by a space as well ("4 145,7700"); OCR's stray space after the separator closed ("519, 4000").
  const m = /^([-–]?)(\d{1,3}(?:([.,'’ \u00a0\u202f])\d{3})*|\d+)([.,])(\d{3,4})$/.exec(
    closeNumberGaps(minus(text.trim()).replace(CURRENCY_MARK, "")),
  );
  if (m === null) return null;
  const [, sign, whole = "", group, decimal, places = ""] = m;
  // "1.500" may group thousands; "0.025" may not.
  if (group === decimal || (places.length === 3 && group === undefined && whole !== "0")) return null;
  const value = Number(`${whole.replace(/[.,'’ \u00a0\u202f]/g, "")}.${places}`);
  return Number.isFinite(value) ? (sign === "" ? value : -value) : null;
}

/**
 * A unit price: money, or a price with three or four decimals ("3,3333" -> "3.3333", "5,5000" -> "5.50", "0.025").
 */
export function priceCell(text: string, hints: LocaleHints): string | null {
  // Before money, which rounds a fraction of a cent away ("0.025" per litre).
  const value = finePlaces(text);
  if (value === null) return moneyCell(text, hints);
  const fixed = value.toFixed(4).replace(/0{1,2}$/, "");
  return fixed === "-0.00" ? "0.00" : fixed;
}

export interface Quantity {
  quantity: string;
  unit: string | null;
}

/** "3", "2,5", "1.000", "3 Stk", "10h", "2 x", "5 Unit(s)" -> quantity and unit. */
export function quantityCell(text: string, hints: LocaleHints): Quantity | null {
  const match = /^([-–]?\d[\d.,'’\s]*?)\s*(?:([\p{L}][\p{L}.²³]{0,7}(?:\(\p{L}{1,2}\))?)|[x×])?$/u.exec(
    minus(text.trim()),
  );
  if (match === null) return null;
  const digits = (match[1] ?? "").replace(/\s/g, "");
  let value: number | null = null;
  if (/^[-−–]?\d+$/.test(digits)) value = Number(digits.replace(/[−–]/, "-"));
  else {
    // Quantities print up to three decimals ("1,500 kg"): the locale decides a lone separator before 3 digits.
    const parsed = parseAmount(digits, hints);
    if (parsed !== null) value = parsed.value;
    else if (/^\d+[.,]\d{1,4}$/.test(digits)) value = Number(digits.replace(",", "."));
    else value = finePlaces(digits);
  }
  if (value === null || !Number.isFinite(value)) return null;
  return { quantity: plainDecimal(value), unit: match[2] ?? null };
}

/** A rate's figure: "19", "7,5", "10.000". */
const RATE = String.raw`\d{1,2}(?:[.,]\d{1,3})?`;
const TAX_RATE = new RegExp(String.raw`^(${RATE}|100)\s*(?:%[\p{L}().\s]*)?$`, "u");
const RATE_WITH_CATEGORY = new RegExp(String.raw`^${RATE}\s*%\s*\(?\p{L}[\p{L}().\s]*$`, "u");
const PERCENT = new RegExp(String.raw`^${RATE}\s*%$`);

/** "19%", "19 %", "19,00", "7.0" -> "19.00"; null outside 0..100. */
export function taxRateCell(text: string): string | null {
  // A rate may print its category after the sign ("19 % VAT (S)", "20% TVA").
  const match = TAX_RATE.exec(text.trim());
  if (match === null) return null;
  const value = Number((match[1] ?? "").replace(",", "."));
  return Number.isFinite(value) && value >= 0 && value <= 100 ? value.toFixed(2) : null;
}

/** Whether a chunk is a rate followed by its category ("19 % VAT (S)", "20% TVA"). */
export function isRateWithCategory(text: string): boolean {
  return RATE_WITH_CATEGORY.test(text.trim());
}

/** Whether a chunk is a percentage ("19%", "7 %"). */
export function isPercent(text: string): boolean {
  return PERCENT.test(text.trim());
}

/** A numeric date -> ISO (day first unless the locale writes month first); other text is returned trimmed. */
export function dateCell(text: string, hints: LocaleHints): string {
  const t = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (iso !== null) return t;
  const m = /^(\d{1,2})[./-](\d{1,2})[./-](\d{2}|\d{4})$/.exec(t);
  if (m === null) return t;
  const a = Number(m[1]);
  const b = Number(m[2]);
  const year = (m[3] ?? "").length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
  const monthFirst = hints.dateOrder === "MDY" && b <= 31 && a <= 12;
  const day = monthFirst ? b : a;
  const month = monthFirst ? a : b;
  if (month < 1 || month > 12 || day < 1 || day > 31) return t;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** Whether a chunk's text reads as a number of any kind (money, quantity, percentage, numeric date). */
export function isNumeric(text: string, hints: LocaleHints): boolean {
  const t = text.trim();
  if (!/\d/.test(t)) return false;
  if (isPercent(t)) return true;
  if (/^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/.test(t)) return true;
  if (priceCell(t, hints) !== null) return true;
  return quantityCell(t, hints) !== null;
}
