/**
 * Tax identifiers -> compact upper case with the issuing country: EU and other VAT numbers (jsvat: DE, FR, ATU, GB,
 * CHE ... MWST/TVA/IVA), Australian ABN, US EIN, German Steuernummer and Malaysian GST/SST registration numbers.
 * `valid` says whether the id passed every check its scheme has (a checksum where one exists). A VAT id whose country
 * prefix names the scheme is returned even when its checksum fails, because specimen and test documents print such
 * ids; bare digit runs (ABN, EIN) are returned only when their check holds, since otherwise they are more likely
 * phone or reference numbers.
 */
import { checkVAT, countries } from "jsvat";
import { trimEdges } from "./trim.js";

export interface ParsedTaxId {
  value: string;
  country: string | null;
  valid: boolean;
}

/** Swiss UIDs carry the VAT register as a word after the number. */
const SWISS_SUFFIX = /(MWST|TVA|IVA)$/;

function compact(text: string): string {
  return text.replace(/[\s./-]/g, "").toUpperCase();
}

/**
 * A VAT id's country code as printed: two capitals, no full stop after them. "No. 388762969" (a routing number) and
 * "NO. 4711" are the word "number", not Norway's prefix.
 */
const PRINTED_PREFIX = /^[A-Z]{2}(?!\.)/;

function vatId(text: string): ParsedTaxId | null {
  if (!PRINTED_PREFIX.test(text)) return null;
  const value = compact(text);
  if (!/^[A-Z]{2}/.test(value) || !/\d{2}/.test(value) || value.length > 20) return null;
  const result = checkVAT(value, countries);
  if (!result.isValidFormat || result.country === undefined) return null;
  const country = result.country.isoCode.short;
  return { value: country === "CH" ? value.replace(SWISS_SUFFIX, "") : value, country, valid: result.isValid };
}

const ABN_WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];

/** ABN: 11 digits, usually "51 824 753 556"; subtract 1 from the first digit, weighted sum divisible by 89. */
function abn(text: string): ParsedTaxId | null {
  if (!/^\d{2} ?\d{3} ?\d{3} ?\d{3}$/.test(text)) return null;
  const digits = text.replace(/ /g, "");
  const sum = [...digits].reduce(
    (total, digit, index) => total + (Number(digit) - (index === 0 ? 1 : 0)) * (ABN_WEIGHTS[index] ?? 0),
    0,
  );
  return sum % 89 === 0 ? { value: digits, country: "AU", valid: true } : null;
}

/** EIN prefixes the IRS has never assigned. */
const UNUSED_EIN_PREFIXES = new Set([
  "00",
  "07",
  "08",
  "09",
  "17",
  "18",
  "19",
  "28",
  "29",
  "49",
  "69",
  "70",
  "78",
  "79",
  "89",
  "96",
  "97",
]);

/** US EIN: only the printed "12-3456789" form; nine bare digits say nothing about what they are. */
function ein(text: string): ParsedTaxId | null {
  const match = /^(\d{2})-(\d{7})$/.exec(text);
  if (match === null) return null;
  const prefix = match[1] ?? "";
  return UNUSED_EIN_PREFIXES.has(prefix) ? null : { value: `${prefix}${match[2]}`, country: "US", valid: true };
}

/** German Steuernummer as printed by the states: 2/3/5, 3/3/5 or 3/4/4 digits separated by "/". */
function steuernummer(text: string): ParsedTaxId | null {
  const match = /^(\d{2,3})\/(\d{3,4})\/(\d{4,5})$/.exec(text);
  if (match === null) return null;
  const value = `${match[1]}${match[2]}${match[3]}`;
  return value.length === 10 || value.length === 11 ? { value, country: "DE", valid: true } : null;
}

/**
 * Malaysia: GST registration numbers are twelve digits that start with "00" (000123456789); SST registration
 * numbers are printed "W10-1808-32000008" (the dashes are required: without them the form is any reference number).
 */
function malaysian(text: string): ParsedTaxId | null {
  if (/^00\d{10}$/.test(text)) return { value: text, country: "MY", valid: true };
  const sst = /^([A-Z]\d{2})-(\d{4})-(\d{8})$/.exec(text.toUpperCase());
  return sst === null ? null : { value: `${sst[1]}${sst[2]}${sst[3]}`, country: "MY", valid: true };
}

/**
 * Two-letter prefixes of the VAT ids jsvat checks by a checksum (Greece prints EL, its ISO code is GR; the EU's OSS
 * numbers have no checksum, so nothing could tell a repair right).
 */
const VAT_PREFIXES = [...countries.map((c) => c.codes[0] ?? ""), "EL"].filter(
  (code) => /^[A-Z]{2}$/.test(code) && code !== "EU",
);

/**
 * A VAT id whose country prefix lost a letter to OCR (the "F" of "FR 11 123 456 782" touching a box's rule): the one
 * prefix holding that letter whose checksum the digits pass. Null when none or several pass, or the scheme has no
 * checksum to decide by.
 */
export function withLostPrefixLetter(text: string): ParsedTaxId | null {
  const value = compact(trimEdges(text));
  const read = /^([A-Z])(\d{8,14})$/.exec(value);
  if (!read) return null;
  const [, letter = "", digits = ""] = read;
  const passing = VAT_PREFIXES.filter((prefix) => prefix.includes(letter))
    .map((prefix) => vatId(prefix + digits))
    .filter((parsed): parsed is ParsedTaxId => parsed?.valid === true);
  return passing.length === 1 ? (passing[0] ?? null) : null;
}

/** Parses the whole string as one tax id, or returns null. */
export function parseTaxId(text: string): ParsedTaxId | null {
  if (!/\d/.test(text)) return null;
  const cleaned = trimEdges(text);
  if (cleaned === "" || cleaned.length > 32) return null;
  return vatId(cleaned) ?? abn(cleaned) ?? ein(cleaned) ?? steuernummer(cleaned) ?? malaysian(cleaned);
}
