/**
 * Which labels sit next to a span of words: to its left on the same row (same segment first, then segments further
 * left), or in the row directly above within the same column. Only the nearest, most specific label counts on each
 * side ("Sub Total: 5.00" is a subtotal, not a total), with a strength that decays with distance.
 */

import type { Word } from "../document/model.js";
import {
  correctLabelWord,
  fuzzyIndex,
  LABELS,
  type LabelEntry,
  type LabelRole,
  MAX_LABEL_CHARS,
  nearestWord,
  nearLabel,
} from "./labels.js";
import { type Layout, type LineSegment, levelShare } from "./layout.js";
import { parseAmount } from "./normalise/amount.js";
import { lostSeparator } from "./normalise/date.js";
import { foldForMatching } from "./text.js";
import { HEADER_PHRASES } from "./vocabulary/table-headers.js";

export interface Span {
  segment: LineSegment;
  /** Word positions [start, end) inside the segment. */
  start: number;
  end: number;
}

export interface LabelHit {
  roles: readonly LabelEntry[];
  /** 0..1: how much distance weakens the label; times the phrase weight of a role gives its strength. */
  decay: number;
  direction: "left" | "above";
  /** Words between label and value on the left; rows up for above. */
  distance: number;
  /** Column gaps between a left label and the value (0: same segment). */
  gaps: number;
  /** A label over its value in a totals grid: it names the column, so it outranks a label left in the row. */
  grid?: boolean;
}

export interface SpanLabels {
  left: LabelHit | null;
  above: LabelHit | null;
}

const LEFT_DECAY = [1, 0.8, 0.6, 0.4, 0.25];

interface LeftWord {
  text: string;
  /** Column gaps crossed between this word and the value. */
  gaps: number;
  /** OCR confidence of the word (1 for a text layer). */
  confidence: number;
  /** The word is one of the two nearest a value that reads as a whole date. */
  beforeDate: boolean;
  /** Whether the word is a number printed as an identifier (five digits or more, no separators: "710622172"). */
  identifier: boolean;
}

/** How an identifier is printed: digits with no separator, after at most a few letters. */
const IDENTIFIER = /^\p{L}{0,4}\d{5,}$/u;

/** The words matchWords reads: a left word's text, gaps and whether it is an identifier. */
type MatchWord = Pick<LeftWord, "text" | "gaps"> & { identifier?: boolean };

/** A complete numeric date ("24/10/2017") or a month word beside digits ("11 Jan 2019"). */
const DATE_LIKE = /\d[./-]\d{1,2}[./-]\d|\d\s*\p{L}{3,}\.?[\s/-]*\d|\p{L}{3,}\.?\s+\d{1,2},?\s+\d{2,4}/u;

/** Folded words to the left of the span, nearest first, with the number of column gaps crossed before each. */
function leftWords(layout: Layout, span: Span): LeftWord[] {
  const words: Array<Omit<LeftWord, "beforeDate">> = [];
  const taken: Array<{ word: Word; folded: string; seg: LineSegment }> = [];
  const push = (seg: LineSegment, i: number, gaps: number) => {
    const word = seg.words[i];
    const folded = seg.folded[i] ?? "";
    if (word && taken.some((t) => t.seg !== seg && readTwice(t.word, t.folded, word, folded))) return;
    if (word) taken.push({ word, folded, seg });
    const confidence = word?.confidence ?? 1;
    const identifier = IDENTIFIER.test(word?.text ?? "");
    for (const text of unglued(word?.text ?? "", folded).reverse()) {
      words.push({ text, gaps, confidence, identifier });
    }
  };
  for (let i = span.start - 1; i >= 0; i--) push(span.segment, i, 0);
  const page = layout.pages.find((p) => p.pageNum === span.segment.pageNum);
  const row = page?.rows[span.segment.row] ?? [];
  const inRow = row.filter((s) => s.box.x1 <= span.segment.box.x0 + 1e-6);
  const left = (
    inRow.length > 0 ? [...inRow, ...nearerLevelLeft(page, span.segment, inRow)] : levelLeftOf(page, span.segment)
  ).sort((a, b) => b.box.x1 - a.box.x1);
  left.forEach((seg, g) => {
    const tail = page ? wrappedLabel(page, seg)?.rest : undefined;
    if (tail) for (let i = tail.folded.length - 1; i >= 0; i--) push(tail, i, g + 1);
    for (let i = seg.folded.length - 1; i >= 0; i--) push(seg, i, g + 1);
  });
  const value = span.segment.words
    .slice(span.start, span.end)
    .map((w) => w.text)
    .join(" ");
  // "Bate: 2203/2018": a date that lost a separator is still a date beside a four-letter word one letter off "Date".
  const date = DATE_LIKE.test(value) || lostSeparator(value);
  return words.map((w, k) => ({ ...w, beforeDate: date && k < 2 }));
}

/**
 * The segments left of `seg` on its printed line that rows put in the row above: a row is formed around its highest
 * segment, and where a column beside prints its lines at another pitch ("+33 4 72 07 08 56" a little above "Date
 * d'échéance"), the label joins that row and its value, level with the label, starts the next. Those of the row
 * above that lie level with `seg` (sharing over half the shorter one's height). Looking in the row below as well
 * moved receipt totals on receipts-dev and receipts-train (a wrong answer more, a wrong answer fewer) and was left.
 */
function levelLeftOf(page: Layout["pages"][number] | undefined, seg: LineSegment): LineSegment[] {
  return (page?.rows[seg.row - 1] ?? []).filter((s) => s.box.x1 <= seg.box.x0 + 1e-6 && levelShare(s, seg) > 0.5);
}

/**
 * A label that rows put in the row above or below its value while the value's row holds other segments to its left:
 * a facts grid right of a letterhead ("FÄLLIG AM  27. April 2024" beside "Telefon: ..." and "info@..." a little
 * above and below) prints at its own pitch, and the value joined the letterhead's line above, its label the one
 * under. A segment of a neighbouring row that lies nearer the value than the row's own left segments and more level
 * with it than the nearest of them (over half the shorter height either way) is read as left of it too.
 */
