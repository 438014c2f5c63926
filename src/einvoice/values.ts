/**
 * XML values into the catalogue's normal forms. The XML states amounts as plain decimals and dates in its own codes;
 * nothing is guessed, so a value the XML does not state exactly is left out rather than approximated.
 */

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/**
 * A decimal as text with at least `places` decimals and no other trailing zeros ("100.0000" -> "100.00",
 * "1.4550" -> "1.455"); `negate` flips the sign. Exact: no binary floating point on the way.
 */
export function decimalText(raw: string | null, places: number, negate = false): string | null {
  const match = raw === null ? null : DECIMAL.exec(raw.trim());
  if (!match || (match[2] === "" && (match[3] ?? "") === "")) return null;
  const whole = (match[2] ?? "").replace(/^0+(?=\d)/, "") || "0";
  let fraction = (match[3] ?? "").replace(/0+$/, "");
  fraction = fraction.padEnd(places, "0");
  const digits = fraction === "" ? whole : `${whole}.${fraction}`;
  const zero = /^[0.]*$/.test(digits);
  const negative = (match[1] === "-") !== negate;
  return negative && !zero ? `-${digits}` : digits;
}

/** An amount in the catalogue's form: two decimals at least. */
export function amountText(raw: string | null, negate = false): string | null {
  return decimalText(raw, 2, negate);
}

/** A quantity as the XML states it, trailing zeros dropped ("10.0000" -> "10"). */
export function quantityText(raw: string | null, negate = false): string | null {
  return decimalText(raw, 0, negate);
}

function isoIfReal(year: string, month: string, day: string): string | null {
  const iso = `${year}-${month}-${day}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso ? iso : null;
}

/**
 * A date as YYYY-MM-DD from CII's DateTimeString (format 102 = CCYYMMDD; other formats name a month or a week, not
 * a day, and are left out) or an ISO date or date-time (UBL, ZUGFeRD 1's IssueDateTime).
 */
export function dateText(raw: string | null, format?: string): string | null {
  const text = raw?.trim() ?? "";
  if ((format === undefined || format === "102") && /^\d{8}$/.test(text))
    return isoIfReal(text.slice(0, 4), text.slice(4, 6), text.slice(6, 8));
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(text);
  return iso && format === undefined ? isoIfReal(iso[1] ?? "", iso[2] ?? "", iso[3] ?? "") : null;
}

/** Identifiers compact and upper case, as the catalogue keeps tax ids, IBANs and BICs. */
export function compactId(raw: string | null): string | null {
  const compact = raw?.replace(/\s+/g, "").toUpperCase() ?? "";
  return compact === "" ? null : compact;
}
