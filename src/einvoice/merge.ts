/**
 * Page fields + the embedded e-invoice -> the result's fields and warnings. Pure. Every field the XML states takes
 * the XML's value with confidence 1 and `source: "einvoice"`, boxed where the page shows it: the page reading's own
 * box when it read the same value, else wherever the value is printed. Fields the XML does not state keep the page
 * reading.
 *
 * A mismatch is a document whose visible content contradicts its XML, on the facts a payment turns on (totals,
 * dates, number, parties): the page reading found a different value and the XML's value is printed nowhere on the
 * page. When the XML's value is printed too, the page reading merely picked the wrong candidate: no warning.
 */
import type { FieldType } from "../catalog/catalog.js";
import { findField } from "../catalog/lookup.js";
import type { Document } from "../document/model.js";
import { LINE_ITEM_FIELDS, type LineItem } from "../domain/line-items.js";
import { type ExtractedField, isLineItemsField, type ResultWarning } from "../domain/result.js";
import { compactText, createLocator, type Locator, tableBox } from "./locate.js";
import type { EInvoice } from "./model.js";
import { type AttachedFile, readEInvoice } from "./read.js";

const CHECKED = new Set([
  "invoice.number",
  "invoice.date",
  "invoice.dueDate",
  "invoice.subtotal",
  "invoice.tax",
  "invoice.total",
  "invoice.amountDue",
  "supplier.name",
  "supplier.taxId",
  "customer.name",
]);

/** Whether two values of a type are the same fact (amounts regardless of sign: credits print either way). */
function sameValue(type: FieldType, a: string, b: string): boolean {
  if (type === "amount") return Math.abs(Math.abs(Number(a)) - Math.abs(Number(b))) < 0.005;
  if (type === "name" || type === "address" || type === "text") {
    // A page reading of a name often stops at a line or runs into the next: one holding the other agrees.
    const x = compactText(a);
    const y = compactText(b);
    return x === y || (Math.min(x.length, y.length) >= 4 && (x.includes(y) || y.includes(x)));
  }
  return compactText(a) === compactText(b);
}

/** Fields and their warnings: the page reading going in, the result coming out. */
export interface EInvoiceOutcome {
  fields: ExtractedField[];
  warnings: ResultWarning[];
}

export interface MergeOptions {
  locale?: string;
}

/**
 * The XML's lines as rows, their amounts as the XML states and the page prints them: a credit note lists the goods
 * it credits with positive amounts (its totals carry the sign, and document.type says credit_note), so rows read from
 * the XML and rows read from the page agree.
 */
function statedRows(invoice: EInvoice, locator: Locator): LineItem[] {
  const boxes = locator.locateLines(invoice.lines);
  return invoice.lines.map((line, i) => ({
    ...line,
    confidence: 1,
    boundingBoxes: boxes[i] ?? [],
  }));
}

function cents(amount: string | null): number {
  return amount === null ? 0 : Math.round(Math.abs(Number(amount)) * 100);
}

/**
 * An einvoice_mismatch when the page shows a table and a line's amount the XML states is printed nowhere on the
 * page: the page lists other lines. Sums and row counts alone are no evidence (a page reading that takes a total
 * line for a row, or merges two rows, still shows the XML's lines).
 */
function linesMismatch(page: ExtractedField, rows: readonly LineItem[], locator: Locator): ResultWarning | null {
  if (!isLineItemsField(page)) return null;
  const unprinted = rows.find(
    (r) =>
      r.amount !== null && !r.boundingBoxes.some((b) => b.cell === "amount") && !locator.locate("amount", r.amount),
  );
  if (!unprinted) return null;
  const sum = (list: readonly LineItem[]) => (list.reduce((s, r) => s + cents(r.amount), 0) / 100).toFixed(2);
  return {
    code: "einvoice_mismatch",
    page: page.boundingBox?.pageNum ?? null,
    field: page.name,
    message: `${page.name}: the page shows ${page.value.length} line(s) adding up to ${sum(page.value)}, the embedded invoice states ${rows.length} adding up to ${sum(rows)}, and its line ${JSON.stringify(unprinted.description)} of ${unprinted.amount} is printed nowhere; the result gives the embedded invoice's lines.`,
  };
}

export function applyEInvoice(
  document: Document,
  attachments: readonly AttachedFile[],
  pageReading: EInvoiceOutcome,
  options: MergeOptions = {},
): EInvoiceOutcome {
  const reading = readEInvoice(attachments);
  if (reading.kind === "none") return { fields: [...pageReading.fields], warnings: [...pageReading.warnings] };
  if (reading.kind === "invalid") {
    const message = `The embedded invoice ${reading.file} was not used (${reading.reason}); the fields come from the pages.`;
    return {
      fields: [...pageReading.fields],
      warnings: [...pageReading.warnings, { code: "einvoice_invalid", page: null, message }],
    };
  }
  const stated = reading.invoice.fields;
  const locator = createLocator(document, options.locale);
  const statesLines = reading.invoice.lines.length > 0;
  const superseded = (w: ResultWarning) =>
    statesLines && w.code === "line_items_sum_mismatch" && w.field === LINE_ITEM_FIELDS.invoice;
  const warnings: ResultWarning[] = pageReading.warnings.filter((w) => !superseded(w));
  const fields = pageReading.fields.map((page): ExtractedField => {
    if (page.name === LINE_ITEM_FIELDS.invoice && statesLines) {
      const rows = statedRows(reading.invoice, locator);
      const mismatch = linesMismatch(page, rows, locator);
      if (mismatch) warnings.push(mismatch);
      return { name: page.name, value: rows, confidence: 1, boundingBox: tableBox(rows), source: "einvoice" };
    }
    if (isLineItemsField(page)) return page;
    const value = stated.get(page.name);
    const type = findField(page.name)?.type;
    if (value === undefined || type === undefined) return page;
    const agrees = page.value !== null && sameValue(type, page.value, value);
    const boundingBox = agrees && page.boundingBox ? page.boundingBox : locator.locate(type, value);
    if (CHECKED.has(page.name) && page.value !== null && !agrees && boundingBox === null) {
      warnings.push({
        code: "einvoice_mismatch",
        page: page.boundingBox?.pageNum ?? null,
        field: page.name,
        message: `${page.name}: the page shows ${JSON.stringify(page.value)}, the embedded invoice states ${JSON.stringify(value)}; the result gives the embedded invoice's value.`,
      });
    }
    return { name: page.name, value, confidence: 1, boundingBox, source: "einvoice" };
  });
  return { fields, warnings };
}
