import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { parseDate } from "../../src/extract/normalise/date.js";
import { type LocaleHints, localeHints } from "../../src/extract/normalise/locale.js";

// FC_NUM_RUNS=5000 npm test test/unit/normalise-date.test.ts for a deeper search than the default 100 runs.
fc.configureGlobal({ numRuns: Number(process.env.FC_NUM_RUNS ?? 100) });

/** Locales whose written dates docsift reads in full; the rest (sv, ja) only in numeric forms. */
const TEXT_LOCALES = [
  "en-US",
  "en-AU",
  "en-GB",
  "en-IN",
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
] as const;
const NUMERIC_ONLY_LOCALES = ["ja-JP", "sv-SE", "en-CA"] as const;

const dateArb = fc
  .record({ year: fc.integer({ min: 1970, max: 2069 }), month: fc.integer({ min: 1, max: 12 }), day: fc.nat(30) })
  .map(({ year, month, day }) => {
    const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
    return new Date(Date.UTC(year, month - 1, (day % last) + 1));
  });

function iso(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The runtime's own CLDR formats: an independent source of how each locale really prints dates. */
function intlStyle(locale: string, style: "full" | "long" | "medium" | "short", date: Date): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: style, timeZone: "UTC" }).format(date);
}

/** Numeric date in the locale's order with a chosen separator, padding and year width. */
function numeric(locale: string, date: Date, separator: string, pad: boolean, shortYear: boolean): string {
  return new Intl.DateTimeFormat(locale, {
    day: pad ? "2-digit" : "numeric",
    month: pad ? "2-digit" : "numeric",
    year: shortYear ? "2-digit" : "numeric",
    timeZone: "UTC",
  })
    .formatToParts(date)
    .filter((part) => part.type !== "literal")
    .map((part) => part.value)
    .join(separator);
}

/** Receipt-printer styles: 03-MAR-2018, 03 MAR 18, 11JAN19, with the locale's own month abbreviation. */
function receiptStyle(locale: string, date: Date, variant: number): string {
  const month = new Intl.DateTimeFormat(locale, { month: "short", timeZone: "UTC" })
    .format(date)
    .replace(/\.$/, "")
    .toUpperCase();
  const day = String(date.getUTCDate()).padStart(2, "0");
  const year = String(date.getUTCFullYear());
  if (variant === 0) return `${day}-${month}-${year}`;
  if (variant === 1) return `${day} ${month} ${year.slice(2)}`;
  return `${day}${month}${year.slice(2)}`;
}

describe("parseDate: property", () => {
  it("every CLDR date style of a text locale parses back to the same day with that locale's hints", () => {
    fc.assert(
      fc.property(
        dateArb,
        fc.constantFrom(...TEXT_LOCALES),
        fc.constantFrom("full", "long", "medium", "short" as const),
        (date, locale, style) => {
          const text = intlStyle(locale, style, date);
          assert.equal(parseDate(text, localeHints(locale))?.iso, iso(date), `${locale} ${style}: ${text}`);
        },
      ),
    );
  });

  it("numeric dates in any separator, padding and year width parse back in every locale", () => {
    fc.assert(
      fc.property(
        dateArb,
        fc.constantFrom(...TEXT_LOCALES, ...NUMERIC_ONLY_LOCALES),
        fc.constantFrom("/", ".", "-"),
        fc.boolean(),
        fc.boolean(),
        (date, locale, separator, pad, shortYear) => {
          const text = numeric(locale, date, separator, pad, shortYear);
          assert.equal(parseDate(text, localeHints(locale))?.iso, iso(date), `${locale}: ${text}`);
        },
      ),
    );
  });

  it("ISO and compact forms parse in any locale, and are never ambiguous", () => {
    fc.assert(
      fc.property(dateArb, fc.constantFrom(...TEXT_LOCALES, ...NUMERIC_ONLY_LOCALES), (date, locale) => {
        for (const text of [iso(date), iso(date).replace(/-/g, "")]) {
          const parsed = parseDate(text, localeHints(locale));
          assert.equal(parsed?.iso, iso(date), text);
          assert.equal(parsed?.ambiguous, false);
        }
      }),
    );
  });

  it("receipt-printer forms with the locale's month abbreviation parse back", () => {
    fc.assert(
      fc.property(
        dateArb,
        fc.constantFrom(...TEXT_LOCALES),
        fc.integer({ min: 0, max: 2 }),
        (date, locale, variant) => {
          const text = receiptStyle(locale, date, variant);
          assert.equal(parseDate(text, localeHints(locale))?.iso, iso(date), `${locale}: ${text}`);
        },
      ),
    );
  });

  it("a numeric date is ambiguous exactly when day and month are both 12 or less", () => {
    fc.assert(
      fc.property(
        dateArb,
        fc.constantFrom<LocaleHints>({}, { dateOrder: "DMY" }, { dateOrder: "MDY" }),
        (date, hints) => {
          const day = date.getUTCDate();
          const month = date.getUTCMonth() + 1;
          const order = hints.dateOrder ?? "DMY";
          const [first, second] = order === "MDY" ? [month, day] : [day, month];
          const parsed = parseDate(`${first}/${second}/${date.getUTCFullYear()}`, hints);
          assert.equal(parsed?.iso, iso(date));
          assert.equal(parsed?.ambiguous, day <= 12 && month <= 12);
        },
      ),
    );
  });
});

