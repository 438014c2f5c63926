import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { formatAmount, parseAmount } from "../../src/extract/normalise/amount.js";
import { type LocaleHints, localeHints } from "../../src/extract/normalise/locale.js";

// FC_NUM_RUNS=5000 npm test test/unit/normalise-amount.test.ts for a deeper search than the default 100 runs.
fc.configureGlobal({ numRuns: Number(process.env.FC_NUM_RUNS ?? 100) });

const LOCALES = [
  "en-US",
  "en-AU",
  "en-GB",
  "en-IN",
  "en-CA",
  "de-DE",
  "de-AT",
  "de-CH",
  "fr-FR",
  "fr-CH",
  "es-ES",
  "nl-NL",
  "it-IT",
  "pt-PT",
  "pt-BR",
  "ms-MY",
  "sv-SE",
  "ja-JP",
] as const;
const CURRENCIES = ["EUR", "USD", "GBP", "CHF", "MYR", "AUD", "INR", "CAD"] as const;

/** Amounts in cents up to a hundred million, negative as well. */
const centsArb = fc.integer({ min: -10_000_000_000, max: 10_000_000_000 });

/** Exact canonical text of an amount in cents, computed in integers. */
function centsText(cents: number): string {
  const magnitude = Math.abs(cents);
  const text = `${Math.floor(magnitude / 100)}.${String(magnitude % 100).padStart(2, "0")}`;
  return cents < 0 ? `-${text}` : text;
}

describe("parseAmount: property", () => {
  it("every CLDR number format of a locale parses back to the same amount with that locale's hints", () => {
    fc.assert(
      fc.property(centsArb, fc.constantFrom(...LOCALES), fc.boolean(), (cents, locale, grouping) => {
        const text = new Intl.NumberFormat(locale, {
          minimumFractionDigits: 2,
          maximumFractionDigits: 2,
          useGrouping: grouping,
        }).format(cents / 100);
        const parsed = parseAmount(text, localeHints(locale));
        assert.equal(parsed?.text, centsText(cents), `${locale}: ${text}`);
        assert.equal(parsed?.currency, null);
      }),
    );
  });

  it("currency formats (symbol, code, accounting negatives) parse back with their currency", () => {
    fc.assert(
      fc.property(
        centsArb,
        fc.constantFrom(...LOCALES),
        fc.constantFrom(...CURRENCIES),
        fc.constantFrom("symbol", "code", "narrowSymbol" as const),
        fc.constantFrom("standard", "accounting" as const),
        (cents, locale, currency, currencyDisplay, currencySign) => {
          const text = new Intl.NumberFormat(locale, {
            style: "currency",
            currency,
            currencyDisplay,
            currencySign,
          }).format(cents / 100);
          const parsed = parseAmount(text, localeHints(locale));
          assert.equal(parsed?.text, centsText(cents), `${locale}: ${text}`);
          // A narrow "$" names whichever dollar the document's country uses, so only the wider displays fix the code.
          if (currencyDisplay !== "narrowSymbol") assert.equal(parsed?.currency, currency, `${locale}: ${text}`);
        },
      ),
    );
  });

  it("whole amounts printed without decimals parse with the locale's grouping", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), fc.constantFrom(...LOCALES), (units, locale) => {
        const text = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(units);
        assert.equal(parseAmount(text, localeHints(locale))?.text, centsText(units * 100), `${locale}: ${text}`);
      }),
    );
  });

  it("trailing minus, OCR gaps after the decimal separator and attached codes keep the value", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999 }), fc.constantFrom(",", "."), (cents, decimal) => {
        const units = String(Math.floor(cents / 100));
        const fraction = String(cents % 100).padStart(2, "0");
        const hints = { decimalSeparator: decimal } as const;
        assert.equal(parseAmount(`${units}${decimal}${fraction}-`, hints)?.text, centsText(-cents));
        assert.equal(parseAmount(`${units}${decimal} ${fraction}`, hints)?.text, centsText(cents));
        assert.equal(parseAmount(`EUR${units}${decimal}${fraction}`, hints)?.currency, "EUR");
      }),
    );
  });

  it("reads typographic hyphens and minus signs before or after the figure as a minus", () => {
    for (const sign of ["\u2010", "\u2011", "\u2012", "\u2013", "\u2212", "\ufe63", "\uff0d"]) {
      assert.equal(
        parseAmount(`${sign}8,79`, { decimalSeparator: "," })?.text,
        "-8.79",
        `U+${sign.codePointAt(0)?.toString(16)}`,
      );
      assert.equal(parseAmount(`8,79${sign}`, { decimalSeparator: "," })?.text, "-8.79");
    }
  });

  it("on any string of number-ish characters it returns null or a well-formed amount, never throws", () => {
    const chars = fc.constantFrom(..."0123456789.,' -()€$RMEURkrOl%\u00a0".split(""));
    fc.assert(
      fc.property(
        fc.string({ unit: chars, maxLength: 16 }),
        fc.constantFrom<LocaleHints>({}, localeHints("de-DE")),
        (text, hints) => {
          const parsed = parseAmount(text, hints);
          if (parsed === null) return;
          assert.match(parsed.text, /^-?\d+\.\d{2}$/, text);
          assert.equal(parsed.text, formatAmount(parsed.value), text);
        },
      ),
    );
  });

  it("formatAmount agrees with exact decimal rounding", () => {
    fc.assert(
      fc.property(centsArb, (cents) => {
        assert.equal(formatAmount(cents / 100), centsText(cents));
      }),
    );
  });
});

