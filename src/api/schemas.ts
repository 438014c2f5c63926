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
  409: "conflict: the task was already resolved (by another reviewer)",
  413: "file_too_large: over 20 MiB",
  415: "unsupported_type: not a PDF, PNG or JPG by content",
  422: "too_many_pages, encrypted_pdf, corrupt_file, image_too_large: well-formed but unusable",
  429: "rate_limited: too many requests from this client (or address, for tokens); see Retry-After",
  503: "shutting_down: the server is draining; unavailable: the processing queue is full (see Retry-After)",
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
  },
  required: ["name", "value"],
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
} as const;
