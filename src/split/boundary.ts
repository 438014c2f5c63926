/**
 * Does a new document start between two consecutive (non-blank) pages? Each piece of evidence adds or subtracts a
 * weight (log-odds style: positive = boundary); the sum decides and its size gives the confidence. Weights reflect
 * how reliable the evidence is on documents in general: a printed page marker almost never lies, a differing
 * document number is strong, a title or a change of paper is suggestive, a shared tax id is weak (one supplier
 * sends many invoices).
 */
import type { PageFeatures } from "./types.js";

export interface BoundaryEvidence {
  score: number;
  /** Names of the evidence that fired, for debugging and the bench's error listing. */
  reasons: string[];
}

/** Slight lean towards "same document": a lone continuation page shows little, a new document usually shows a lot. */
const PRIOR = -0.5;

function same(a: string | null, b: string | null): boolean | null {
  if (a === null || b === null) return null;
  const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\d]/gu, "");
  const x = norm(a);
  const y = norm(b);
  if (x === "" || y === "") return null;
  return x === y;
}

/** Evidence for a boundary between page `a` and the next non-blank page `b`; `blankBetween` when blanks were skipped. */
export function boundaryEvidence(a: PageFeatures, b: PageFeatures, blankBetween: boolean): BoundaryEvidence {
  const reasons: string[] = [];
  let score = PRIOR;
  const add = (weight: number, reason: string): void => {
    score += weight;
    reasons.push(`${reason}${weight >= 0 ? "+" : ""}${weight}`);
  };

  // Page markers.
  const ma = a.marker;
  const mb = b.marker;
  if (mb && mb.page === 1) add(mb.labelled ? 6 : 4, "b:page1");
  if (mb && mb.page > 1) {
    if (ma && ma.page === mb.page - 1 && (ma.of === null || mb.of === null || ma.of === mb.of)) {
      add(-8, "markers:consecutive");
    } else {
      add(mb.labelled ? -4 : -2.5, "b:pageN");
    }
  }
  if (ma && ma.of !== null) {
    if (ma.page === ma.of) add(ma.labelled ? 4 : 3, "a:lastPage");
    else if (!(mb && mb.page === 1)) add(ma.labelled ? -4 : -3, "a:morePages");
  }
  if (a.continues) add(-3, "a:continues");

  // Identifiers.
  const number = same(a.number, b.number);
  if (number === true) add(-5, "number:same");
  // On a page that does not open like a first page (no title, no date near the top) a "document number" is often
  // some other id (article, order, GLN in a table header).
  const opens = b.title || b.topDate;
  if (number === false) add(opens ? 3.5 : 1.5, "number:differs");
  const tax = same(a.taxId, b.taxId);
  if (tax === true) add(-1, "taxId:same");
  if (tax === false) add(2.5, "taxId:differs");
  const iban = same(a.iban, b.iban);
  if (iban === true) add(-1, "iban:same");
  if (iban === false) add(2.5, "iban:differs");
  // Extraction finds "a supplier" on any page; on a page that does not open a document that is mostly noise.
  const supplier = same(a.supplier, b.supplier);
  if (supplier === true) add(-0.8, "supplier:same");
  if (supplier === false && b.title) add(0.8, "supplier:differs");

  // How b opens and a ends. A date alone near the top is common on continuation pages (order dates, delivery).
  if (b.title) add(1.5, "b:title");
  if (b.topDate && (b.title || b.numberAtTop)) add(0.7, "b:topDate");
  if (opens && b.numberAtTop && a.number === null) add(0.8, "b:numberOnly");
  if (!opens) add(-1.5, "b:noOpener");
  if (a.closing) add(0.6, "a:closing");
  // Two pages that each close with totals are two documents (receipts above all): a multi-page document prints
  // its totals once, on its last page.
  if (a.closing && b.closing) add(1.2, "bothClose");

  // Paper and capture.
  if (Math.abs(a.aspect - b.aspect) > 0.04 * Math.max(a.aspect, b.aspect)) add(3, "aspect:differs");
  else if (Math.abs(a.width - b.width) > 0.03 * Math.max(a.width, b.width)) add(1.5, "size:differs");
  if (a.source !== b.source) add(2, "source:differs");
  if (blankBetween) add(2.5, "blankBetween");
  return { score, reasons };
}

/** Confidence of a decision from its score: a logistic curve, 0.5 at the decision line. */
export function decisionConfidence(score: number): number {
  return 1 / (1 + Math.exp(-Math.abs(score)));
}
