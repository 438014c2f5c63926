/**
 * Currency codes and symbols -> ISO 4217. Codes are checked against the runtime's own ISO 4217 list (Intl);
 * symbols that several currencies share ("$", "kr", "¥", "£", "Rs") are resolved with the document's country or
 * language when the hints carry one.
 */
import type { LocaleHints } from "./locale.js";
import { foldAccentsAndCase, trimEdges } from "./trim.js";

const ISO_CODES: ReadonlySet<string> = new Set(Intl.supportedValuesOf("currency"));

/**
 * ISO codes that are also everyday upper-case words on documents ("ALL ITEMS", "TOP", "PEN"); they count as a
 * currency only when written next to an amount by a caller that knows it, never on their own here.
 */
const WORD_CODES = new Set(["ALL", "TOP", "CUP", "MOP", "BOB", "SOS", "PEN", "MAD", "GEL", "AMD", "BAM", "CVE"]);

/** Codes commonly written in lower case ("eur", "usd"); other lower-case three-letter words are not codes. */
const LOWER_CASE_OK = new Set([
  "eur",
  "usd",
  "gbp",
  "chf",
  "aud",
  "cad",
  "nzd",
  "sgd",
  "hkd",
  "jpy",
  "cny",
  "myr",
  "sek",
  "nok",
  "dkk",
  "pln",
  "czk",
  "huf",
  "inr",
  "zar",
  "brl",
  "mxn",
  "idr",
  "thb",
  "rmb",
]);

/** Countries whose own currency is written "$". */
const DOLLAR_BY_COUNTRY: Readonly<Record<string, string>> = {
  US: "USD",
  AU: "AUD",
  CA: "CAD",
  NZ: "NZD",
  SG: "SGD",
  HK: "HKD",
  TW: "TWD",
  MX: "MXN",
  BN: "BND",
  FJ: "FJD",
  JM: "JMD",
  TT: "TTD",
  BS: "BSD",
  BB: "BBD",
  BZ: "BZD",
  LR: "LRD",
  NA: "NAD",
  SB: "SBD",
  GY: "GYD",
  SR: "SRD",
  KY: "KYD",
  BM: "BMD",
  CL: "CLP",
  CO: "COP",
  AR: "ARS",
  UY: "UYU",
  DO: "DOP",
  BR: "BRL",
  // Malaysian shop receipts still print "$" for ringgit (the currency was the Malaysian dollar until 1993).
  MY: "MYR",
};

/** "kr" by country, then by language. */
const KRONE_BY_COUNTRY: Readonly<Record<string, string>> = {
  SE: "SEK",
  NO: "NOK",
  DK: "DKK",
  IS: "ISK",
  FO: "DKK",
  GL: "DKK",
};
const KRONE_BY_LANGUAGE: Readonly<Record<string, string>> = {
  sv: "SEK",
  nb: "NOK",
  nn: "NOK",
  no: "NOK",
  da: "DKK",
  is: "ISK",
};

const RUPEE_BY_COUNTRY: Readonly<Record<string, string>> = { IN: "INR", PK: "PKR", LK: "LKR", NP: "NPR", MU: "MUR" };
const POUND_BY_COUNTRY: Readonly<Record<string, string>> = { EG: "EGP", LB: "LBP", SY: "SYP", GI: "GIP", FK: "FKP" };

/** Abbreviations that are currencies only in their own spelling ("12 ft" is a length, "12 Ft" forints). */
const EXACT_SYMBOLS: Readonly<Record<string, string>> = { Ft: "HUF" };

