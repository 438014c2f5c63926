import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { parseTime } from "../../src/extract/normalise/time.js";

fc.configureGlobal({ numRuns: Number(process.env.FC_NUM_RUNS ?? 100) });

function hhmm(hour: number, minute: number): string {
  return `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
}

describe("parseTime", () => {
  it("every CLDR time format of a locale parses back to the same minute", () => {
    const locales = [
      "en-US",
      "en-AU",
      "en-GB",
      "en-CA",
      "de-DE",
      "fr-FR",
      "fr-CA",
      "es-ES",
      "es-MX",
      "nl-NL",
      "it-IT",
      "ms-MY",
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 59 }),
        fc.constantFrom(...locales),
        fc.boolean(),
        fc.boolean(),
        (hour, minute, second, locale, withSeconds, twelveHour) => {
          const text = new Intl.DateTimeFormat(locale, {
            hour: "numeric",
            minute: "2-digit",
            ...(withSeconds ? { second: "2-digit" } : {}),
            ...(twelveHour ? { hour12: true } : {}),
            timeZone: "UTC",
          }).format(new Date(Date.UTC(2024, 0, 1, hour, minute, second)));
          assert.equal(parseTime(text), hhmm(hour, minute), `${locale}: ${text}`);
        },
      ),
    );
  });

  it("reads the documented forms", () => {
    const cases: [string, string][] = [
      ["14:05", "14:05"],
      ["9:05", "09:05"],
      ["2:05 PM", "14:05"],
      ["2:05pm", "14:05"],
      ["2 p.m.", "14:00"],
      ["12:00 AM", "00:00"],
      ["0:30 AM", "00:30"],
      ["12:30 PM", "12:30"],
      ["14:05:33", "14:05"],
      ["14h05", "14:05"],
      ["14 h 05", "14:05"],
      ["14.05 Uhr", "14:05"],
      ["14 Uhr", "14:00"],
      ["(14:05)", "14:05"],
    ];
    for (const [text, expected] of cases) assert.equal(parseTime(text), expected, text);
  });

  it("rejects impossible times and bare numbers", () => {
    for (const text of ["25:00", "24:00", "14:60", "14:05:60", "13:00 PM", "14.05", "14", "1405", "Uhr", "12.50 EUR"]) {
      assert.equal(parseTime(text), null, text);
    }
  });
});
