/** Shapes of the HTTP contract (../shared/spec/interface.md), shared by every layer. */
import type { LineItem } from "./line-items.js";

export interface Point {
  x: number;
  y: number;
}

/** Location of a value in page ratios (0..1, origin top-left); tokenIds are Document word ids. */
export interface BoundingBox {
  pageNum: number;
  topLeft: Point;
  bottomRight: Point;
  tokenIds: number[];
}

export interface ChildReference {
  file_id: string;
  pages?: { from: number; to: number };
}

export interface Field {
  name: string;
  value: string | null;
  confidence: number;
  boundingBox: BoundingBox | null;
  /** Set when a person confirmed or corrected the value in a validation task. */
  reviewed?: boolean;
  /** "einvoice" when the value was read from the invoice XML embedded in the PDF (src/einvoice); absent otherwise. */
  source?: "einvoice";
  /** The words of the value as read on the page, before normalisation; shown by verbose results only. */
  raw?: string;
}

/**
 * `invoice.lineItems` / `receipt.lineItems` with a table (issue #18): `value` lists the rows, `confidence` is the
 * table's, `boundingBox` spans the table on its first page. Without a table the field is a plain Field whose value
 * is null, like any field not found.
 */
export interface LineItemsField extends Omit<Field, "value" | "raw"> {
  value: LineItem[];
}

/** A field as extraction, the e-invoice reader and review give it: one value, or the rows of a line-items table. */
export type ExtractedField = Field | LineItemsField;

export function isLineItemsField(field: { name: string; value: unknown }): field is LineItemsField {
  return Array.isArray(field.value) && field.name !== "components.children";
}

export interface ChildrenField {
  name: "components.children";
  value: ChildReference[];
}

export type FileStatus = "RECEIVED" | "IN PROGRESS" | "FINALISED" | "FAILED";

export interface UploadReceipt {
  fileId: string;
  uploadedAt: string;
  status: "RECEIVED";
}

/**
 * What a reader of the result should know about how it was made. Codes are stable; more are added as new cases
 * arise (so a client should show an unknown code's message rather than reject it).
 * - einvoice_mismatch: the page and the embedded invoice XML disagree on a field (`field` names it).
 * - einvoice_invalid: the PDF embeds an invoice XML that cannot be read; the fields come from the pages.
 * - page_unreadable: a page could not be read (damaged content, OCR failing on it) and was skipped: it has no words,
 *   the fields come from the others.
 * - text_layer_degraded: a step reading a page's text layer gave up on part of it and the page was read another way
 *   (characters without Unicode left out, words placed by estimated glyph widths, or the page OCR'd instead of an
 *   unreadable text layer); the message says which.
 * - ocr_fallback: the OCR engine failed on a page and a fallback engine read it instead (tesseract.js after the
 *   tesseract CLI): the words may be less accurate.
 * - line_items_sum_mismatch: the line items' amounts do not add up to the printed subtotal (or total, for
 *   tax-inclusive receipts); the message names both, `field` the line-items field. Rows are missing or misread.
 */
export type WarningCode =
  | "einvoice_mismatch"
  | "einvoice_invalid"
  | "page_unreadable"
  | "text_layer_degraded"
  | "ocr_fallback"
  | "line_items_sum_mismatch";

export interface ResultWarning {
  code: WarningCode;
  /** The page concerned, or null for the whole document. */
  page: number | null;
  message: string;
  /** The field concerned, when there is one. */
  field?: string;
}

export interface Results {
  timestamp?: string;
  fields: Array<ExtractedField | ChildrenField>;
  /** Present when there is something to say; absent (not empty) otherwise. */
  warnings?: ResultWarning[];
}
