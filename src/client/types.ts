/** Public shapes of the SDK: what the service answers and what the calls accept. */
import type { FieldSetDef, ProductDef } from "../catalog/catalog.js";
import type { LineItem } from "../domain/line-items.js";
import type { Results } from "../domain/result.js";

export type { LineItem, LineItemCellBox, LineItemCellName, LineItemCells } from "../domain/line-items.js";

export type {
  BoundingBox,
  ChildReference,
  ChildrenField,
  ExtractedField,
  Field,
  LineItemsField,
  Point,
  Results,
  UploadReceipt,
} from "../domain/result.js";

/** What to extract and how; exactly one of products, fieldSets or fieldSet (the service answers 400 otherwise). */
export interface UploadOptions {
  products?: readonly string[];
  fieldSets?: readonly string[];
  fieldSet?: string;
  /** BCP 47 tag (de-DE, en-US) deciding ambiguous dates and number formats. */
  locale?: string;
  /** Tags to group documents (each up to 256 characters); `GET /files?tag=` finds them. */
  tags?: string | readonly string[];
  /** Your reference to another document, stored with the file and shown by `file()`. */
  parentDocId?: string;
  workflowId?: "prediction" | "split" | "validate" | (string & {});
  /** The workflow's options: an object (sent as its JSON text) or JSON text. */
  workflowOptions?: Record<string, unknown> | string;
  childWorkflowId?: string;
  childWorkflowOptions?: Record<string, unknown> | string;
  /** Name the service records; default: the path's base name, a stream's path, or "document". */
  fileName?: string;
  /**
   * Sent as the Idempotency-Key header (1-255 visible ASCII characters); default: a fresh random key per call. Every
   * retry of the call sends the same key, so a retry after a lost answer never creates a second file. Pass your own
   * to make a repeated call (e.g. after a crash) find the first upload; the service remembers keys for 24 hours.
   */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface ErrorInfo {
  error: string;
  message: string;
}

export type ResultResponse =
  | { fileId: string; status: "FINALISED"; results: Results }
  | { fileId: string; status: "FAILED"; error: ErrorInfo }
  | { fileId: string; status: "RECEIVED" | "IN PROGRESS" };

/** A result that will not change any more. */
export type FinalResult = Extract<ResultResponse, { status: "FINALISED" | "FAILED" }>;

export interface ResultOptions {
  /** Longest wait on the server, ms; 0 answers at once. Default: the server's own bound. */
  timeout?: number;
  /** Adds per-field detail: `raw`, the value's words as read on the page. */
  verbose?: boolean;
  signal?: AbortSignal;
}

export interface WaitOptions {
  /** Give up (DocsiftWaitTimeoutError) after this many ms in total; default: wait as long as it takes. */
  deadlineMs?: number;
  signal?: AbortSignal;
}

export type ExtractOptions = UploadOptions & Pick<WaitOptions, "deadlineMs">;

export interface Catalog {
  products: ProductDef[];
  fieldSets: FieldSetDef[];
}

export type { FieldDef, FieldSetDef, FieldType, ProductDef } from "../catalog/catalog.js";

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
}

/** One broken condition of a validation task (validate workflow, beta). */
export interface TaskBreach {
  field: string;
  condition: Record<string, unknown> & { type: string };
  /** The rows when the field is a line-items field. */
  value: string | LineItem[] | null;
  confidence: number | null;
}

/** A validation task (validate workflow, beta): the service may add properties. */
export interface ValidationTask {
  id: string;
  fileId: string;
  fieldSet: string;
  status: string;
  priority: number;
  breaches: TaskBreach[];
  [property: string]: unknown;
}

export interface TaskPage {
  tasks: ValidationTask[];
  next: string | null;
}

export interface ListTasksOptions {
  status?: string;
  /** The `next` cursor of the previous page. */
  cursor?: string;
  limit?: number;
  signal?: AbortSignal;
}

export interface FieldCorrection {
  name: string;
  /** Line-items fields take their whole array of rows (cells only are read; [] or null: no line items). */
  value: string | LineItem[] | null;
}

/** A file as `GET /files/:fileId` describes it. */
export interface FileInfo {
  fileId: string;
  fileName: string | null;
  status: "RECEIVED" | "IN PROGRESS" | "FINALISED" | "FAILED";
  uploadedAt: string;
  /** When processing ended (FINALISED or FAILED); null before. */
  finalisedAt: string | null;
  pages: number;
  tags: string[];
  workflowId: string;
  /** The split parent of a sub-document. */
  parentId: string | null;
  parentDocId: string | null;
  /** A split parent's sub-documents, in order. */
  children: string[];
}

export interface FilePage {
  files: FileInfo[];
  next: string | null;
}

export interface ListFilesOptions {
  status?: FileInfo["status"];
  tag?: string;
  /** Uploaded at or after (ISO 8601 text or a Date). */
  since?: string | Date;
  limit?: number;
  /** The `next` cursor of the previous page. */
  cursor?: string;
  signal?: AbortSignal;
}

/** The uploaded bytes of a file, as `GET /files/:fileId/original` answers them. */
export interface OriginalFile {
  bytes: Uint8Array;
  contentType: string;
  /** The name from Content-Disposition (the uploaded name, or `<fileId>.<ext>`). */
  fileName: string;
}
