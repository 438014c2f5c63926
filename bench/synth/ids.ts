/**
 * Identifiers with real check digits (VAT numbers, ABN, IBAN, BIC), so extractors that validate checksums
 * see the same thing they would on real invoices. All return the compact upper-case form used in labels.
 */
import type { Rng } from "./prng.js";

export type Country = "DE" | "FR" | "NL" | "ES" | "GB" | "CH" | "AU" | "US" | "MY";

/** ISO 7064 MOD 11,10 over the first eight digits (German USt-IdNr.). */
export function germanVat(rng: Rng): string {
  const body = String(rng.int(1, 9)) + rng.digits(7);
  let product = 10;
  for (const ch of body) {
    let sum = (Number(ch) + product) % 10;
    if (sum === 0) sum = 10;
    product = (2 * sum) % 11;
  }
  const check = 11 - product === 10 ? 0 : 11 - product;
  return `DE${body}${check}`;
}

/** French TVA: key = (12 + 3 * (SIREN mod 97)) mod 97, SIREN itself Luhn-valid. */
export function frenchVat(rng: Rng): string {
  const siren = luhnComplete(String(rng.int(1, 9)) + rng.digits(7));
  const key = (12 + 3 * (Number(siren) % 97)) % 97;
  return `FR${String(key).padStart(2, "0")}${siren}`;
}

/** Dutch btw-id: nine digits passing the 11-proof, then B01..B99. */
export function dutchVat(rng: Rng): string {
  for (;;) {
    const body = String(rng.int(1, 9)) + rng.digits(7);
    const weights = [9, 8, 7, 6, 5, 4, 3, 2];
    const total = [...body].reduce((sum, ch, i) => sum + Number(ch) * weights[i]!, 0) % 11;
    if (total > 9) continue;
    return `NL${body}${total}B${String(rng.int(1, 19)).padStart(2, "0")}`;
  }
}

/** UK VAT: seven digits weighted 8..2, two check digits making the sum divisible by 97. */
export function britishVat(rng: Rng): string {
  for (;;) {
    const body = String(rng.int(1, 9)) + rng.digits(6);
    const n = Number(body);
    if (n >= 9490001 && n <= 9700000) continue;
    if (n >= 9990001) continue;
    const weights = [8, 7, 6, 5, 4, 3, 2];
    const total = [...body].reduce((sum, ch, i) => sum + Number(ch) * weights[i]!, 0);
    const check = (97 - (total % 97)) % 97;
    return `GB${body}${String(check).padStart(2, "0")}`;
  }
}

/** Spanish NIF of a company (letter A or B, seven digits, numeric control). */
export function spanishVat(rng: Rng): string {
  const letter = rng.pick(["A", "B"]);
  const body = rng.digits(7);
  let total = 0;
  for (let i = 0; i < 7; i++) {
    const t = Number(body[i]) * (i % 2 === 0 ? 2 : 1);
    total += t > 9 ? Math.floor(t / 10) + (t % 10) : t;
  }
  const control = (10 - (total % 10)) % 10;
  return `ES${letter}${body}${control}`;
}

/** Swiss UID (CHE + eight digits + mod-11 check; numbers whose check would be 10 are never issued). */
export function swissUid(rng: Rng): string {
  for (;;) {
    const body = String(rng.int(1, 9)) + rng.digits(7);
    const weights = [5, 4, 3, 2, 7, 6, 5, 4];
    let check = 11 - ([...body].reduce((sum, ch, i) => sum + Number(ch) * weights[i]!, 0) % 11);
    if (check === 10) continue;
    if (check === 11) check = 0;
    return `CHE${body}${check}`;
  }
}

/** Australian Business Number: 11 digits, (first - 1) weighted sum divisible by 89. */
export function australianAbn(rng: Rng): string {
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  for (;;) {
    const rest = rng.digits(9);
    // Search the two leading digits that make the weighted sum divisible by 89.
    for (let lead = 10; lead <= 99; lead++) {
      const digits = [...`${lead}${rest}`].map(Number);
      digits[0]! -= 1;
      const sum = digits.reduce((s, d, i) => s + d * weights[i]!, 0);
      if (sum % 89 === 0) return `${lead}${rest}`;
    }
  }
}

