/** JSON schemas shared by routes: they validate, serialise fast, and become the OpenAPI document. */
import { ERROR_STATUS } from "../domain/errors.js";

const ERROR_CODES = Object.keys(ERROR_STATUS);

export const errorSchema = {
  type: "object",
  description: "Every failure: a stable `error` code clients can branch on and a `message` saying what to do.",
  properties: {
    error: { type: "string", enum: ERROR_CODES },
    message: { type: "string" },
  },
  required: ["error", "message"],
} as const;

const STATUS_TEXT: Record<number, string> = {
  400: "bad_request, empty_file: the request or form is wrong",
  401: "unauthorized (no token), invalid_token (expired, bad signature, revoked), invalid_client (token endpoint)",
  403: "forbidden: the token lacks the route's scope",
  404: "not_found: unknown id, or a file of another tenant",
  409:
    "conflict: the task was already resolved (by another reviewer) or is not a draft (submit), or the " +
    "Idempotency-Key was used for a different upload",
  413: "file_too_large: over 20 MiB",
  415: "unsupported_type: not a PDF, PNG or JPG by content",
  422: "too_many_pages, encrypted_pdf, corrupt_file, image_too_large: well-formed but unusable",
  429: "rate_limited: too many requests from this client (or address, for tokens); see Retry-After",
  503:
    "shutting_down: the server is draining; unavailable: the processing queue is full, or storage is briefly " +
    "unavailable (disk full, database busy or restarting). Both send Retry-After.",
};

export function errorResponses(...statuses: number[]): Record<number, object> {
  return Object.fromEntries(
    statuses.map((status) => [status, { ...errorSchema, description: STATUS_TEXT[status] ?? "error" }]),
  );
}

const point = {
  type: "object",
  properties: { x: { type: "number" }, y: { type: "number" } },
  required: ["x", "y"],
} as const;

const nullableText = { type: ["string", "null"] } as const;

/** One cell's location in a line-items row: a boundingBox plus the cell's name. */
const lineItemCellBoxSchema = {
  type: "object",
  properties: {
    cell: { type: "string", description: "The cell: description, quantity, unit, unitPrice, amount, taxRate, ..." },
    pageNum: { type: "integer" },
    topLeft: point,
    bottomRight: point,
    tokenIds: { type: "array", items: { type: "integer" } },
  },
  required: ["cell", "pageNum", "topLeft", "bottomRight", "tokenIds"],
} as const;

/** One row of `invoice.lineItems` / `receipt.lineItems`. */
export const lineItemSchema = {
  type: "object",
  description:
    "A line item: cells as normalised text or null (quantity a plain decimal, unitPrice and amount two decimals, " +
    "negative on credits; taxRate a percentage with two decimals; date ISO when it reads as one), the row's " +
    "confidence and one box per cell the page shows (empty when none is located).",
  properties: {
    description: nullableText,
    quantity: nullableText,
    unit: nullableText,
    unitPrice: nullableText,
    amount: nullableText,
    taxRate: nullableText,
    productCode: nullableText,
    date: nullableText,
    confidence: { type: "number" },
    boundingBoxes: { type: "array", items: lineItemCellBoxSchema },
  },
  required: ["description", "quantity", "unit", "unitPrice", "amount", "taxRate", "productCode", "date"],
} as const;

const childReferenceSchema = {
  type: "object",
  properties: {
    file_id: { type: "string" },
    pages: { type: "object", properties: { from: { type: "integer" }, to: { type: "integer" } } },
  },
  required: ["file_id"],
} as const;

/** A field's value: text, null, line-item rows, or (components.children) child references. */
export const fieldValueSchema = {
  description:
    "Normalised value as text, null when not found; for invoice.lineItems and receipt.lineItems an array of " +
    "line-item rows; for components.children a list of {file_id}.",
  anyOf: [
    { type: "string" },
    { type: "null" },
    { type: "array", items: lineItemSchema },
    { type: "array", items: childReferenceSchema },
  ],
} as const;

export const fieldSchema = {
  type: "object",
  properties: {
    name: { type: "string", description: "Dotted `<group>.<name>`." },
    value: fieldValueSchema,
    confidence: { type: "number" },
    boundingBox: {
      type: ["object", "null"],
      description:
        "Page ratios 0..1, origin top-left; null when value is null. For line items: the table on its first page.",
      properties: {
        pageNum: { type: "integer" },
        topLeft: point,
        bottomRight: point,
        tokenIds: { type: "array", items: { type: "integer" } },
      },
    },
    reviewed: { type: "boolean" },
    source: {
      type: "string",
      enum: ["einvoice"],
      description: "einvoice: read from the invoice XML the PDF embeds (confidence 1); absent for page readings.",
    },
  },
  required: ["name", "value"],
} as const;

export const warningSchema = {
  type: "object",
  description:
    "Something a reader of the result should know. Codes: einvoice_mismatch (the page and the embedded invoice XML " +
    "disagree on `field`), einvoice_invalid (the embedded invoice XML could not be read; fields come from the " +
    "pages), page_unreadable (`page` could not be read and was skipped: no words; fields come from the other " +
    "pages), text_layer_degraded (a step reading `page`'s text layer gave up on part of it: characters without " +
    "Unicode left out, glyph widths estimated, or the page OCR'd instead; the message says which), ocr_fallback " +
    "(OCR failed on `page` and a fallback engine read it, perhaps less accurately), " +
    "line_items_sum_mismatch (the line items of `field` do not add up to the printed subtotal or total; the " +
    "message names both). More " +
    "codes may be added: show an unknown code's message.",
  properties: {
    code: { type: "string" },
    page: { type: ["integer", "null"] },
    message: { type: "string" },
    field: { type: "string" },
  },
  required: ["code", "page", "message"],
} as const;

export const fileIdParams = {
  type: "object",
  properties: { fileId: { type: "string", maxLength: 64, description: "The fileId of an upload receipt." } },
  required: ["fileId"],
} as const;

export const receiptSchema = {
  type: "object",
  description: "Sent only once the file and its row are durably stored and its job is queued.",
  properties: {
    fileId: { type: "string", format: "uuid" },
    uploadedAt: { type: "string", description: "ISO 8601 UTC with milliseconds." },
    status: { type: "string", enum: ["RECEIVED"] },
  },
  required: ["fileId", "uploadedAt", "status"],
  // Response headers, for the OpenAPI document (serialisation ignores them).
  headers: {
    "Idempotent-Replayed": {
      type: "string",
      enum: ["true"],
      description: "Present when the receipt is that of an earlier upload with the same Idempotency-Key.",
    },
  },
} as const;

/** The header name as the OpenAPI document shows it; Node hands request headers over in lower case. */
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

/** Request headers of the upload routes: validated here, and documented as header parameters. */
export const uploadHeadersSchema = {
  type: "object",
  properties: {
    [IDEMPOTENCY_KEY_HEADER]: {
      type: "string",
      minLength: 1,
      maxLength: 255,
      pattern: "^[!-~]+$",
      description:
        "Optional, 1-255 visible ASCII characters, unique per upload. Sent again by the same client with the same " +
        "file and parameters within 24 hours, the request creates nothing new: the answer is the original receipt " +
        "(same fileId and uploadedAt, status RECEIVED) with `Idempotent-Replayed: true`. The same key with a " +
        "different file or parameters is 409 conflict. Keys are scoped per client.",
    },
  },
} as const;
