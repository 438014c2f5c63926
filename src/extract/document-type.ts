/**
 * document.type from title words in many languages, weighted by prominence (larger text, higher on the first page),
 * plus the shape of a till receipt (tall narrow page, cash/change lines) and of a credit (a negative total).
 */
import { LABELS, type LabelRole } from "./labels.js";
import type { Layout } from "./layout.js";
import { foldForMatching } from "./text.js";
import { type DocumentKind, isDocumentKind, titlesFor } from "./vocabulary/titles.js";

/** Folded title -> the types it names. */
const TITLE_KEYS: ReadonlyMap<string, readonly DocumentKind[]> = (() => {
  const map = new Map<string, DocumentKind[]>();
  for (const { text, kind } of titlesFor("type")) {
    if (!isDocumentKind(kind)) continue;
    const key = foldForMatching(text);
    map.set(key, [...(map.get(key) ?? []), kind]);
  }
  return map;
})();

/** Label roles whose presence says "till receipt" (payment lines) or "invoice" (terms, parties, bank details). */
const RECEIPT_ROLES: readonly LabelRole[] = ["cash", "change", "rounding", "receiptNumber", "time"];
const INVOICE_ROLES: readonly LabelRole[] = [
  "invoiceNumber",
  "dueDate",
  "customer",
  "iban",
  "bic",
  "purchaseOrder",
  "customerNumber",
];

const RECEIPT_CHATTER =
  /\b(thank you|thanks|come again|see you|danke|merci|gracias|bedankt|terima kasih|have a nice day)\b/i;

/** Roles of the labels that start the segments of the document (each role counted once). */
function labelRolesPresent(layout: Layout): Set<LabelRole> {
  const roles = new Set<LabelRole>();
  for (const seg of layout.segments) {
    for (let end = 1; end <= Math.min(seg.folded.length, 4); end++) {
      for (const entry of LABELS.get(seg.folded.slice(0, end).join("")) ?? []) {
        if (entry.weight >= 0.8) roles.add(entry.role);
      }
    }
  }
  return roles;
}

export interface TypeGuess {
  value: DocumentKind;
  /** Margin of the winning type's score over the runner-up, on the documentType calibration scale. */
  score: number;
  wordIds: number[];
}

export function guessDocumentType(layout: Layout, negativeTotal: boolean): TypeGuess {
  const scores: Record<DocumentKind, number> = { invoice: 0, credit_note: 0, receipt: 0, statement: 0, other: 0.3 };
  const where: Partial<Record<DocumentKind, { weight: number; wordIds: number[] }>> = {};
  const firstPage = layout.pages[0];
  const median = firstPage?.medianHeight || 1;
  for (const seg of firstPage?.segments ?? []) {
    const key = seg.folded.join("");
    // The longest title at each start, and none inside it: "Facture d'avoir" names a credit note, not an invoice too.
    let covered = 0;
    for (let start = 0; start < Math.min(seg.words.length, 3); start++) {
      if (start < covered) continue;
      let end = Math.min(seg.words.length, start + 4);
      while (end > start && !TITLE_KEYS.has(seg.folded.slice(start, end).join(""))) end--;
      if (end === start) continue;
      covered = end;
      const phrase = seg.folded.slice(start, end).join("");
      for (const type of TITLE_KEYS.get(phrase) ?? []) {
        // A title stands alone or starts its line; a word inside a sentence counts much less.
        const alone = phrase === key || start === 0 ? 1 : 0.3;
        const prominence = Math.min(seg.height / median, 2.5) * (1.2 - Math.min(seg.box.y0, 1));
        const weight = alone * prominence;
        scores[type] += weight;
        const seen = where[type];
        if (!seen || weight > seen.weight)
          where[type] = { weight, wordIds: seg.words.slice(start, end).map((w) => w.id) };
      }
    }
  }
  const roles = labelRolesPresent(layout);
  const receiptCues = RECEIPT_ROLES.filter((r) => roles.has(r)).length;
  const invoiceCues = INVOICE_ROLES.filter((r) => roles.has(r)).length;
  const chatter = layout.segments.some((seg) => RECEIPT_CHATTER.test(seg.text));
  const narrow = (firstPage?.aspect ?? 1) < 0.55;
  scores.receipt += 0.5 * receiptCues + (chatter ? 0.4 : 0) + (narrow ? 1.2 : 0);
  scores.invoice += 0.35 * invoiceCues;
  if (negativeTotal) scores.credit_note += 1.2;
  // Small-shop receipts often say "tax invoice": with payment lines or on a till-roll page it is still a receipt.
  if (narrow || receiptCues >= 2) scores.invoice *= 0.5;
  // A credit note is an invoice-like document first: its title or a negative total decides.
  if (scores.credit_note > 0) scores.credit_note += 0.35 * invoiceCues;
  const ranked = (Object.entries(scores) as Array<[DocumentKind, number]>).sort((a, b) => b[1] - a[1]);
  const [first, second] = ranked;
  const value = first?.[0] ?? "other";
  return { value, score: (first?.[1] ?? 0) - (second?.[1] ?? 0), wordIds: where[value]?.wordIds ?? [] };
}
