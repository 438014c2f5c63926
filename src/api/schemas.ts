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

export const fieldSchema = {
  type: "object",
  properties: {
    name: { type: "string", description: "Dotted `<group>.<name>`." },
    value: {
      description: "Normalised value as text, null when not found; for components.children a list of {file_id}.",
    },
    confidence: { type: "number" },
    boundingBox: {
      type: ["object", "null"],
      description: "Page ratios 0..1, origin top-left; null when value is null.",
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
    "pages), page_unreadable (`page` could not be read and has no words; fields come from the other pages). More " +
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