function nearerLevelLeft(
  page: Layout["pages"][number] | undefined,
  seg: LineSegment,
  inRow: readonly LineSegment[],
): LineSegment[] {
  const nearest = inRow.reduce<LineSegment | null>((a, b) => (!a || b.box.x1 > a.box.x1 ? b : a), null);
  if (!page || !nearest) return [];
  const share = levelShare(nearest, seg);
  return [...(page.rows[seg.row - 1] ?? []), ...(page.rows[seg.row + 1] ?? [])].filter(
    (s) => s.box.x1 <= seg.box.x0 + 1e-6 && s.box.x0 > nearest.box.x1 && levelShare(s, seg) > Math.max(0.5, share),
  );
}

/**
 * A label wrapped in a narrow column: its rest on the row under `seg` at its left edge ("Invoice" over "date:",
 * "Customer" over "ID:"), which read after `seg` spells a longer label, and that label's entries. Null when the row
 * under it holds no such rest.
 */
export function wrappedLabel(
  page: Layout["pages"][number],
  seg: LineSegment,
): { rest: LineSegment; entries: readonly LabelEntry[] } | null {
  const rest = page.rows[seg.row + 1]?.find((s) => Math.abs(s.box.x0 - seg.box.x0) < 0.01);
  if (!rest || rest.box.y0 - seg.box.y1 > seg.height) return null;
  const key = [...seg.folded, ...rest.folded].join("");
  const entries = key.length <= MAX_LABEL_CHARS ? LABELS.get(key) : undefined;
  return entries ? { rest, entries } : null;
}

/**
 * OCR read one printed word twice, into two segments of a row: the same folded text over the same stretch of the row
 * (at least half the narrower box). A scan's "FACTURE N:  F20260029" came back as "FACTURE N.:", "N:" and the number:
 * read twice, the "N" stood between "FACTURE" and the number and the invoice number label went unread (einvoices-dev
 * scanned: 1 of 15 numbers, F1 0.771 -> 0.776).
 */
function readTwice(a: Word, aFolded: string, b: Word, bFolded: string): boolean {
  if (a.source !== "ocr" || b.source !== "ocr" || aFolded === "" || aFolded !== bFolded) return false;
  const overlap = Math.min(a.box.x1, b.box.x1) - Math.max(a.box.x0, b.box.x0);
  return overlap >= 0.5 * Math.min(a.box.x1 - a.box.x0, b.box.x1 - b.box.x0);
}

/**
 * The folded words of a printed word OCR glued to a bracketed qualifier ("Sales(Incl." -> "sales", "incl"), so the
 * label and the qualifier read apart; any other word as folded.
 */