export function supplierTaxId(rng: Rng, country: Country): string | null {
  switch (country) {
    case "DE":
      return germanVat(rng);
    case "FR":
      return frenchVat(rng);
    case "NL":
      return dutchVat(rng);
    case "ES":
      return spanishVat(rng);
    case "GB":
      return britishVat(rng);
    case "CH":
      return swissUid(rng);
    case "AU":
      return australianAbn(rng);
    default:
      return null;
  }
}

function luhnComplete(partial: string): string {
  for (let d = 0; d <= 9; d++) {
    const candidate = partial + d;
    let sum = 0;
    [...candidate].reverse().forEach((ch, i) => {
      let v = Number(ch);
      if (i % 2 === 1) {
        v *= 2;
        if (v > 9) v -= 9;
      }
      sum += v;
    });
    if (sum % 10 === 0) return candidate;
  }
  throw new Error("unreachable: some Luhn digit always fits");
}

/** Remainder of a long decimal string modulo m, digit by digit (too long for Number). */
function modString(digits: string, m: number): number {
  let r = 0;
  for (const ch of digits) r = (r * 10 + Number(ch)) % m;
  return r;
}

/** ISO 13616 check digits for a BBAN. */
export function ibanFromBban(country: string, bban: string): string {
  const rearranged = `${bban}${country}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  const check = 98 - modString(rearranged, 97);
  return `${country}${String(check).padStart(2, "0")}${bban}`;
}

function spanishControl(digits: string, weights: readonly number[]): number {
  const r = [...digits].reduce((sum, ch, i) => sum + Number(ch) * weights[i]!, 0) % 11;
  return r === 0 ? 0 : r === 1 ? 1 : 11 - r;
}

/** BBANs with the national check digits that validators (ibantools) verify. */
function bban(rng: Rng, country: Country): string | null {
  switch (country) {
    case "DE":
      return rng.digits(18);
    case "NL":
      return rng.pick(["ABNA", "INGB", "RABO", "TRIO", "SNSB"]) + rng.digits(10);
    case "GB":
      return rng.pick(["BARC", "LOYD", "HBUK", "NWBK", "MIDL"]) + rng.digits(14);
    case "CH":
      return rng.digits(17);
    case "FR": {
      const bank = rng.digits(5);
      const branch = rng.digits(5);
      const account = rng.digits(11);
      const key = 97 - ((89 * Number(bank) + 15 * Number(branch) + 3 * modString(account, 97)) % 97);
      return `${bank}${branch}${account}${String(key).padStart(2, "0")}`;
    }
    case "ES": {
      const bankBranch = rng.digits(8);
      const account = rng.digits(10);
      const c1 = spanishControl(bankBranch, [4, 8, 5, 10, 9, 7, 3, 6]);
      const c2 = spanishControl(account, [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]);
      return `${bankBranch}${c1}${c2}${account}`;
    }
    default:
      return null;
  }
}

export function iban(rng: Rng, country: Country): string | null {
  const b = bban(rng, country);
  return b === null ? null : ibanFromBban(country, b);
}

export function bic(rng: Rng, country: Country, iban: string | null): string {
  // Dutch and British BICs share the bank code with the IBAN; elsewhere any four letters do.
  const bank = iban && (country === "NL" || country === "GB") ? iban.slice(4, 8) : rng.letters(4);
  const location = rng.letters(1) + rng.pick(["X", "M", "F", "B", "2", "8"]);
  return `${bank}${country}${location}${rng.chance(0.4) ? rng.pick(["XXX", "100", "HAM", "PAR", "MAD"]) : ""}`;
}

/** Groups a compact identifier for printing, e.g. IBANs in fours. */
export function group(value: string, size: number, separator = " "): string {
  const parts: string[] = [];
  for (let i = 0; i < value.length; i += size) parts.push(value.slice(i, i + size));
  return parts.join(separator);
}