describe("parseDate: robustness", () => {
  it("on any string of date-ish characters it returns null or a real calendar day in range, never throws", () => {
    const chars = fc.constantFrom(..."0123456789/.-, JanMärzOktl".split(""));
    fc.assert(
      fc.property(
        fc.string({ unit: chars, maxLength: 14 }),
        fc.constantFrom<LocaleHints>({}, { dateOrder: "MDY" }, { dateOrder: "YMD" }),
        (text, hints) => {
          const parsed = parseDate(text, hints);
          if (parsed === null) return;
          const date = new Date(`${parsed.iso}T00:00:00Z`);
          assert.equal(date.toISOString().slice(0, 10), parsed.iso, text);
          assert.ok(date.getUTCFullYear() >= 1970 && date.getUTCFullYear() <= 2069, text);
        },
      ),
    );
  });
});

describe("parseDate: examples", () => {
  it("resolves 03/04/2024 by the hint, day first without one, and flags it ambiguous", () => {
    assert.deepEqual(parseDate("03/04/2024", {}), { iso: "2024-04-03", ambiguous: true, order: "DMY" });
    assert.deepEqual(parseDate("03/04/2024", { dateOrder: "DMY" }), {
      iso: "2024-04-03",
      ambiguous: true,
      order: "DMY",
    });
    assert.deepEqual(parseDate("03/04/2024", { dateOrder: "MDY" }), {
      iso: "2024-03-04",
      ambiguous: true,
      order: "MDY",
    });
    assert.deepEqual(parseDate("03/04/2024", localeHints("en-US")), {
      iso: "2024-03-04",
      ambiguous: true,
      order: "MDY",
    });
    assert.deepEqual(parseDate("03.04.2024", localeHints("de-DE"))?.iso, "2024-04-03");
  });

  it("lets an impossible reading override the hint", () => {
    assert.deepEqual(parseDate("13/04/2024", { dateOrder: "MDY" }), {
      iso: "2024-04-13",
      ambiguous: false,
      order: "DMY",
    });
    assert.deepEqual(parseDate("04/13/2024", { dateOrder: "DMY" }), {
      iso: "2024-04-13",
      ambiguous: false,
      order: "MDY",
    });
  });

  it("reads two-digit years first under a year-first hint only", () => {
    assert.equal(parseDate("24/03/04", { dateOrder: "YMD" })?.iso, "2024-03-04");
    assert.equal(parseDate("24/03/04", {})?.iso, "2004-03-24");
  });

  it("rejects impossible dates and years outside 1970..2069", () => {
    for (const text of ["31.02.2024", "29/02/2023", "00/01/2024", "32/01/2024", "13/13/2024", "2024-13-01"]) {
      assert.equal(parseDate(text, {}), null, text);
    }
    assert.equal(parseDate("29/02/2024", {})?.iso, "2024-02-29");
    assert.equal(parseDate("1969-12-31", {}), null);
    assert.equal(parseDate("2070-01-01", {}), null);
    assert.equal(parseDate("31/12/69", {})?.iso, "2069-12-31");
    assert.equal(parseDate("01/01/70", {})?.iso, "1970-01-01");
  });

  it("reads written dates in every supported language", () => {
    const cases: [string, string][] = [
      ["11 Jan 2019", "2019-01-11"],
      ["Jan 11, 2019", "2019-01-11"],
      ["January 11th, 2019", "2019-01-11"],
      ["11. Januar 2019", "2019-01-11"],
      ["3. März 2024", "2024-03-03"],
      ["3 mars 2024", "2024-03-03"],
      ["1er mars 2024", "2024-03-01"],
      ["3 de marzo de 2024", "2024-03-03"],
      ["3 maart 2024", "2024-03-03"],
      ["3 mrt 2024", "2024-03-03"],
      ["3 marzo 2024", "2024-03-03"],
      ["3 de março de 2024", "2024-03-03"],
      ["3 Mac 2024", "2024-03-03"],
      ["17 Ogos 2018", "2018-08-17"],
      ["03-MAR-2018", "2018-03-03"],
      ["14/JUN/2017", "2017-06-14"],
      ["11JAN19", "2019-01-11"],
      ["OCT 3, 2016", "2016-10-03"],
      ["Mo., 11. Januar 2019", "2019-01-11"],
      ["quinta-feira, 4 de julho de 2024", "2024-07-04"],
    ];
    for (const [text, expected] of cases) {
      assert.deepEqual(parseDate(text, {}), { iso: expected, ambiguous: false, order: "text" }, text);
    }
  });

  it("tolerates surrounding punctuation and OCR digit slips inside numeric dates", () => {
    assert.equal(parseDate("(03.04.2024),", {})?.iso, "2024-04-03");
    assert.equal(parseDate("Datum: 03.04.2024", {}), null);
    assert.equal(parseDate("1l/01/2019", {})?.iso, "2019-01-11");
    assert.equal(parseDate("O3/04/2024", {})?.iso, "2024-04-03");
    assert.equal(parseDate("03. 04. 2024", {})?.iso, "2024-04-03");
  });

  it("refuses strings that are not one whole date", () => {
    for (const text of [
      "Total",
      "12.50",
      "2024",
      "Januar 2019",
      "03/04",
      "03/04-2024",
      "12-3456789",
      "11 Jan 2019 Total",
    ]) {
      assert.equal(parseDate(text, {}), null, text);
    }
    assert.equal(parseDate("3 jui 2024", {}), null, "jui is juin or juillet");
  });
});
