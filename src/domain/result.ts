/** Shapes of the HTTP contract (../shared/spec/interface.md), shared by every layer. */

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
 * - page_unreadable: a page could not be read (damaged content, OCR failing on it); the fields come from the others.
 */
export type WarningCode = "einvoice_mismatch" | "einvoice_invalid" | "page_unreadable";

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
  fields: Array<Field | ChildrenField>;
  /** Present when there is something to say; absent (not empty) otherwise. */
  warnings?: ResultWarning[];
}
