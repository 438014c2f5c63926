/**
 * What OCR left for extraction to find: a Document's text as extraction sees it, and whether a labelled value can be
 * read off it (bench/ocr-variants.ts per variant, bench/ocr-presence.ts for ingest as it is).
 */
import type { Document } from "../src/document/model.js";
import { parseDate } from "../src/extract/normalise/date.js";
import { foldText } from "./score.js";

/** Document text as extraction sees it: each page's lines in reading order, words joined by spaces. */
export function documentText(doc: Document): string {
  return doc.pages
    .map((page) => {
      const byId = new Map(page.words.map((w) => [w.id, w.text]));
      return page.lines.map((l) => l.wordIds.map((id) => byId.get(id) ?? "").join(" ")).join("\n");
    })
    .join("\n");
}

const DATE_ORDERS = ["DMY", "MDY", "YMD"] as const;
/** The longest span of words a printed date takes ("12 March 2024", "Mar. 12, 2024"). */
const DATE_SPAN_WORDS = 4;

/** Whether some span of words of one line of `text` reads as the date `iso` in some day/month order. */
function datePresent(iso: string, text: string): boolean {
  return text.split("\n").some((line) => {
    const words = line.split(/\s+/).filter(Boolean);
    return words.some((_, from) =>
      Array.from({ length: DATE_SPAN_WORDS }, (_, n) => words.slice(from, from + n + 1).join(" ")).some((span) =>
        DATE_ORDERS.some((dateOrder) => parseDate(span, { dateOrder })?.iso === iso),
      ),
    );
  });
}

/**
 * Whether the labelled value can be read off the OCR text: folded substring (amounts: the digits with either decimal
 * mark; dates: datePresent).
 */
function present(field: string, expected: string, text: string): boolean {
  const folded = ` ${foldText(text)} `;
  if (/total|tax|amount/i.test(field)) {
    // Printed with either decimal mark, thousands grouped by the other ("1.234,56", "1,234.56") or not.
    const digits = expected.replace(/^-/, "");
    const ungrouped = text.replace(/(\d)[,.'\u00a0\u202f](?=\d{3}(?:[,.]\d{2})?\b)/g, "$1");
    return [digits, digits.replace(".", ",")].some((form) =>
      new RegExp(`(?<![\\d.,])${form.replace(/[.]/g, "\\.")}(?!\\d)`).test(ungrouped),
    );
  }
  if (/date/i.test(field)) return datePresent(expected, text);
  return folded.includes(` ${foldText(expected)} `);
}

/** Labelled values seen and present, per field. */
export type PresenceCounts = Map<string, { n: number; hit: number }>;

/** Counts each labelled value of a document in `counts`, and whether it is present in the document's `text`. */
export function tallyPresence(counts: PresenceCounts, fields: Readonly<Record<string, string>>, text: string): void {
  for (const [field, expected] of Object.entries(fields)) {
    const count = counts.get(field) ?? { n: 0, hit: 0 };
    counts.set(field, count);
    count.n++;
    if (present(field, expected, text)) count.hit++;
  }
}
