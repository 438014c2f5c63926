import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document } from "../../src/document/model.js";
import { dateCandidates } from "../../src/extract/candidates.js";
import { chooseDates } from "../../src/extract/dates.js";
import { buildLayout, fullText } from "../../src/extract/layout.js";
import { inferLocale } from "../../src/extract/locale-infer.js";
import { parseDate } from "../../src/extract/normalise/date.js";
import { fuzzyMonthNumber } from "../../src/extract/normalise/months.js";
import { receipt } from "../helpers/receipt-document.js";

/** Rows around the date rows that make the page look like a receipt. */
function withBody(dateRows: Array<Array<[string, number]>>): Array<Array<[string, number]>> {
  return [
    [["CORNER MART", 40]],
    [["12 HIGH STREET", 40]],
    ...dateRows,
    [
      ["BREAD", 20],
      ["2.50", 300],
    ],
    [
      ["MILK", 20],
      ["1.20", 300],
    ],
    [
      ["TOTAL", 20],
      ["3.70", 300],
    ],
    [
      ["CASH", 20],
      ["5.00", 300],
    ],
  ];
}

/** The issue date chosen on a receipt as of `currentYear`, with its confidence multiplier. */
function issueDate(doc: Document, currentYear: number): { value: string | null; penalty: number } {
  const layout = buildLayout(doc);
  const locale = inferLocale({}, fullText(layout), "en");
  const { issue } = chooseDates(layout, dateCandidates(layout, locale.hints), locale.orderSource, true, currentYear);
  return { value: issue.best?.value ?? null, penalty: issue.penalty ?? 1 };
}

describe("parseDate: OCR digit confusions", () => {
  it("repairs the one impossible part when exactly one confusion makes it a date", () => {
    const cases: Array<[string, string]> = [
      ["61/03/18", "2018-03-01"],
      ["69/10/2017", "2017-10-09"],
      ["12-02-2618", "2018-02-12"],
      ["30/83/2018", "2018-03-30"],
      ["1Z/03/2018", "2018-03-12"],
    ];
    for (const [text, iso] of cases) {
      const parsed = parseDate(text, {});
      assert.equal(parsed?.iso, iso, text);
      assert.equal(parsed?.repaired, true, text);
    }
  });

  it("leaves a date unread when several repairs fit or none does", () => {
    for (const text of ["00/01/2024", "3?/12/2018", "56/63/2019", "03/06/207?", "32/01/2024"]) {
      assert.equal(parseDate(text, {}), null, text);
    }
  });

  it("never repairs a part that is in range, and never marks a clean date repaired", () => {
    assert.equal(parseDate("31.02.2024", {}), null);
    assert.equal(parseDate("2070-01-01", {}), null);
    assert.deepEqual(parseDate("18/10/2017", {}), { iso: "2017-10-18", ambiguous: false, order: "DMY" });
  });

  it("repairs in the document's order, since the damaged part no longer tells day from month", () => {
    assert.equal(parseDate("18/16/2017", { dateOrder: "DMY" })?.iso, "2017-10-18");
    assert.equal(parseDate("18/16/2017", { dateOrder: "MDY" })?.iso, "2017-10-16");
  });
});

describe("parseDate: misread month names", () => {
  it("reads a month name with one wrong letter only when a single month fits", () => {
    assert.equal(fuzzyMonthNumber("dun"), 6);
    assert.equal(fuzzyMonthNumber("Mat"), null, "mar or may");
    assert.equal(fuzzyMonthNumber("jui"), null, "an exact but ambiguous prefix is not misread");
    assert.equal(fuzzyMonthNumber("xyz"), null);
    assert.deepEqual(parseDate("14/dun/2017", {}), {
      iso: "2017-06-14",
      ambiguous: false,
      order: "text",
      repaired: true,
    });
    assert.equal(parseDate("27 Mat 2018", {}), null);
  });

  it("only between day and year, not a word in front of a number", () => {
    assert.equal(parseDate("Doc 12/2018", {}), null);
  });
});

describe("inferLocale: clock times are no date-order evidence", () => {
  it("ignores a dotted time and a triple whose year is no year", () => {
    assert.equal(inferLocale({}, "Date 08/02/2018 Time: 11.14.00", "en").orderSource, "guess");
    assert.equal(inferLocale({}, "Date 08/02/2018 Time: 11.14.9060", "en").orderSource, "guess");
    assert.equal(inferLocale({}, "Date 08/02/2018 Time: 11.14.00", "en").hints.dateOrder, "DMY");
  });

  it("still takes month-first evidence written with slashes", () => {
    const inferred = inferLocale({}, "Date 04/13/2024", "en");
    assert.equal(inferred.orderSource, "document");
    assert.equal(inferred.hints.dateOrder, "MDY");
  });
});

describe("chooseDates on OCR'd receipts", () => {
  it("lets a year after next lose to a plausible date", () => {
    const doc = receipt(withBody([[["RO11-23-42 12/144", 20]], [["15-03-24 15:41", 20]]]));
    assert.equal(issueDate(doc, 2026).value, "2024-03-15");
  });

  it("withholds confidence from a lone date a generation old", () => {
    const doc = receipt(withBody([[["Date: 04-06-70", 20]]]));
    const { value, penalty } = issueDate(doc, 2026);
    assert.equal(value, "1970-06-04");
    assert.ok(penalty <= 0.4, `penalty ${penalty}`);
    assert.ok(issueDate(doc, 1971).penalty > 0.7, "the same date is plausible in 1971");
  });

  it("prefers the date printed beside a clock time", () => {
    const doc = receipt(withBody([[["12/03/2024", 20]], [["SLIP 0041", 20]], [["15/03/2024 14:05", 20]]]));
    assert.equal(issueDate(doc, 2026).value, "2024-03-15");
  });

  it("lets a repaired date give way to a clean one that differs in the repaired part only", () => {
    const doc = receipt(withBody([[["Date: 30/63/2017", 20]], [["DD: 30/08/2017 10:51", 20]]]));
    assert.equal(issueDate(doc, 2026).value, "2017-08-30");
  });

  it("takes a lone repaired date, with less confidence than a clean one", () => {
    const repaired = issueDate(receipt(withBody([[["61/03/18 12:36", 20]]])), 2026);
    const clean = issueDate(receipt(withBody([[["21/03/18 12:36", 20]]])), 2026);
    assert.equal(repaired.value, "2018-03-01");
    assert.ok(repaired.penalty < clean.penalty, `${repaired.penalty} vs ${clean.penalty}`);
  });
});