function unglued(printed: string, folded: string): string[] {
  const glued = /^(.*\p{L})\((\p{L}.*)$/u.exec(printed);
  return glued ? [foldForMatching(glued[1] ?? ""), foldForMatching(glued[2] ?? "")] : [folded];
}

/**
 * What a generic "Nr." / "No." / "#" numbers: the title or label just before it ("Rechnung Nr.", "Invoice (380) No.").
 * Returns that label's roles, so "Handelsrechnung (380) Nr. 471102" labels 471102 as an invoice number.
 */
function qualifier(words: Array<{ text: string; gaps: number }>, gaps: number): readonly LabelEntry[] | null {
  // Only words of the same segment qualify the "Nr." ("Bill to   Number X" is two labels in two columns).
  const own = words.filter((w) => w.gaps === gaps);
  for (const start of own.keys()) {
    let key = "";
    for (let k = start; k < own.length; k++) {
      key = (own[k]?.text ?? "") + key;
      const entries = LABELS.get(key)?.filter((x) => NUMBERED.has(x.role));
      if (entries && entries.length > 0) return entries;
    }
  }
  return null;
}

/** Roles a generic "Nr." / "No." can stand for. */
const NUMBERED: ReadonlySet<LabelRole> = new Set<LabelRole>([
  "invoiceNumber",
  "creditNumber",
  "receiptNumber",
  "purchaseOrder",
  "customerNumber",
  "accountNo",
  "paymentReference",
  "taxId",
  "companyReg",
  "otherReference",
]);

/** Currency words between a label and its amount ("Total (RM) 12.00", "Summe EUR 5,00") say nothing about the role. */
const SKIPPED = new Set(["rm", "eur", "usd", "sgd", "myr", "gbp", "chf", "aud", "nzd", "cad"]);
/** "Steuerbetrag in EUR 70,00", "Montant en €": the preposition before a currency belongs to it, not to the label. */
const CURRENCY_IN = new Set(["in", "en", "em", "im", "dalam"]);

/**
 * Whether the word printed right after left word `k` (the left words run nearest first, so at `k - 1` there) is a
 * currency code or a sign folding leaves empty ("€").
 */
function currencyAfter(all: readonly LeftWord[], k: number): boolean {
  const word = all[k - 1];
  return word !== undefined && (word.text === "" || SKIPPED.has(word.text));
}
const INCLUDING = new Set([
  "incl",
  "inclusive",
  "including",
  "inc",
  "inkl",
  "inklusive",
  "ttc",
  "with",
  "avec",
  "termasuk",
  "con",
  "incluido",
  "inclusief",
  "met",
]);
const EXCLUDING = new Set([
  "excl",
  "exclusive",
  "excluding",
  "exkl",
  "exklusive",
  "ohne",
  "ex",
  "before",
  "hors",
  "sans",
  "without",
  "sebelum",
  "sin",
  "zonder",
  "exclusief",
  "excluding",
  "net",
  "netto",
]);
const TAX_WORDS = new Set([
  "gst",
  "vat",
  "tax",
  "sales",
  "taxes",
  "mwst",
  "ust",
  "tva",
  "btw",
  "iva",
  "sst",
  "of",
  "cukai",
  "servicetax",
  "service",
  "charge",
  "rm",
  "de",
]);

/** "Imclusive", "Exc1uding": qualifier words OCR damaged, read back like label words. */
const QUALIFIER_WORDS = fuzzyIndex([...INCLUDING, ...EXCLUDING]);

/** The word that joins a tax rate to the base it is charged on: "10% on $52.99", "19 % auf 100,00", "20 % sur". */
const ON_BASE = new Set(["on", "of", "auf", "von", "sur", "de", "sobre", "op", "over", "su"]);

/**
 * "Sales tax (10% on $52.99) 5.30": the words (nearest first) of the rate and the base a tax is charged on, printed
 * between the tax label and its amount; 0 when the words left of the value are no such qualifier.
 */
function rateOnBase(words: ReadonlyArray<{ text: string }>): number {
  // The base may be missing: a narrow column wraps it onto the next line ("Sales tax (8.875% on USD" / "7950.65)").
  for (let k = 0; k <= 3 && k < words.length; k++) {
    if (!ON_BASE.has(words[k]?.text ?? "")) continue;
    if (!words.slice(0, k).every((w) => /^\d+$/.test(w.text))) return 0;
    return /^\d+%?$/.test(words[k + 1]?.text ?? "") ? k + 2 : 0;
  }
  return 0;
}

/**
 * Removes "(incl. GST)" / "excl. VAT" / "(GST incl)" qualifiers from the words left of a value (nearest first) so the
 * head label is matched; reports whether the qualifier excluded tax, which turns a "total" into a subtotal.
 */
function dropQualifiers(words: Array<{ text: string; gaps: number }>): {
  words: Array<{ text: string; gaps: number }>;
  excluding: boolean;
} {
  const base = rateOnBase(words);
  if (base > 0) return { words: words.slice(base), excluding: false };
  for (let k = 0; k < Math.min(words.length, 6); k++) {
    const text = words[k]?.text ?? "";
    const incl = INCLUDING.has(text);
    const excl = EXCLUDING.has(text);
    if (!incl && !excl) continue;
    const taxWord = (w: string) =>
      TAX_WORDS.has(w) || /^(gst|vat|tax|mwst|ust|tva|btw|iva|sst)/.test(w) || /^\d+%?$/.test(w);
    if (!words.slice(0, k).every((w) => taxWord(w.text))) continue;
    // The tax named before its inclusion ("TOTAL (GST INCL) 13.78") belongs to the qualifier too.
    let end = k + 1;
    if (words.slice(0, k).every((w) => /^\d+%?$/.test(w.text))) {
      while (end < words.length && end < k + 3 && taxWord(words[end]?.text ?? "")) end++;
    }
    return { words: words.slice(end), excluding: excl };
  }
  return { words, excluding: false };
}

/** OCR confidence below which a short reading is a smudge or speck, not print (tesseract's 0-0.2 on "eo." for a mark). */
const SMUDGE = 0.2;

/**
 * A few characters OCR read with next to no confidence and no label word: a smudge between a label and its value
 * ("FACTURE N° eo. F20260029"), which would otherwise stand between them as a word of the line.
 */
function smudge(w: LeftWord): boolean {
  return w.confidence < SMUDGE && w.text.length <= 3 && !LABELS.has(w.text);
}

/**
 * Nearest label ending within a few words of the span, preferring the longest phrase at that distance. The words as
 * printed are read first; the OCR-corrected reading wins only where it finds a nearer head label ("Doc No X Cate:
 * 12/02/18", "Total Sales (Imclusive GST) 5.00"), and the bare tax word of a qualifier labels the value only when no
 * reading has a head label.
 */
function matchBackwards(all: LeftWord[]): LabelHit | null {
  const words = all.filter(
    (w, k) =>
      w.text !== "" && !SKIPPED.has(w.text) && !(CURRENCY_IN.has(w.text) && currencyAfter(all, k)) && !smudge(w),
  );
  const exact = matchQualified(words);
  const corrected = correctedWords(words);
  const fixed = corrected ? matchQualified(corrected) : { head: null, fallback: null, qualified: false };
  // Where only the corrected reading sees a qualifier ("(Imclusive GST)"), what the printed one matched is its tax word.
  const betterFixed =
    fixed.head !== null &&
    (exact.head === null || fixed.head.distance < exact.head.distance || (fixed.qualified && !exact.qualified));
  return (betterFixed ? fixed.head : exact.head) ?? exact.fallback ?? fixed.fallback;
}

/**
 * Label and qualifier words OCR itself doubted, read as the word they most likely are; null when none changed. A
 * confidently read "Charge" stays a charge, not a "Change".
 */
function correctedWords(words: LeftWord[]): LeftWord[] | null {
  let changed = false;
  const out = words.map((w) => {
    if (w.confidence >= 0.9) return w;
    const label = correctLabelWord(w.text, w.beforeDate);
    const text = label === w.text ? nearestWord(w.text, QUALIFIER_WORDS) : label;
    changed ||= text !== w.text;
    return text === w.text ? w : { ...w, text };
  });
  return changed ? out : null;
}

/**
 * Head label before a "(incl. GST)" qualifier, and the qualifier's own tax word as the fallback label; without a
 * qualifier the nearest label is the head.
 */
function matchQualified(words: Array<{ text: string; gaps: number }>): {
  head: LabelHit | null;
  fallback: LabelHit | null;
  qualified: boolean;
} {
  const qualified = dropQualifiers(words);
  if (qualified.words === words) return { head: matchWords(words, false), fallback: null, qualified: false };
  // "inkl. MwSt 4,94" has no head label before the qualifier: then the qualifier's tax word is the label.
  return {
    head: matchWords(qualified.words, qualified.excluding),
    fallback: matchWords(words, false),
    qualified: true,
  };
}

function matchWords(nonEmpty: readonly MatchWord[], excluding: boolean): LabelHit | null {
  for (let e = 0; e < LEFT_DECAY.length && e < nonEmpty.length; e++) {
    let key = "";
    let best: { entries: readonly LabelEntry[]; gaps: number } | null = null;
    for (let k = e; k < nonEmpty.length && k < e + 7; k++) {
      const word = nonEmpty[k];
      // A phrase is printed in one run: across a column gap its words are two labels' ("AVOIR o." and "N°:" read "on").
      if (!word || word.gaps !== nonEmpty[e]?.gaps) break;
      key = word.text + key;
      if (key.length > MAX_LABEL_CHARS) break;
      const entries = LABELS.get(key);
      if (entries) best = { entries, gaps: nonEmpty[e]?.gaps ?? 0 };
    }
    if (best) {
      // A label with its own number beside it, in a column of its own ("RCS 710622172" left of a footer's VAT id),
      // labels that number, not what stands further right.
      if (nonEmpty.slice(0, e).some((w) => w.gaps > 0 && w.identifier)) return null;
      const decay = (LEFT_DECAY[e] ?? 0) * 0.92 ** best.gaps;
      // A generic word's own sense ("Ref" also labels a payment reference) stays beside what its qualifier names.
      const generic = best.entries.some((x) => x.role === "genericNumber");
      const named = generic ? qualifier(nonEmpty.slice(e + 1, e + 6), best.gaps) : null;
      const roles = named ? [...named, ...best.entries.filter((x) => x.role !== "genericNumber")] : best.entries;
      const adjusted = excluding
        ? roles.map((x) => (x.role === "total" ? { ...x, role: "subtotal" as const } : x))
        : roles;
      return { roles: adjusted, decay, direction: "left", distance: e, gaps: best.gaps };
    }
  }
  return null;
}

/** Label phrase that a whole segment (or its tail) spells. */
function segmentLabel(seg: LineSegment): readonly LabelEntry[] | null {
  const words = seg.folded.filter((w) => w !== "");
  for (let start = 0; start < words.length && start < 4; start++) {
    const key = words.slice(start).join("");
    if (key.length > MAX_LABEL_CHARS) continue;
    const entries = LABELS.get(key);
    if (entries) return entries;
  }
  return null;
}

/**
 * The title standing over a value in a row of column titles set so close that they read as one segment ("SHIP VIA
 * PAYMENT TERMS DUE DATE" over "UPS  Net 30  16 Mar 2022"): the words over the value, with up to two words left of
 * them, the longest reading first ("DUE DATE" before "DATE"), read as a label. Null when every word of the segment
 * stands over the value, or the segment holds a figure. Only the row right over the value is read so.
 */
function titleOver(seg: LineSegment, x0: number, x1: number): readonly LabelEntry[] | null {
  const over = seg.words.flatMap((w, i) => (Math.min(w.box.x1, x1) - Math.max(w.box.x0, x0) > 0 ? [i] : []));
  const first = over[0];
  const last = over[over.length - 1];
  // Titles print no figures: a sentence with a date or a number over the value is no row of titles.
  if (first === undefined || last === undefined || over.length === seg.words.length || /\d/.test(seg.text)) return null;
  for (let start = Math.max(0, first - 2); start <= first; start++) {
    const key = seg.folded.slice(start, last + 1).join("");
    const entries = key.length <= MAX_LABEL_CHARS ? LABELS.get(key) : undefined;
    if (entries) return entries;
  }
  return null;
}

/** Roles of the lines that sum an invoice up: labels of these over a row of numbers make a totals grid. */
const SUMMARY_ROLES: ReadonlySet<LabelRole> = new Set<LabelRole>([
  "total",
  "subtotal",
  "tax",
  "amountDue",
  "paid",
  "discount",
]);

/**
 * A word that is a number, maybe with a sign, brackets or a currency symbol ("104,90", "-21,55", "€12.00"), the symbol
 * maybe with its country's letters ("A$9,689.54", "-US$12.00").
 */
const NUMERIC = /^[^\p{L}\d]{0,3}(?:[A-Z]{1,3}[$€£¥])?[^\p{L}\d]{0,2}\d[\d.,'’]*[^\p{L}\d%]{0,3}$/u;

/** A tax rate within a label, bracketed or not: "7 %", "10%", "(8.25%)". */
const RATE_WORD = /^\(?(\d{1,2}([.,]\d{1,3})?\s?%?|%)\)?$/;
/** Words printed between a label and its rate: "TVA à 20 %", "VAT @ 20%", "IVA al 21%", "MwSt. zu 19 %". */
const RATE_JOINER = /^(à|a|@|at|al|zu|de|van)$/i;

interface PlacedWord {
  text: string;
  folded: string;
  /** Read by OCR (its letters may be misread), not from a text layer. */
  ocr: boolean;
  confidence: number;
  x0: number;
  x1: number;
  y1: number;
  /** Its segment: two lines OCR read apart can share a row (a skew), each its own segment. */
  segment: LineSegment;
}

const ROW_WORDS = new WeakMap<readonly LineSegment[], readonly PlacedWord[]>();

function rowWords(page: Layout["pages"][number], row: number): readonly PlacedWord[] {
  const segments = page.rows[row];
  if (!segments) return [];
  const known = ROW_WORDS.get(segments);
  if (known) return known;
  // Currency codes beside a label ("Netto EUR", "MwSt. EUR") say nothing about the column; rules ("-----") are no words.
  const words = segments.flatMap((seg) =>
    seg.words.flatMap((w, i) =>
      SKIPPED.has(seg.folded[i] ?? "") || !/[\p{L}\d]/u.test(w.text)
        ? []
        : [
            {
              text: w.text,
              folded: seg.folded[i] ?? "",
              ocr: w.source === "ocr",
              confidence: w.confidence,
              x0: w.box.x0,
              x1: w.box.x1,
              y1: w.box.y1,
              segment: seg,
            },
          ],
    ),
  );
  ROW_WORDS.set(segments, words);
  return words;
}

/** OCR read below this confidence: a rule, a box's edge or a speck read as characters as often as print. */
const DOUBTFUL_OCR = 0.6;
const doubtfulReading = (w: PlacedWord | undefined): boolean => !!w && w.ocr && w.confidence < DOUBTFUL_OCR;
/** A lone character OCR doubted: a mark (a colon, a box's edge) as often as a figure ("payé :" read "payé 2", 0.41). */
const doubtedMark = (w: PlacedWord | undefined): boolean => !!w && [...w.text].length === 1 && doubtfulReading(w);

const rowTop = (page: Layout["pages"][number], row: number): number =>
  Math.min(...(page.rows[row] ?? []).map((s) => s.box.y0));

/** The printed numbers add up to `sum` read with one decimal separator or the other ("-4,85" "-2,82" "-7,67"). */
function addsUp(sum: string, parts: readonly string[]): boolean {
  return ([",", "."] as const).some((decimalSeparator) => {
    const read = [sum, ...parts].map((t) => parseAmount(t, { decimalSeparator })?.value);
    if (read.some((v) => v === undefined)) return false;
    const [total = 0, ...values] = read as number[];
    return values.some((v) => v !== 0) && Math.abs(values.reduce((a, v) => a + v, 0) - total) < 0.005;
  });
}

const SUM_ROWS = new WeakMap<readonly LineSegment[], ReadonlyMap<PlacedWord, number>>();

/** Rows looked up for the parts of a column's sum. */
const SUM_ROWS_UP = 24;

/**
 * A row that adds up the rows over it column by column: a tax breakdown prints a row per rate under its column labels
 * ("Nettobetrag  MwSt-Betrag  Endbetrag") and under them, unlabelled, their sums. For each number of the row that is
 * the sum of the numbers printed over it in two or more rows just above (one number per row, each within six line
 * heights of the next: an item table's rows hold wrapped descriptions and detail lines between their figures), how
 * many rows up the first of them is. A row counts only when two or more of its columns add up: one column can add up
 * by chance.
 */
function columnSums(page: Layout["pages"][number], row: number): ReadonlyMap<PlacedWord, number> {
  const segments = page.rows[row] ?? [];
  const known = SUM_ROWS.get(segments);
  if (known) return known;
  const height = Math.max(0, ...segments.map((s) => s.height));
  const sums = new Map<PlacedWord, number>();
  for (const n of rowWords(page, row).filter((w) => NUMERIC.test(w.text))) {
    const parts: string[] = [];
    let top = rowTop(page, row);
    let first = row;
    for (let r = row - 1; r >= 0 && row - r <= SUM_ROWS_UP; r--) {
      const over = rowWords(page, r).filter((w) => Math.min(w.x1, n.x1) - Math.max(w.x0, n.x0) > 0);
      if (over.length === 0) continue;
      const [part] = over;
      if (over.length > 1 || !part || !NUMERIC.test(part.text) || top - part.y1 >= 6 * height) break;
      parts.push(part.text);
      top = rowTop(page, r);
      first = r;
    }
    if (parts.length >= 2 && addsUp(n.text, parts)) sums.set(n, row - first);
  }
  const kept = sums.size >= 2 ? sums : new Map<PlacedWord, number>();
  SUM_ROWS.set(segments, kept);
  return kept;
}

/** Rows up from `row` to the first of the rows its number over [x0, x1] adds up (columnSums), or 0. */
function summedRows(page: Layout["pages"][number], row: number, x0: number, x1: number): number {
  for (const [w, rows] of columnSums(page, row)) if (Math.min(w.x1, x1) - Math.max(w.x0, x0) > 0) return rows;
  return 0;
}

/** An amount with two decimals and no % sign after it ("55,00", not "19,00 %"). */
const AMOUNT = /^[^\p{L}\d]{0,3}\d[\d.,'’]*[.,]\d{2}[^\p{L}\d%]{0,3}$/u;

/** A confidently read amount (AMOUNT) printed in `row` over [x0, x1]. */
function amountOver(page: Layout["pages"][number], row: number, x0: number, x1: number): boolean {
  return (page.rows[row] ?? []).some((seg) =>
    seg.words.some(
      (w, i) =>
        Math.min(w.box.x1, x1) - Math.max(w.box.x0, x0) > 0 &&
        AMOUNT.test(w.text) &&
        !(w.source === "ocr" && w.confidence < DOUBTFUL_OCR) &&
        !(seg.words[i + 1]?.text ?? "").startsWith("%"),
    ),
  );
}

/**
 * The first line of a column title wrapped over two lines, folded, or "": the words of the row over `row` that stand
 * over the title's `found` words, within a line height of them, none a figure.
 */
function wrappedTitle(
  page: Layout["pages"][number],
  row: number,
  found: readonly PlacedWord[],
  height: number,
): string {
  if (row < 1 || found.length === 0) return "";
  const x0 = Math.min(...found.map((w) => w.x0));
  const x1 = Math.max(...found.map((w) => w.x1));
  const top = Math.min(...found.map((w) => w.segment.box.y0));
  const upper = rowWords(page, row - 1).filter((w) => Math.min(w.x1, x1) - Math.max(w.x0, x0) > 0);
  if (upper.length === 0 || upper.some((w) => /\d/.test(w.text) || top - w.y1 >= height)) return "";
  return upper.map((w) => w.folded).join("");
}

/** A segment's label read with the first line of its title wrapped over it (wrappedTitle), or null. */
function wrappedTitleLabel(
  page: Layout["pages"][number],
  row: number,
  seg: LineSegment,
  height: number,
): readonly LabelEntry[] | null {
  const lead = wrappedTitle(
    page,
    row,
    rowWords(page, row).filter((w) => w.segment === seg),
    height,
  );
  return lead === "" ? null : (LABELS.get(lead + seg.folded.filter((w) => w !== "").join("")) ?? null);
}

/**
 * The label printed over [x0, x1] in the nearest row above that has words there (at most four rows up, within three
 * line heights): the words over the span read as one phrase, or with one more word on either side ("Skonto sofort"
 * over a narrow number). Rows of words that are no label are looked past; null at a number or when nothing is found.
 * The number of a row that adds up the rows over it (columnSums) is labelled over those rows.
 */
function labelOver(
  page: Layout["pages"][number],
  row: number,
  x0: number,
  x1: number,
  spanTop: number,
  height: number,
): { entries: readonly LabelEntry[]; up: number } | null {
  const summed = summedRows(page, row, x0, x1);
  const top = summed > 0 ? rowTop(page, row - summed) : spanTop;
  for (let up = summed + 1; up <= summed + 4; up++) {
    // A rate in a label ("Umsatzsteuer 7 %", "10% btw") qualifies it: the label is the words around it, and a rate
    // with its % sign alone over the span stands for the word it follows ("Sales Tax (7.25%)" over a narrow value).
    const all = rowWords(page, row - up);
    const overlaps = (w: PlacedWord): boolean => Math.min(w.x1, x1) - Math.max(w.x0, x0) > 0;
    // An amount over the span ("55,00": RATE_WORD reads it as a rate) is another row's value: the labels are not
    // past it. Looked past, a tax breakdown's last row took the column labels over its first.
    if (amountOver(page, row - up, x0, x1)) return null;
    const rate = (w: PlacedWord | undefined): boolean => !!w && w.text.includes("%") && RATE_WORD.test(w.text);
    // "TVA à 20 %", "VAT @ 20%": the word joining a label to its rate goes with the rate.
    const joins = (i: number): boolean => RATE_JOINER.test(all[i]?.text ?? "") && rate(all[i + 1]);
    const words = all.filter((w, i) => !RATE_WORD.test(w.text) && !joins(i));
    const direct = words.flatMap((w, i) => (overlaps(w) ? [i] : []));
    const over =
      direct.length > 0
        ? direct
        : words.flatMap((w, i) => {
            const j = all.indexOf(w) + 1;
            const after = joins(j) ? [all[j], all[j + 1]] : [all[j]];
            return rate(after[after.length - 1]) && after.some((a) => a !== undefined && overlaps(a)) ? [i] : [];
          });
    const first = over[0];
    const last = over[over.length - 1];
    if (first === undefined || last === undefined) continue;
    // Three line heights, four past a row between (a note run between the labels and their values).
    if (top - Math.max(...over.map((i) => words[i]?.y1 ?? 0)) >= (2 + Math.min(up - summed, 2)) * height) return null;
    // A label set apart as its own segment is read whole ("TOTAL HT" over a narrower "100,00").
    const segments = (page.rows[row - up] ?? []).filter((s) => Math.min(s.box.x1, x1) - Math.max(s.box.x0, x0) > 0);
    const only = segments.length === 1 ? segments[0] : undefined;
    const kept = only?.folded.filter(
      (f, i) => f !== "" && !SKIPPED.has(f) && !RATE_WORD.test(only.words[i]?.text ?? ""),
    );
    // A title wrapped onto two lines in a narrow column ("Tax" over "Amount", "USt-" over "Betrag"): its first line,
    // right over the words found, leads the phrase ("Amount" alone would name the total).
    const lead = wrappedTitle(
      page,
      row - up,
      over.map((i) => words[i]).filter((w) => w !== undefined),
      height,
    );
    const whole = kept ? (LABELS.get(lead + kept.join("")) ?? LABELS.get(kept.join(""))) : undefined;
    if (whole) return { entries: whole, up };
    const phrase = (from: number, to: number) =>
      words
        .slice(Math.max(0, from), to + 1)
        .map((w) => w.folded)
        .join("");
    for (const [from, to] of [
      [first, last],
      [first - 1, last],
      [first, last + 1],
    ] as const) {
      const entries = (lead !== "" ? LABELS.get(lead + phrase(from, to)) : undefined) ?? LABELS.get(phrase(from, to));
      if (entries) return { entries, up };
    }
    // OCR runs a grid's labels together and misreads a letter ("TOTALTIC" for "TOTAL TTC").
    const near = over.every((i) => words[i]?.ocr) ? nearLabel(phrase(first, last)) : null;
    if (near) return { entries: near, up };
    // A note printed across the grid between its labels and its values ("Thank you for your business.") is looked
    // past; a number over the span is some other value's, and ends the search, unless OCR doubted it (a box's rule
    // read as "1200" under the labels).
    if (over.some((i) => NUMERIC.test(words[i]?.text ?? "") && !doubtfulReading(words[i]))) return null;
  }
  return null;
}

const GRIDS = new WeakMap<readonly LineSegment[], boolean>();

/** Letter words read left of a label: "Montant déjà payé :" is three, "Total (incl. VAT)" three. */
const LABEL_RUN = 6;

/** Segments of one line lie within this many line heights of each other, deskewed (two lines of one row, 0.4-1.5). */
const LEVEL_TOLERANCE = 0.25;

const middleOf = (s: LineSegment): number => (s.box.y0 + s.box.y1) / 2;

/** How far a segment's middle lies from another's, deskewed, in heights of the lower one. */
function levelOffset(a: LineSegment, b: LineSegment): number {
  return Math.abs(middleOf(a) - middleOf(b)) / Math.max(Math.min(a.height, b.height), 1e-6);
}

/**
 * A figure in the row under a totals grid's figures whose middle lies within this many of its heights of theirs
 * (between the highest and the lowest) is level with them: a row of a table under them lies a line height lower.
 */
const SKEWED_FIGURE = 0.5;

/**
 * The label phrase ending right before `number` in its row (letters only, back to the nearest figure), as read or,
 * read by OCR, one character off ("Montant déjà payé : 10,00"); a doubted mark right before the number is no figure.
 * Where a skew put two lines left of the number in its row ("Montant déjà payé :" over "(ou à payer par un tiers)"),
 * the label is read on the one level with it.
 */
function rowLabel(page: Layout["pages"][number], row: number, number: PlacedWord): readonly LabelEntry[] | null {
  const left = rowWords(page, row)
    .filter((w) => w.x1 <= number.x0)
    .map((w) => ({ word: w, offset: levelOffset(w.segment, number.segment) }));
  const level = Math.min(...left.map((l) => l.offset));
  const before = left
    .filter((l) => l.offset <= level + LEVEL_TOLERANCE)
    .map((l) => l.word)
    .sort((a, b) => b.x1 - a.x1);
  if (doubtedMark(before[0])) before.shift();
  let key = "";
  for (const w of before.slice(0, LABEL_RUN)) {
    if (/\d/.test(w.text) || w.folded === "") return null;
    key = w.folded + key;
    const entries = LABELS.get(key) ?? (w.ocr ? nearLabel(key) : null);
    if (entries) return entries;
  }
  return null;
}

/** The titles of an item table's description, quantity and unit-price columns, folded, their words run together. */
const ITEM_TITLES = {
  description: new Set(HEADER_PHRASES.description.map((p) => foldForMatching(p).replace(/\s+/g, ""))),
  count: new Set(
    [...HEADER_PHRASES.quantity, ...HEADER_PHRASES.unitPrice].map((p) => foldForMatching(p).replace(/\s+/g, "")),
  ),
};

/**
 * Whether a row is an item of a table whose titles (`up` rows over it, and the row over those: a title wrapped onto
 * two lines) name a description and a quantity or unit price. Each item prints its own net, tax and gross figures
 * ("Net Amount  Tax Amount  Total Amount" over every row): no totals grid, which names no item. The table's row that
 * adds up the items (columnSums) is its totals, labelled by those titles.
 */
function itemRow(page: Layout["pages"][number], row: number, up: number): boolean {
  if (up === 0 || columnSums(page, row).size > 0) return false;
  const labels = row - up;
  const folded = [labels - 1, labels].flatMap((r) => (r < 0 ? [] : rowWords(page, r).map((w) => w.folded)));
  const phrases = folded.flatMap((f, i) => [f, `${f}${folded[i + 1] ?? ""}`]);
  return phrases.some((p) => ITEM_TITLES.description.has(p)) && phrases.some((p) => ITEM_TITLES.count.has(p));
}

/**
 * Totals printed as a grid (labels over values: "Total HT   TVA   Total TTC" above "100,00   4,90   104,90"): a row
 * of numbers of which two or more, and at least half, stand under labels of summary roles a few rows up (notes at the
 * left may run between; the labels need not share one row or be set apart as columns). A row of other numbers right
 * under it makes the rows a table (a tax breakdown by rate), whose column headers label each cell only weakly; the
 * same numbers printed again do not.
 */
function totalsGrid(page: Layout["pages"][number], row: number): boolean {
  const segments = page.rows[row] ?? [];
  const known = GRIDS.get(segments);
  if (known !== undefined) return known;
  const numbers = rowWords(page, row).filter((w) => NUMERIC.test(w.text));
  if (numbers.length < 2) {
    GRIDS.set(segments, false);
    return false;
  }
  const top = rowTop(page, row);
  const height = Math.max(...segments.map((s) => s.height));
  const over = numbers.map((n) => labelOver(page, row, n.x0, n.x1, top, height));
  const labelled = numbers.filter((_, i) => over[i]?.entries.some((e) => SUMMARY_ROLES.has(e.role)));
  const up = over.find((o) => o?.entries.some((e) => SUMMARY_ROLES.has(e.role)))?.up ?? 0;
  let grid = labelled.length >= 2 && labelled.length * 2 >= numbers.length && !itemRow(page, row, up);
  // A row adding up the rows over it ends its columns, whatever is printed under it.
  if (grid && columnSums(page, row).size === 0) {
    const x0 = Math.min(...numbers.map((w) => w.x0));
    const x1 = Math.max(...numbers.map((w) => w.x1));
    const printed = new Set(numbers.map((w) => w.text));
    // Only a row close under it: a footer further down (a phone number, a bank account) is no table's row.
    const next = page.rows[row + 1] ?? [];
    const close = next.length > 0 && Math.min(...next.map((s) => s.box.y0)) - top < 3 * height;
    // A single figure under it with its own label on the left is a line of its own, no table's row: a scan's skew
    // puts "Montant déjà payé :" and its "10,00" (two rows born-digital) in one row right under the values
    // (einvoices-dev scanned, seed 16: F1 0.733 -> 0.771; born-digital unchanged).
    // A figure level with the row's labelled ones is one of them that a scan's skew put in the next row ("8,00"
    // between "100,00" and "108,00", their line slanting), no row of a table under them.
    const levels = labelled.map((n) => middleOf(n.segment));
    const level = (w: PlacedWord): boolean =>
      middleOf(w.segment) >= Math.min(...levels) - SKEWED_FIGURE * w.segment.height &&
      middleOf(w.segment) <= Math.max(...levels) + SKEWED_FIGURE * w.segment.height;
    const under = rowWords(page, row + 1).filter(
      (w) => w.x1 > x0 && w.x0 < x1 && NUMERIC.test(w.text) && !printed.has(w.text) && !doubtedMark(w) && !level(w),
    );
    grid =
      !close || under.length === 0 || (under.length === 1 && !!under[0] && rowLabel(page, row + 1, under[0]) !== null);
  }
  GRIDS.set(segments, grid);
  return grid;
}

/** Roles of a row of net, tax and gross amounts, left to right. */
const NET_TAX_GROSS: readonly LabelRole[] = ["subtotal", "tax", "total"];
/** How much a role read from a row's arithmetic counts: less than a printed label over the value (0.75). */
const ARITHMETIC_DECAY = 0.5;

const ARITHMETIC_ROWS = new WeakMap<readonly LineSegment[], ReadonlyMap<PlacedWord, LabelRole>>();

/**
 * A totals grid whose labels OCR lost or garbled past reading: a row of exactly three figures, none labelled, the
 * first and second adding up to the third, and that third printed again on the page under a total or amount-due
 * label ("NET A PAYER 104,90 EUR" under "100,00  4,90  104,90"), or made of an amount due and a payment the page
 * prints under their labels ("Acompte : 10,00", "NET A PAYER 100,00" under "100,00  10,00  110,00"). The figures
 * are the net amount, the tax and the gross amount, in that order. A note's figure at the row's left ("paiement :
 * 40 €" beside the grid) is no cell: the row's three figures are then those standing alone. Two of einvoices-dev's
 * 15 scans (issue #16, seed 16) lost their grid's labels so, and took a line item's "(Net): 7,00" for the subtotal:
 * scanned F1 0.776 -> 0.798, born-digital unchanged.
 */
function arithmeticRow(page: Layout["pages"][number], row: number): ReadonlyMap<PlacedWord, LabelRole> {
  const segments = page.rows[row] ?? [];
  const known = ARITHMETIC_ROWS.get(segments);
  if (known) return known;
  const roles = new Map<PlacedWord, LabelRole>();
  const figures = rowWords(page, row).filter((w) => NUMERIC.test(w.text));
  const alone = figures.filter((w) => w.segment.words.length === 1);
  const numbers = figures.length === 3 ? figures : alone;
  const [net, tax, gross] = numbers;
  if (
    numbers.length === 3 &&
    net &&
    tax &&
    gross &&
    addsUp(gross.text, [net.text, tax.text]) &&
    numbers.every((n) => rowLabel(page, row, n) === null) &&
    (printedAs(page, row, ["total", "amountDue"]).some((w) => w !== gross && addsUp(w.text, [gross.text])) ||
      dueAndPaid(page, row).some(([due, paid]) => addsUp(gross.text, [due.text, paid.text])))
  ) {
    for (const [i, n] of numbers.entries()) roles.set(n, NET_TAX_GROSS[i] ?? "total");
  }
  ARITHMETIC_ROWS.set(segments, roles);
  return roles;
}

/**
 * Whether `value`, a figure of the totals grid's row `row` that OCR left no label over (the gross's label garbled past
 * reading: "TOTAL TTC" read "goes"), is what the row's figures labelled net and tax add up to: the gross.
 */
function grossOfGrid(page: Layout["pages"][number], row: number, value: string, height: number): boolean {
  const top = rowTop(page, row);
  const labelled = rowWords(page, row)
    .filter((w) => w.text !== value && NUMERIC.test(w.text))
    .map((w) => ({ text: w.text, roles: labelOver(page, row, w.x0, w.x1, top, height)?.entries ?? [] }));
  const as = (role: LabelRole) => labelled.filter((w) => w.roles.some((e) => e.role === role));
  return as("subtotal").some((net) => as("tax").some((tax) => addsUp(value, [net.text, tax.text])));
}

/** The figures of the page's rows other than `row`, each labelled at its left as one of `roles`. */
function printedAs(page: Layout["pages"][number], row: number, roles: readonly LabelRole[]): PlacedWord[] {
  return page.rows.flatMap((_, r) =>
    r === row
      ? []
      : rowWords(page, r).filter(
          (w) => NUMERIC.test(w.text) && rowLabel(page, r, w)?.some((e) => roles.includes(e.role)),
        ),
  );
}

/** Every pair of a figure labelled as an amount due and one labelled as paid, outside `row`. */
function dueAndPaid(page: Layout["pages"][number], row: number): Array<[PlacedWord, PlacedWord]> {
  const paid = printedAs(page, row, ["paid"]);
  return printedAs(page, row, ["amountDue"]).flatMap((due) => paid.map((p): [PlacedWord, PlacedWord] => [due, p]));
}

function aboveLabel(layout: Layout, span: Span): LabelHit | null {
  const page = layout.pages.find((p) => p.pageNum === span.segment.pageNum);
  if (!page) return null;
  const first = span.segment.words[span.start];
  const last = span.segment.words[span.end - 1];
  if (!first || !last) return null;
  const x0 = first.box.x0;
  const x1 = last.box.x1;
  const height = span.segment.height;
  if (totalsGrid(page, span.segment.row)) {
    // Under the number itself: a currency code the span took from the next cell ("341.67 USD 4483.15") is no part of
    // the column.
    const digits = span.segment.words.slice(span.start, span.end).filter((w) => /\d/.test(w.text));
    const [n0, n1] =
      digits.length > 0
        ? [Math.min(...digits.map((w) => w.box.x0)), Math.max(...digits.map((w) => w.box.x1))]
        : [x0, x1];
    const over = labelOver(page, span.segment.row, n0, n1, span.segment.box.y0, height);
    if (over) return { roles: over.entries, decay: 0.75, direction: "above", distance: over.up, gaps: 0, grid: true };
    const value = digits.length === 1 ? digits[0]?.text : undefined;
    if (value !== undefined && grossOfGrid(page, span.segment.row, value, height)) {
      const roles = [{ role: "total" as const, weight: 1, words: 1 }];
      return { roles, decay: ARITHMETIC_DECAY, direction: "above", distance: 0, gaps: 0, grid: true };
    }
  } else {
    const digits = span.segment.words.slice(span.start, span.end).filter((w) => /\d/.test(w.text));
    for (const [w, role] of arithmeticRow(page, span.segment.row)) {
      if (digits.length === 1 && digits[0]?.box.x0 === w.x0) {
        const roles = [{ role, weight: 1, words: 1 }];
        return { roles, decay: ARITHMETIC_DECAY, direction: "above", distance: 0, gaps: 0, grid: true };
      }
    }
  }
  for (let up = 1; up <= 2; up++) {
    const row = page.rows[span.segment.row - up];
    if (!row) break;
    const candidates = row.filter((s) => {
      const overlap = Math.min(s.box.x1, x1) - Math.max(s.box.x0, x0);
      return (overlap > 0 || Math.abs(s.box.x0 - x0) < 0.02) && span.segment.box.y0 - s.box.y1 < 3 * height;
    });
    for (const seg of candidates) {
      const whole = wrappedTitleLabel(page, span.segment.row - up, seg, height) ?? segmentLabel(seg);
      const entries = whole ?? (up === 1 ? titleOver(seg, x0, x1) : null);
      if (entries) {
        // A column header of a table labels every cell below it only weakly, an item table's too where its titles
        // wrapped and the line right over the value holds only a few of them.
        const header = row.length >= 3 || !whole || itemRow(page, span.segment.row, up) ? 0.45 : 1;
        return { roles: entries, decay: (up === 1 ? 0.75 : 0.5) * header, direction: "above", distance: up, gaps: 0 };
      }
    }
    if (candidates.length > 0) break;
  }
  return null;
}

export function spanLabels(layout: Layout, span: Span): SpanLabels {
  return { left: matchBackwards(leftWords(layout, span)), above: aboveLabel(layout, span) };
}

/** Strength with which the span is labelled as one of the roles (0 when its nearest labels say something else). */
export function roleStrength(labels: SpanLabels, roles: readonly LabelRole[]): number {
  let best = 0;
  // A value with its own label on the left is not labelled by the line above it (stacked "Label  value" rows).
  const above = labels.left && labels.left.gaps === 0 && labels.left.decay >= 0.5 ? null : labels.above;
  // In a totals grid the label over the value names its column; one at the left of the row names the row.
  const hits = labels.above?.grid ? [labels.above] : [labels.left, above];
  for (const hit of hits) {
    if (!hit) continue;
    for (const entry of hit.roles) {
      if (roles.includes(entry.role)) best = Math.max(best, entry.weight * hit.decay);
    }
  }
  return best;
}
