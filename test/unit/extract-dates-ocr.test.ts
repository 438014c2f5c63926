import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document } from "../../src/document/model.js";
import { dateCandidates } from "../../src/extract/candidates.js";
import { chooseDates } from "../../src/extract/dates.js";
import { buildLayout, fullText } from "../../src/extract/layout.js";
import { inferLocale } from "../../src/extract/locale-infer.js";
import { lostSeparator, parseDate } from "../../src/extract/normalise/date.js";
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

describe("parseDate: a hyphen read as a tilde", () => {
  it("reads the tilde as the hyphen beside it, and says the date was repaired", () => {
    const parsed = parseDate("05~05-17", {});
    assert.equal(parsed?.iso, "2017-05-05");
    assert.equal(parsed?.repaired, true);
    assert.equal(parseDate("2017-05~21", {})?.iso, "2017-05-21");
  });

  it("reads no tilde without a hyphen beside it, nor two", () => {
    for (const text of ["05~05~17", "05~05/17", "~05-05-17x"]) assert.equal(parseDate(text, {}), null, text);
  });
});

describe("parseDate: a separator read as a colon", () => {
  it("reads the colon as the separator beside it before a four-digit year, specks in front aside", () => {
    for (const text of ["27:03/2018", "..27:03/2018.", "27:03-2018"]) {
      const parsed = parseDate(text, {});
      assert.equal(parsed?.iso, "2018-03-27", text);
      assert.equal(parsed?.repaired, true, text);
    }
  });

  it("reads no clock time, nor a colon without the other separator, as a date", () => {
    for (const text of ["27:03", "27:03:2018", "12:30:45", "27:03/18"]) assert.equal(parseDate(text, {}), null, text);
  });
});

describe("parseDate: a lost separator", () => {
  it("puts back the one separator OCR dropped when a single place gives a date", () => {
    const cases: Array<[string, string]> = [
      ["12/012018", "2018-01-12"],
      ["11-0418", "2018-04-11"],
      ["0406-18", "2018-06-04"],
      ["1203-2018", "2018-03-12"],
      ["2019-0412", "2019-04-12"],
    ];
    for (const [text, iso] of cases) {
      const parsed = parseDate(text, {});
      assert.equal(parsed?.iso, iso, text);
      assert.equal(parsed?.repaired, true, text);
      assert.equal(lostSeparator(text), true, text);
    }
  });

  it("reads no phone number, amount, unpadded or impossible split as a date", () => {
    for (const text of ["03-78901234", "012-3456789", "1012.18", "12/12018", "1803-0012", "03-4021", "2019-12"]) {
      assert.equal(parseDate(text, {}), null, text);
    }
  });

  it("tells the lost-separator shape from every other date reading, a glued label aside", () => {
    assert.equal(lostSeparator("Date:12/012018"), true);
    for (const text of ["12/01/2018", "61/03/18", "14/dun/2017", "20180112", "61 / 03/18"]) {
      assert.equal(lostSeparator(text), false, text);
    }
  });

  it("reads a date with a rule printed after it as printed", () => {
    assert.deepEqual(parseDate("28/03/2017--", {}), { iso: "2017-03-28", ambiguous: false, order: "DMY" });
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

  it("reads a month name with one letter read twice", () => {
    assert.equal(fuzzyMonthNumber("MMay"), 5);
    assert.equal(fuzzyMonthNumber("Marrch"), 3);
    assert.equal(parseDate("14MMay/2017", {})?.iso, "2017-05-14");
  });

  it("reads a zero for the letter O in a month name, in front too", () => {
    assert.deepEqual(parseDate("0ct 3, 2016", {}), {
      iso: "2016-10-03",
      ambiguous: false,
      order: "text",
      repaired: true,
    });
    assert.equal(parseDate("0 3, 2016", {}), null);
  });

  it("reads the French '1er' whose 1 OCR read as a letter", () => {
    const first = { ambiguous: false, order: "text", repaired: true };
    assert.deepEqual(parseDate("ler mars 2025", {}), { iso: "2025-03-01", ...first });
    assert.deepEqual(parseDate("Ier février 2025", {}), { iso: "2025-02-01", ...first });
    assert.equal(parseDate("Iler mars 2025", {}), null);
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

  it("finds a date whose month name OCR began with a zero, after a label read with a semicolon", () => {
    const doc = receipt(withBody([[["Date; 0ct 3, 2016 12:16:25 PM", 20]]]));
    assert.equal(issueDate(doc, 2026).value, "2016-10-03");
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

  it("reads a four-letter word one letter off 'Date' before a lost-separator date as its label", () => {
    const doc = receipt(withBody([[["Bate: 2203/2018", 20]]]));
    for (const word of doc.pages[0]?.words ?? []) if (word.text === "Bate:") word.confidence = 0.78;
    assert.equal(issueDate(doc, 2026).value, "2018-03-22");
  });

  it("takes a lost-separator date after a date label or beside a clock time, less surely than a clean one", () => {
    assert.equal(issueDate(receipt(withBody([[["Date 12/012018", 20]]])), 2026).value, "2018-01-12");
    const lost = issueDate(receipt(withBody([[["11-0418 17:42", 20]]])), 2026);
    const clean = issueDate(receipt(withBody([[["11-04-18 17:42", 20]]])), 2026);
    assert.equal(lost.value, "2018-04-11");
    assert.ok(lost.penalty < clean.penalty, `${lost.penalty} vs ${clean.penalty}`);
  });

  it("reads the clock of a till line also without its colon or split after it", () => {
    assert.equal(issueDate(receipt(withBody([[["1012A 560272 1105-16", 20]]])), 2026).value, "2016-05-11");
    assert.equal(issueDate(receipt(withBody([[["0S: 38P 568268 0406-18", 20]]])), 2026).value, "2018-06-04");
  });

  it("takes no lost-separator date without a label or a clock time", () => {
    assert.equal(issueDate(receipt(withBody([[["560272 1105-16", 20]]])), 2026).value, null);
    assert.equal(issueDate(receipt(withBody([[["12/012018", 20]]])), 2026).value, null);
  });

  it("never reads a labelled phone or invoice number, or an amount, beside a time as a date", () => {
    for (const row of ["Tel 03-1218 10:30", "Inv No: 2019-0412 10:30", "Total 1012.18 10:30"]) {
      assert.equal(issueDate(receipt(withBody([[[row, 20]]])), 2026).value, null, row);
    }
  });

  it("lets a lost-separator date lose to any date printed cleanly in a plausible year", () => {
    const doc = receipt(withBody([[["Date: 12/012018 10:30", 20]], [["SLIP 0041", 20]], [["15/03/2018", 20]]]));
    assert.equal(issueDate(doc, 2026).value, "2018-03-15");
  });
});
