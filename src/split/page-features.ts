/**
 * What one page shows about where it sits in a document: its marker, whether it opens like a first page (a title
 * near the top, a document number and date), whether it closes one (totals, "amount due") or says it goes on
 * ("continued overleaf"), and the identifiers that tie pages of one document together (document number, supplier,
 * tax id, IBAN). Identifiers come from the extraction engine run on the page alone, so split reads them exactly as
 * extraction would.
 */

import type { FieldDef } from "../catalog/catalog.js";
import { findField } from "../catalog/lookup.js";
import { median } from "../document/median.js";
import type { Document, Page } from "../document/model.js";
import { extract } from "../extract/index.js";
import { foldForMatching } from "../extract/text.js";
import { titlesFor } from "../extract/vocabulary/titles.js";
import { findMarker } from "./markers.js";
import { contentWordCount, type PageLine, pageLines } from "./page-text.js";
import type { PageFeatures } from "./types.js";

/** Top share of the page where first pages carry their title, number and date. */
const TOP = 0.38;
const BLANK_MAX_WORDS = 2;
/** Totals close a document below the page's top part; above it "Total" is a table column heading. */
const CLOSING_FROM = 0.35;

/** Folded titles that open a document, as one word ("Invoice", OCR's "Creditnote") or as the words of a line. */
const TITLE_WORDS: ReadonlySet<string> = new Set(titlesFor("split").map((t) => foldForMatching(t.text)));

/** Titles of two or three words ("Credit note", "Nota de crédito"), matched across the words of a line. */
const TWO_WORD_TITLES: ReadonlySet<string> = new Set(
  titlesFor("split")
    .filter((t) => t.text.includes(" "))
    .map((t) => foldForMatching(t.text)),
);

const CONTINUES = [
  "continued",
  "continuedonnextpage",
  "continuedoverleaf",
  "carriedforward",
  "fortsetzung",
  "ubertrag",
  "suitepagesuivante",
  "suiteauverso",
  "areporter",
  "continua",
  "sumaysigue",
  "sigue",
  "vervolg",
  "zievolgendepagina",
];

const CLOSING = [
  "total",
  "totaal",
  "summe",
  "gesamtbetrag",
  "zahlbetrag",
  "zuzahlen",
  "bruttosumme",
  "rechnungsbetrag",
  "endbetrag",
  "montantttc",
  "totalttc",
  "netapayer",
  "importe",
  "jumlah",
  "amountdue",
  "balancedue",
  "grandtotal",
];

const FIELD_NAMES = ["invoice.number", "supplier.name", "supplier.taxId", "payment.iban"] as const;

function fieldDefs(): FieldDef[] {
  return FIELD_NAMES.map((name) => {
    const def = findField(name);
    if (!def) throw new Error(`catalogue lacks ${name}`);
    return def;
  });
}

function isTitleWord(folded: string): boolean {
  if (TITLE_WORDS.has(folded)) return true;
  return folded.length > 8 && (folded.endsWith("rechnung") || folded.endsWith("gutschrift"));
}

function hasTitle(lines: readonly PageLine[]): boolean {
  for (const line of lines) {
    if (line.y0 > TOP) break;
    const words = line.text
      .split(/\s+/)
      .map(foldForMatching)
      .filter((w) => w !== "");
    // A title is a short line or the start of one ("Invoice No. 123" on a continuation page counts too: the
    // document number then decides whether it is the same document).
    for (let i = 0; i < words.length && i < 4; i++) {
      const w = words[i] ?? "";
      if (isTitleWord(w)) return true;
      if (TWO_WORD_TITLES.has(w + (words[i + 1] ?? ""))) return true;
      if (TWO_WORD_TITLES.has(w + (words[i + 1] ?? "") + (words[i + 2] ?? ""))) return true;
    }
  }
  return false;
}

const DATE_SHAPE =
  /\b(\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}\.?\s+\p{L}{3,}\.?\s+\d{4}|\p{L}{3,}\.?\s+\d{1,2},?\s+\d{4})\b/u;

function hasTopDate(lines: readonly PageLine[]): boolean {
  return lines.some((l) => l.y0 <= TOP && DATE_SHAPE.test(l.text));
}

function foldedLines(lines: readonly PageLine[]): string[] {
  return lines.map((l) => foldForMatching(l.text));
}

function containsAny(folded: readonly string[], phrases: readonly string[], exactLine = false): boolean {
  return folded.some((f) => phrases.some((p) => (exactLine ? f === p : f.includes(p))));
}

/** Features of one page; `document` gives the page's file type to the extraction run on it alone. */
export function pageFeatures(document: Document, page: Page): PageFeatures {
  const lines = pageLines(page);
  const folded = foldedLines(lines);
  const blank = contentWordCount(page) <= BLANK_MAX_WORDS;
  const fields = blank ? [] : extract({ type: document.type, pages: [page] }, fieldDefs());
  const value = (name: string): string | null => {
    const f = fields.find((x) => x.name === name);
    return typeof f?.value === "string" && f.value !== "" ? f.value : null;
  };
  return {
    pageNum: page.pageNum,
    blank,
    marker: findMarker(lines),
    title: hasTitle(lines),
    topDate: hasTopDate(lines),
    closing: containsAny(
      folded.filter((_, i) => (lines[i]?.y0 ?? 0) >= CLOSING_FROM),
      CLOSING,
    ),
    continues: containsAny(folded, CONTINUES),
    number: value("invoice.number"),
    numberAtTop: (fields.find((f) => f.name === "invoice.number")?.boundingBox?.topLeft.y ?? 1) <= TOP,
    supplier: value("supplier.name"),
    taxId: value("supplier.taxId"),
    iban: value("payment.iban"),
    source: page.source,
    aspect: page.height > 0 ? page.width / page.height : 1,
    width: page.width,
    height: page.height,
    header: folded.slice(0, 2).join("|"),
    bodySize: median(page.words.map((w) => w.box.y1 - w.box.y0)),
  };
}