describe("parseAmount: examples", () => {
  const cases: [string, string, string | null][] = [
    ["1.234,56", "1234.56", null],
    ["1,234.56", "1234.56", null],
    ["1 234,56", "1234.56", null],
    ["1\u202f234,56", "1234.56", null],
    ["1'234.56", "1234.56", null],
    ["1’234.56", "1234.56", null],
    ["1234.5", "1234.50", null],
    ["12", "12.00", null],
    ["0,50", "0.50", null],
    ["12,34,567.00", "1234567.00", null],
    ["-12,00", "-12.00", null],
    ["12,00-", "-12.00", null],
    ["(12.00)", "-12.00", null],
    ["−12.00", "-12.00", null],
    ["€ 529,87", "529.87", "EUR"],
    ["529,87 EUR", "529.87", "EUR"],
    ["529,87 €", "529.87", "EUR"],
    ["RM 27.55", "27.55", "MYR"],
    ["RM27.55", "27.55", "MYR"],
    ["$8.20", "8.20", "USD"],
    ["EUR 1.234,56", "1234.56", "EUR"],
    ["CHF-1'234.50", "-1234.50", "CHF"],
    ["-€12.00", "-12.00", "EUR"],
    ["€-12.00", "-12.00", "EUR"],
    ["(€12.00)", "-12.00", "EUR"],
    ["12,- €", "12.00", "EUR"],
    ["Total:", "", null],
  ];
  it("reads the documented forms", () => {
    for (const [text, expected, currency] of cases) {
      const parsed = parseAmount(text, {});
      if (expected === "") assert.equal(parsed, null, text);
      else assert.deepEqual([parsed?.text, parsed?.currency], [expected, currency], text);
    }
  });

  it("decides a lone separator before three digits by the hint, thousands without one", () => {
    assert.equal(parseAmount("1,234", {})?.text, "1234.00");
    assert.equal(parseAmount("1.234", {})?.text, "1234.00");
    assert.equal(parseAmount("1.234", { decimalSeparator: "," })?.text, "1234.00");
    assert.equal(parseAmount("1,234", { decimalSeparator: "." })?.text, "1234.00");
    assert.equal(parseAmount("1,234", { decimalSeparator: "," })?.value, 1.234);
    assert.equal(parseAmount("1.234", { decimalSeparator: "." })?.value, 1.234);
    assert.equal(parseAmount("0.125", {})?.value, 0.125, "a zero integer part cannot be grouped");
  });

  it("resolves currency symbols with the document's country", () => {
    assert.equal(parseAmount("$8.20", localeHints("en-AU"))?.currency, "AUD");
    assert.equal(parseAmount("$8.20", { country: "MY" })?.currency, "MYR");
    assert.equal(parseAmount("$8.20", localeHints("en-US"))?.currency, "USD");
    assert.equal(parseAmount("A$ 8.20", localeHints("en-US"))?.currency, "AUD");
    assert.equal(parseAmount("12,50 kr", localeHints("sv-SE"))?.currency, "SEK");
    assert.equal(parseAmount("12,50 kr", {}), null, "kr alone names no currency");
  });

  it("repairs O/l read for 0/1 only in money-shaped tokens", () => {
    assert.equal(parseAmount("lO.00", {})?.text, "10.00");
    assert.equal(parseAmount("RM l2.5O", {})?.text, "12.50");
    assert.deepEqual(parseAmount("RM1O.5O", {}), { value: 10.5, text: "10.50", currency: "MYR" });
    assert.equal(parseAmount("1O,5O€", {})?.text, "10.50");
    assert.equal(parseAmount("27. 55", {})?.text, "27.55");
    assert.equal(parseAmount("RM 64 15", {})?.text, "64.15", "a lost decimal point next to a currency");
    assert.equal(parseAmount("64 15", {}), null, "without a currency two numbers stay two numbers");
    assert.equal(parseAmount("NO.53", {}), null);
    assert.equal(parseAmount("lO", {}), null);
    assert.equal(parseAmount("Ol", {}), null);
  });

  it("repairs a round capital read for the last 0 of the cents, and only there", () => {
    assert.deepEqual(parseAmount("RM 119.7C", {}), { value: 119.7, text: "119.70", currency: "MYR" });
    assert.equal(parseAmount("5.0D", {})?.text, "5.00");
    assert.equal(parseAmount("12.5Q", {})?.text, "12.50");
    assert.equal(parseAmount("C7.42", {}), null, "a letter in front is no digit");
    assert.equal(parseAmount("119.C0", {}), null, "only the last place of the cents");
    assert.equal(parseAmount("119C", {}), null, "only behind a decimal separator");
    assert.equal(parseAmount("119.75C", {}), null, "no third decimal place");
  });

  it("reads cents whose leading 0 OCR lost only next to a currency mark", () => {
    assert.deepEqual(parseAmount("RM .30", {}), { value: 0.3, text: "0.30", currency: "MYR" });
    assert.equal(parseAmount("RM ,30", {})?.text, "0.30");
    assert.equal(parseAmount(".30", {}), null);
    assert.equal(parseAmount("RM .3", {}), null, "one place after the point is no cents");
  });

  it("closes an OCR gap before the decimal separator as well as after it", () => {
    assert.equal(parseAmount("RM50 .00", {})?.text, "50.00");
    assert.equal(parseAmount("50 .00", {})?.text, "50.00");
    assert.equal(parseAmount("50 . 00", {}), null, "gaps on both sides leave three tokens");
  });

  it("reads two places after a separator that groups the thousands too as cents (a scan's point read as a comma)", () => {
    assert.equal(parseAmount("£4,129,39", {})?.text, "4129.39");
    assert.equal(parseAmount("1.234.567.89", {})?.text, "1234567.89");
    assert.equal(parseAmount("4,129,39", { decimalSeparator: "," })?.text, "4129.39");
    assert.equal(parseAmount("41,29,39", {}), null, "the groups before the cents must be thousands");
    assert.equal(parseAmount("4,12,39", {}), null);
  });

  it("refuses what is not one whole amount", () => {
    const rejects = [
      "19%",
      "2024-04-03",
      "12-3456789",
      "1,234.567",
      "0123",
      "12 34.00",
      "Total 12.00",
      "€ 12,00 USD",
      "--12.00",
      "-(12.00)",
      "1.2345",
      "12345678901234",
      "abc",
      "",
    ];
    for (const text of rejects) assert.equal(parseAmount(text, {}), null, text);
  });
});
