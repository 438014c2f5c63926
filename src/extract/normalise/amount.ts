/**
 * Money amounts as printed -> a number and its canonical two-decimal text.
 * Handles grouping by ".", ",", "'", spaces (also the narrow no-break spaces French typesetting uses) and Indian
 * lakh grouping; negatives written "-12,00", "12,00-" or "(12.00)"; currency marks before or after the number;
 * German "12,-" for whole amounts; and the OCR slips that cannot invent a value (see `repairOcr` and `roundCents`).
 */
import { parseCurrency } from "./currency.js";
import type { LocaleHints } from "./locale.js";
import { trimEdgesKeepingParens } from "./trim.js";

export interface ParsedAmount {
  value: number;
  /** Two decimals, "-" for negatives, no grouping: "1234.50". */
  text: string;
  /** ISO 4217 when a symbol or code was attached to the number. */
  currency: string | null;
}

/** Beyond this the value no longer fits a double to the cent; such digit runs are ids, not money. */
const MAX_INTEGER_DIGITS = 13;

/** Two decimals, no grouping, "-" for negatives; rounds half away from zero on the decimal value as written. */
export function formatAmount(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite amount: ${value}`);
  const magnitude = Math.abs(value);
  const written = String(magnitude);
  // Shifting the decimal point in the shortest round-trip text avoids binary artefacts (1.005 * 100 = 100.49999...).
  const cents = written.includes("e") ? Math.round(magnitude * 100) : Math.round(Number(`${written}e2`));
  const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
  return value < 0 && cents !== 0 ? `-${text}` : text;
}

const GROUP_CHARS = /[\s\u00a0\u202f\u2009'’]/;

interface Digits {
  integer: string;
  fraction: string;
}

function validGroups(groups: readonly string[], separator: string): boolean {
  const [first, ...rest] = groups;
  if (first === undefined || rest.length === 0) return false;
  if (!/^[1-9]\d{0,2}$/.test(first)) return false;
  if (rest.every((group) => /^\d{3}$/.test(group))) return true;
  // Indian grouping: 12,34,567.00 (lakh, crore).
  const last = rest[rest.length - 1] ?? "";
  return (
    separator === "," &&
    first.length <= 2 &&
    /^\d{3}$/.test(last) &&
    rest.slice(0, -1).every((group) => /^\d{2}$/.test(group))
  );
}

/** An integer part that may carry one kind of grouping separator. */
function integerPart(text: string, allowed: (separator: string) => boolean): string | null {
  if (/^\d+$/.test(text)) return /^(0|[1-9]\d*)$/.test(text) ? text : null;
  const separators = new Set(text.replace(/\d/g, ""));
  if (separators.size !== 1) return null;
  const [separator] = [...separators];
  if (separator === undefined || !allowed(separator)) return null;
  const groups = text.split(separator);
  return validGroups(groups, separator) ? groups.join("") : null;
}

function isGroupSeparator(separator: string): boolean {
  return GROUP_CHARS.test(separator);
}

/**
 * The digits of a bare number. The last "." or "," is the decimal separator when 1-2 digits follow it; with exactly
 * three digits after a lone separator ("1,234"), the locale's decimal separator decides, and without one it groups
 * thousands (invoices rarely print three decimals).
 */
function splitNumber(core: string, hints: LocaleHints): Digits | null {
  const last = Math.max(core.lastIndexOf("."), core.lastIndexOf(","));
  if (last < 0) {
    const integer = integerPart(core, isGroupSeparator);
    return integer === null ? null : { integer, fraction: "" };
  }
  const separator = core[last] ?? "";
  const head = core.slice(0, last);
  const tail = core.slice(last + 1);
  if (!/^\d+$/.test(tail)) return null;
  if (/^\d+$/.test(head) && tail.length === 3) {
    const decimal =
      hints.decimalSeparator !== undefined
        ? hints.decimalSeparator === separator
        : head.startsWith("0") || head.length > 3;
    if (decimal) {
      const integer = integerPart(head, () => false);
      return integer === null ? null : { integer, fraction: tail };
    }
    const integer = integerPart(core, () => true);
    return integer === null ? null : { integer, fraction: "" };
  }
  if (head.includes(separator)) {
    // "4,129,39": two places after a separator that also groups the thousands before them. A scan's decimal point
    // read as a comma (or a comma as a point); no grouping ends in two digits.
    if (tail.length === 2) {
      const integer = integerPart(head, (found) => found === separator);
      return integer === null ? null : { integer, fraction: tail };
    }
    // Every "." (or every ",") groups: 1.234.567
    const integer = integerPart(core, (found) => found === separator);
    return integer === null ? null : { integer, fraction: "" };
  }
  if (tail.length > 2) return null;
  // The head holds no more decimal separators, so whatever separates its digits groups them.
  const integer = integerPart(head, () => true);
  return integer === null ? null : { integer, fraction: tail };
}

/**
 * OCR reads 0 as O/o and 1 as l/I/|. The swap is undone only inside a money-shaped token (digits with exactly two
 * decimals and at least one real digit), where no word could be meant; a currency mark glued to the number ("RM1O.5O")
 * is set aside first and kept.
 */
function repairOcr(token: string): string {
  const cents = roundCents(token);
  const [, prefix = "", core = "", suffix = ""] = /^([^\dOoIl|]*)(.*?)([^\dOoIl|.,]*)$/.exec(cents) ?? [];
  if (!/[OoIl|]/.test(core) || !/\d/.test(core)) return cents;
  const repaired = core.replace(/[Oo]/g, "0").replace(/[Il|]/g, "1");
  return /^\d[\d.,'’]*[.,]\d{2}$/.test(repaired) ? `${prefix}${repaired}${suffix}` : cents;
}

/**
 * A worn thermal print leaves the last 0 of the cents open or flattened, and OCR reads it as another round capital
 * ("119.7C", "5.0D"). Only the last place of a two-place fraction behind a real digit is repaired: there a letter
 * ends no word a receipt prints, while "C" or "D" anywhere else may be a unit or a code.
 */
function roundCents(token: string): string {
  return token.replace(/(\d[.,]\d)[CDQ]$/, "$10");
}

interface Marks {
  negative: number;
  currencies: string[];
  /** A front mark read as a misprinted currency mark (see misreadCurrency). */
  misread: boolean;
  wholeUnits: boolean;
}

/** A currency mark is one or two non-numeric words ("EUR", "€", "$ US"); a point after it starts the number. */
const FRONT_CURRENCY = /^((?![.,])[^\d\s\-−–(]+(?:\s(?![.,])[^\d\s\-−–(]+)?)\s*/;
const BACK_CURRENCY = /\s*([^\d\s\-−–)]+(?:\s[^\d\s\-−–)]+)?)$/;

/**
 * Letters OCR mistakes for one another in the short capitals of a currency mark on a till roll ("RH", "RN", "FM" and
 * "KM" for "RM"; "EUK" for "EUR"). Each group holds shapes that differ by a stroke or two. "S" for "$" and "G" for
 * "C" are left out: they would read "SST" (a tax) as "$ST" and "KG" (a unit) as "Kč".
 */
const CONFUSABLE_GROUPS: readonly string[] = ["RFKB", "MHNW", "EFC", "UV", "ODQ", "IL"];

/**
 * Whether a front mark of 2-3 letters is one OCR confusion away from exactly one currency mark: a misread mark must
 * not keep its amount from being a candidate. The amount then carries no currency, since units ("KM" beside "RM") are
 * as close to a mark as misreadings are; ambiguous repairs and longer words stay unread.
 */
function misreadCurrency(mark: string, hints: LocaleHints): boolean {
  const upper = mark.toUpperCase();
  if (!/^[A-Z]{2,3}$/.test(upper)) return false;
  const found = new Set<string>();
  for (let i = 0; i < upper.length; i++) {
    const char = upper[i] ?? "";
    for (const group of CONFUSABLE_GROUPS) {
      if (!group.includes(char)) continue;
      for (const other of group) {
        if (other === char) continue;
        const currency = parseCurrency(upper.slice(0, i) + other + upper.slice(i + 1), hints);
        if (currency !== null) found.add(currency);
      }
    }
  }
  return found.size === 1;
}

/** Peels signs, currency marks and parentheses off both ends until only the number is left. */
function peel(text: string, hints: LocaleHints, marks: Marks): string | null {
  let rest = text.trim();
  for (let round = 0; round < 4; round++) {
    const before = rest;
    if (/^\(.*\)$/.test(rest)) {
      rest = rest.slice(1, -1).trim();
      marks.negative++;
    }
    const sign = /^[-−–‐‑‒﹣－]\s*/.exec(rest);
    if (sign !== null) {
      rest = rest.slice(sign[0].length);
      marks.negative++;
    }
    const front = FRONT_CURRENCY.exec(rest);
    if (front !== null) {
      const mark = front[1] ?? "";
      const currency = parseCurrency(mark, hints);
      if (currency !== null) marks.currencies.push(currency);
      else if (misreadCurrency(mark, hints)) marks.misread = true;
      else return null;
      rest = rest.slice(front[0].length);
    }
    if (/[.,][-–—]{1,2}$/.test(rest)) {
      rest = rest.replace(/[.,][-–—]{1,2}$/, "");
      marks.wholeUnits = true;
    }
    const trailingSign = /\s*[-−–‐‑‒﹣－]$/.exec(rest);
    if (trailingSign !== null) {
      rest = rest.slice(0, -trailingSign[0].length);
      marks.negative++;
    }
    const back = BACK_CURRENCY.exec(rest);
    if (back !== null && !/^[.,]+$/.test(back[1] ?? "")) {
      const currency = parseCurrency(back[1] ?? "", hints);
      if (currency === null) return null;
      marks.currencies.push(currency);
      rest = rest.slice(0, -back[0].length);
    }
    if (rest === before) break;
  }
  return rest;
}

/** Parses the whole string as one amount, or returns null. See the module comment for the forms. */
export function parseAmount(text: string, hints: LocaleHints): ParsedAmount | null {
  // Even OCR-damaged amounts keep one real digit (see repairOcr); most spans of a page have none.
  if (!/\d/.test(text)) return null;
  const trimmed = trimEdgesKeepingParens(text).replace(/(\d)\.$/, "$1");
  if (trimmed === "" || trimmed.length > 40) return null;
  const marks: Marks = { negative: 0, currencies: [], misread: false, wholeUnits: false };
  const repaired = trimmed
    .split(" ")
    .map((token) => repairOcr(token))
    .join(" ");
  const peeled = peel(repaired, hints, marks);
  if (peeled === null || marks.negative > 1) return null;
  const currency = marks.currencies[0] ?? null;
  if (marks.currencies.some((other) => other !== currency)) return null;
  // "27. 55", "50 .00": OCR splits a number at its decimal separator. "RM 64 15": thermal printers' faint decimal
  // points vanish; two digits after a space are cents only next to a currency mark (a space groups three digits).
  let core = peeled.replace(/^(\d+)(?:([.,]) | ([.,]))(\d{2})$/, "$1$2$3$4");
  // "RM .30": next to a currency mark a fraction with nothing before its point is cents; OCR lost the faint "0".
  if (currency !== null || marks.misread)
    core = core.replace(/^(\d{1,3}) (\d{2})$/, "$1.$2").replace(/^[.,](\d{2})$/, "0.$1");
  if (!/^\d[\d.,\s\u00a0\u202f\u2009'’]*$/.test(core) || !/\d$/.test(core)) return null;
  const digits = splitNumber(core, hints);
  if (digits === null || digits.integer === "" || digits.integer.length > MAX_INTEGER_DIGITS) return null;
  if (marks.wholeUnits && digits.fraction !== "") return null;
  const magnitude = Number(digits.fraction === "" ? digits.integer : `${digits.integer}.${digits.fraction}`);
  const value = marks.negative > 0 && magnitude !== 0 ? -magnitude : magnitude;
  return { value, text: formatAmount(value), currency };
}