/** Symbols and local abbreviations that name exactly one currency (folded: lower case, no diacritics). */
const SYMBOLS: Readonly<Record<string, string>> = {
  "€": "EUR",
  euro: "EUR",
  euros: "EUR",
  us$: "USD",
  usd$: "USD",
  u$s: "USD",
  $us: "USD",
  a$: "AUD",
  au$: "AUD",
  c$: "CAD",
  ca$: "CAD",
  nz$: "NZD",
  s$: "SGD",
  sg$: "SGD",
  hk$: "HKD",
  nt$: "TWD",
  mx$: "MXN",
  r$: "BRL",
  nkr: "NOK",
  dkr: "DKK",
  skr: "SEK",
  rm: "MYR",
  ringgit: "MYR",
  rp: "IDR",
  chf: "CHF",
  "fr.": "CHF",
  sfr: "CHF",
  "sfr.": "CHF",
  zl: "PLN",
  kc: "CZK",
  lei: "RON",
  "₹": "INR",
  "₩": "KRW",
  "₽": "RUB",
  "₺": "TRY",
  "₪": "ILS",
  "฿": "THB",
  "₫": "VND",
  "₱": "PHP",
  "₦": "NGN",
  "₴": "UAH",
  "₡": "CRC",
  元: "CNY",
  rmb: "CNY",
};

function byCountryOrLanguage(
  hints: LocaleHints,
  byCountry: Readonly<Record<string, string>>,
  byLanguage: Readonly<Record<string, string>> = {},
): string | undefined {
  const country = hints.country === undefined ? undefined : byCountry[hints.country.toUpperCase()];
  return country ?? (hints.language === undefined ? undefined : byLanguage[hints.language.toLowerCase()]);
}

function fromSymbol(folded: string, hints: LocaleHints): string | null {
  switch (folded) {
    case "$":
      return byCountryOrLanguage(hints, DOLLAR_BY_COUNTRY) ?? "USD";
    case "kr":
    case "kr.":
      return byCountryOrLanguage(hints, KRONE_BY_COUNTRY, KRONE_BY_LANGUAGE) ?? null;
    case "¥":
    case "￥":
      return hints.country?.toUpperCase() === "CN" || (hints.country === undefined && hints.language === "zh")
        ? "CNY"
        : "JPY";
    case "£":
      return byCountryOrLanguage(hints, POUND_BY_COUNTRY) ?? "GBP";
    case "rs":
    case "rs.":
      return byCountryOrLanguage(hints, RUPEE_BY_COUNTRY) ?? "INR";
    default:
      return SYMBOLS[folded] ?? withCountry(folded);
  }
}

/**
 * A shared symbol qualified by a country code, as French and Canadian typesetting print it: "$AU", "$ US", "£GB",
 * "JP¥", "BR$". The country decides between the currencies that symbol can name.
 */
function withCountry(folded: string): string | null {
  const match = /^([a-z]{2}) ?([$£¥])$/.exec(folded) ?? /^([$£¥]) ?([a-z]{2})$/.exec(folded);
  if (match === null) return null;
  const [country, symbol] = /^[a-z]/.test(match[1] ?? "") ? [match[1], match[2]] : [match[2], match[1]];
  if (country === undefined || symbol === undefined) return null;
  return fromSymbol(symbol, { country: country.toUpperCase() });
}

/** The token as an ISO code, when it is written as one. */
function fromCode(token: string): string | null {
  const upper = token.toUpperCase();
  if (!ISO_CODES.has(upper)) return null;
  if (token === upper) return WORD_CODES.has(upper) ? null : upper;
  return LOWER_CASE_OK.has(token.toLowerCase()) ? upper : null;
}

/**
 * "EUR", "eur", "€", "$" (USD unless the hints name a dollar country), "A$", "£", "CHF", "Fr.", "RM", "¥", "kr",
 * "zł" ... -> ISO 4217, or null when the whole string is not one currency mark.
 */
export function parseCurrency(text: string, hints: LocaleHints): string | null {
  const token = text.trim().replace(/^[\s:;,()[\]]+|[\s:;,()[\]]+$/g, "");
  if (token === "" || token.length > 8) return null;
  if (/^[A-Za-z]{3}$/.test(token)) {
    const code = fromCode(token);
    if (code !== null) return code;
  }
  const exact = EXACT_SYMBOLS[token];
  if (exact !== undefined) return exact;
  const folded = foldAccentsAndCase(token).replace(/ł/g, "l");
  return fromSymbol(folded, hints) ?? fromSymbol(foldAccentsAndCase(trimEdges(token)), hints);
}
