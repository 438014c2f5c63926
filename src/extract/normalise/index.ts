/** The normalisers the extraction engine runs on candidate strings: each parses a whole string or returns null. */
export { formatAmount, type ParsedAmount, parseAmount } from "./amount.js";
export { parseCurrency } from "./currency.js";
export { type ParsedDate, parseDate } from "./date.js";
export { type ParsedTaxId, parseBic, parseBsb, parseIban, parseTaxId } from "./ids.js";
export { detectLanguage } from "./language.js";
export { type DateOrder, type LocaleHints, localeHints } from "./locale.js";
export { parseTime } from "./time.js";
