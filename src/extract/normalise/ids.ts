/**
 * Bank and tax identifiers -> compact upper case. IBAN and BIC checks come from ibantools; tax ids live in
 * `tax-id.ts` and are re-exported here so callers find every identifier in one place.
 */
import { electronicFormatIBAN, isValidBIC, ValidationErrorsIBAN, validateIBAN } from "ibantools";
import { trimEdges } from "./trim.js";

export { type ParsedTaxId, parseTaxId, withLostPrefixLetter } from "./tax-id.js";

/**
 * IBANs are printed in groups of four separated by spaces (sometimes dashes or dots); the country's length and format
 * and the IBAN's own check digits (mod 97, which catches every misread digit) decide. A country's national check
 * digits inside the account number (France's RIB key, Belgium's, Spain's...) are no part of the IBAN standard: an
 * IBAN whose mod-97 check holds is printed as it is, even where that inner key does not (example and test accounts).
 */
export function parseIban(text: string): string | null {
  // A dollar sign is no IBAN character: OCR reads a 5 so ("8542 $874" for "8542 5874"); the check digits decide.
  const cleaned = trimEdges(text).replace(/\$/g, "5");
  // "DE 44 8271 ...": a space after the country, printed or read into the code by OCR.
  if (!/^[A-Za-z]{2} ?\d{2}[A-Za-z0-9 .-]{8,40}$/.test(cleaned)) return null;
  const compact = electronicFormatIBAN(cleaned.replace(/[.-]/g, ""));
  if (compact === null) return null;
  const { errorCodes } = validateIBAN(compact);
  return errorCodes.every((code) => code === ValidationErrorsIBAN.WrongAccountBankBranchChecksum) ? compact : null;
}

/**
 * 8 or 11 characters with a real country code. BICs are always printed in upper case; lower-case words are refused
 * because many ordinary 8-letter words would otherwise pass ("absolute" -> ABSO LU TE).
 */
export function parseBic(text: string): string | null {
  const cleaned = trimEdges(text);
  if (!/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(cleaned)) return null;
  return isValidBIC(cleaned) ? cleaned : null;
}

/** Australian bank-state-branch number: "062-000", "062 000" or "062000" -> "062-000". */
export function parseBsb(text: string): string | null {
  const match = /^(\d{3})[- ]?(\d{3})$/.exec(trimEdges(text));
  return match === null ? null : `${match[1]}-${match[2]}`;
}
