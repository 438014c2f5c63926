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
import type { Field, ResultWarning } from "../domain/result.js";
import { compactText, createLocator } from "./locate.js";
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

export interface EInvoiceOutcome {
  fields: Field[];
  warnings: ResultWarning[];
}

export interface MergeOptions {
  locale?: string;
}

export function applyEInvoice(
  document: Document,
  attachments: readonly AttachedFile[],
  pageFields: readonly Field[],
  options: MergeOptions = {},
): EInvoiceOutcome {
  const reading = readEInvoice(attachments);
  if (reading.kind === "none") return { fields: [...pageFields], warnings: [] };
  if (reading.kind === "invalid") {
    const message = `The embedded invoice ${reading.file} was not used (${reading.reason}); the fields come from the pages.`;
    return { fields: [...pageFields], warnings: [{ code: "einvoice_invalid", page: null, message }] };
  }
  const stated = reading.invoice.fields;
  const locator = createLocator(document, options.locale);
  const warnings: ResultWarning[] = [];
  const fields = pageFields.map((page): Field => {
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
