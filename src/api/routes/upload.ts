/**
 * POST /fileupload/ (multipart) and POST /fileupload/json (base64). Limits hold while the body streams: the file part
 * is cut at 20 MiB (413, nothing stored) and fields may come in any order, before or after the file.
 */

import type { Readable } from "node:stream";
import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from "fastify";
import type { Principal } from "../../auth/tokens.js";
import { DocsiftError } from "../../domain/errors.js";
import { LIMITS } from "../../domain/limits.js";
import { concatInSlices } from "../../workflows/copy-in-slices.js";
import type { Workflows } from "../../workflows/facade.js";
import type { UploadRequest } from "../../workflows/receive.js";
import { principalOf } from "../auth-hook.js";
import type { QueueAdmission } from "../queue-bound.js";
import { errorResponses, receiptSchema, uploadHeadersSchema } from "../schemas.js";
import {
  cleanFileName,
  fieldTooLarge,
  MAX_FORM_FIELD_BYTES,
  parseUploadParams,
  type RawParams,
} from "../upload-params.js";

const FILE_FIELD = "fileToUpload";
/** base64 grows 4/3; the slack holds both options objects at their bound and the other parameters. */
export const JSON_BODY_LIMIT = Math.ceil((LIMITS.maxBytes * 4) / 3) + 2 * MAX_FORM_FIELD_BYTES + 256 * 1024;

const PARAMETERS_DOC =
  "Parameters: exactly one of `products` (list), `fieldSets` (list) or `fieldSet` (one id); lists accept a JSON " +
  'array text (`["invoice","payment"]`), a comma list (`invoice,payment`) or repeated fields. `locale`: BCP 47 tag ' +
  "(e.g. de-DE) guiding date and amount parsing. `tags`: a tag (free text up to 256 characters), repeated or as a JSON array text for several. `parentDocId`: your reference to another document, stored and shown by GET /files/{fileId}. `workflowId`: omit (or " +
  "`prediction`) for extraction; `split` (with `childWorkflowId=prediction`, optional `childWorkflowOptions`) cuts the file into sub-documents, each its own file; `validate` (with `workflowOptions` conditions) sends breaches to a review task (see /validate/tasks). `workflowOptions`: JSON object text. " +
  "Each parameter's value up to 1 MiB (413 naming it past that). File: PDF, PNG or JPG (judged by content), up to " +
  "20 MiB and 16 pages. Scope: `fileupload:all`.";

const uploadErrors = errorResponses(400, 401, 403, 409, 413, 415, 422, 429, 503);

/** The Idempotency-Key header, its form already checked by the route schema (uploadHeadersSchema). */
function idempotencyKeyOf(request: FastifyRequest): string | null {
  const value = request.headers["idempotency-key"];
  return typeof value === "string" ? value : null;
}

/**
 * Past a limit, reading stops at once: the request is unpiped and paused (a 2 GB upload is neither buffered nor
 * drained through the parser), the answer is 413 and the connection closes.
 */
function stopReading(request: FastifyRequest): void {
  request.raw.unpipe();
  request.raw.pause();
}

/** The file part, up to the limit. */
function readFilePart(request: FastifyRequest, file: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    file.on("data", (chunk: Buffer) => chunks.push(chunk));
    file.once("limit", () => {
      stopReading(request);
      file.destroy();
      reject(
        new DocsiftError("file_too_large", `The file is larger than the ${LIMITS.maxBytes / 1024 / 1024} MiB limit.`),
      );
    });
    // Gathered a slice at a time: a 20 MiB concatenation at once would hold the event loop.
    file.once("end", () => resolve(concatInSlices(chunks)));
    file.once("error", reject);
    // The parser destroys the part, without an error, when the client goes away mid-file (after "end": a no-op).
    file.once("close", () => reject(new Error("The file part closed before its end.")));
  });
}

const listDoc = "A JSON array text, a comma list, or the field repeated.";

const MULTIPART_FORM_DOC = {
  type: "object",
  properties: {
    fileToUpload: { type: "string", format: "binary", description: "PDF, PNG or JPG; up to 20 MiB and 16 pages." },
    products: { type: "string", description: `Product ids. ${listDoc}` },
    fieldSets: { type: "string", description: `Field set ids. ${listDoc}` },
    fieldSet: { type: "string", description: "One field set id." },
    locale: { type: "string", description: "BCP 47 tag, e.g. de-DE." },
    tags: {
      type: "string",
      description: "A tag (up to 256 characters) or a JSON array text of tags; repeat the field for several.",
    },
    parentDocId: { type: "string", maxLength: 255, description: "Your reference to another document, kept as given." },
    workflowId: { type: "string", enum: ["prediction", "split", "validate"] },
    workflowOptions: { type: "string", description: "JSON object text." },
    childWorkflowId: { type: "string" },
    childWorkflowOptions: { type: "string", description: "JSON object text." },
  },
  required: ["fileToUpload"],
} as const;

/** The multipart parser's own message when the Content-Type names no boundary (it fails before the first part). */
const NO_BOUNDARY = "Multipart: Boundary not found";

async function readMultipart(
  request: FastifyRequest,
): Promise<{ params: RawParams; bytes?: Buffer; fileName?: string }> {
  const params: RawParams = {};
  let bytes: Buffer | undefined;
  let fileName: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === "file") {
        if (part.fieldname !== FILE_FIELD) {
          throw new DocsiftError(
            "bad_request",
            `Unexpected file field "${part.fieldname}"; send the file as ${FILE_FIELD}.`,
          );
        }
        bytes = await readFilePart(request, part.file);
        fileName = part.filename;
      } else {
        // The parser cuts a value at MAX_FORM_FIELD_BYTES and says so: refused, never used cut.
        if (part.valueTruncated) {
          stopReading(request);
          throw fieldTooLarge(part.fieldname);
        }
        const value = typeof part.value === "string" ? part.value : String(part.value);
        const values = params[part.fieldname] ?? [];
        values.push(value);
        params[part.fieldname] = values;
      }
    }
  } catch (err) {
    if (err instanceof Error && err.message === NO_BOUNDARY) {
      throw new DocsiftError(
        "bad_request",
        "The Content-Type multipart/form-data has no boundary parameter (multipart/form-data; boundary=...).",
      );
    }
    throw err;
  }
  return { params, bytes, fileName };
}

/**
 * A JSON body's values as the same raw strings a form carries, so one validator serves both uploads; each within the
 * form's bound.
 */
function jsonToRaw(body: Record<string, unknown>): RawParams {
  const params: RawParams = {};
  for (const [name, value] of Object.entries(body)) {
    if (name === FILE_FIELD || name === "fileName" || value === null || value === undefined) continue;
    if (Array.isArray(value)) {
      if (!value.every((v) => typeof v === "string"))
        throw new DocsiftError("bad_request", `${name} must list strings.`);
      params[name] = value;
    } else if (typeof value === "object") params[name] = [JSON.stringify(value)];
    else params[name] = [String(value)];
    if (params[name]?.some((v) => Buffer.byteLength(v) > MAX_FORM_FIELD_BYTES)) throw fieldTooLarge(name);
  }
  return params;
}

/**
 * Before the body schema, whose type coercion would turn a number or a one-string array into a string (and a
 * number's digits happen to be valid base64, answered 415 as "not a document"): the file must be sent as a string.
 */
async function requireFileString(request: FastifyRequest<{ Body: Record<string, unknown> }>): Promise<void> {
  // A body of JSON null reaches here as null; the schema refuses it next.
  const file = request.body?.[FILE_FIELD];
  if (file !== undefined && typeof file !== "string") {
    const kind = file === null ? "null" : Array.isArray(file) ? "an array" : `a ${typeof file}`;
    throw new DocsiftError("bad_request", `${FILE_FIELD} must be a string of base64, not ${kind}.`);
  }
}

// String first: fastify's Ajv coerces a scalar into an array when an array branch comes first.
const stringOrList = { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] };
const objectOrText = { anyOf: [{ type: "object" }, { type: "string" }] };

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

function decodeBase64(text: string): Buffer {
  // Accept a data: URL too; whitespace (line-wrapped base64) is ignored.
  const payload = text.replace(/^data:[^,]*;base64,/, "").replace(/\s+/g, "");
  if (!BASE64.test(payload)) throw new DocsiftError("bad_request", `${FILE_FIELD} is not valid base64.`);
  return Buffer.from(payload, payload.includes("-") || payload.includes("_") ? "base64url" : "base64");
}

export interface UploadRouteDeps {
  workflows: Workflows;
  /** The queue bound: refuses uploads while the queue is full. */
  admission: QueueAdmission;
}

export async function uploadRoutes(app: FastifyInstance, deps: UploadRouteDeps): Promise<void> {
  const { workflows, admission } = deps;
  /** Stores and queues the upload; from then on it counts in the queue's backlog, not as admitted. */
  const receive = async (
    request: FastifyRequest,
    reply: FastifyReply,
    who: Principal,
    upload: Omit<UploadRequest, "idempotencyKey">,
  ) => {
    try {
      const { receipt, replayed } = await workflows.receive(who, {
        ...upload,
        idempotencyKey: idempotencyKeyOf(request),
      });
      if (replayed) reply.header("idempotent-replayed", "true");
      return receipt;
    } finally {
      admission.settle(request);
    }
  };

  await app.register(multipart, {
    limits: { fileSize: LIMITS.maxBytes, files: 1, fields: 32, fieldSize: MAX_FORM_FIELD_BYTES, parts: 40 },
  });

  const multipartRoute = {
    // After auth and the rate limit: refused before the body streams.
    onRequest: admission.admit,
    config: {
      auth: "fileupload:all" as const,
      rateLimit: "uploads" as const,
      // The form is parsed by the handler while it streams, so it cannot be a validated body schema: it is added
      // to the OpenAPI document only.
      swaggerTransform: ({ schema, url }: { schema: FastifySchema; url: string }) => ({
        schema: { ...schema, body: MULTIPART_FORM_DOC },
        url,
      }),
    },
    schema: {
      tags: ["files"],
      summary: "Upload a document (multipart/form-data)",
      description: `Multipart form with the file as \`fileToUpload\`. ${PARAMETERS_DOC}`,
      consumes: ["multipart/form-data"],
      headers: uploadHeadersSchema,
      security: [{ oauth2: ["fileupload:all"] }],
      response: { 200: receiptSchema, ...uploadErrors },
    },
  };
  const handleMultipart = async (request: FastifyRequest, reply: FastifyReply) => {
    const who = principalOf(request);
    if (!request.isMultipart()) {
      throw new DocsiftError("unsupported_type", "Send multipart/form-data (or JSON to /fileupload/json).");
    }
    const { params, bytes, fileName } = await readMultipart(request);
    const parsed = parseUploadParams(params);
    if (!bytes) throw new DocsiftError("bad_request", `The form has no file: send it as ${FILE_FIELD}.`);
    return receive(request, reply, who, { ...parsed, bytes, fileName: cleanFileName(fileName) });
  };
  app.post("/fileupload/", multipartRoute, handleMultipart);
  app.post("/fileupload", { ...multipartRoute, schema: { ...multipartRoute.schema, hide: true } }, handleMultipart);

  app.post<{ Body: Record<string, unknown> }>(
    "/fileupload/json",
    {
      bodyLimit: JSON_BODY_LIMIT,
      onRequest: admission.admit,
      preValidation: requireFileString,
      config: { auth: "fileupload:all", rateLimit: "uploads" },
      schema: {
        tags: ["files"],
        summary: "Upload a document as base64 in JSON",
        description: `JSON body: \`fileToUpload\` (base64 or a data: URL), optional \`fileName\`, and the same parameters as JSON values (lists as arrays or strings, \`workflowOptions\` as an object or its JSON text). ${PARAMETERS_DOC}`,
        security: [{ oauth2: ["fileupload:all"] }],
        headers: uploadHeadersSchema,
        body: {
          type: "object",
          properties: {
            fileToUpload: { type: "string", description: "The document, base64-encoded." },
            fileName: { type: "string", maxLength: 1024 },
            products: stringOrList,
            fieldSets: stringOrList,
            fieldSet: { type: "string" },
            locale: { type: "string" },
            tags: stringOrList,
            parentDocId: { type: "string", maxLength: 255 },
            workflowId: { type: "string" },
            workflowOptions: objectOrText,
            childWorkflowId: { type: "string" },
            childWorkflowOptions: objectOrText,
          },
          required: ["fileToUpload"],
        },
        response: { 200: receiptSchema, ...uploadErrors },
      },
    },
    async (request, reply) => {
      const who = principalOf(request);
      const body = request.body;
      const parsed = parseUploadParams(jsonToRaw(body));
      const bytes = decodeBase64(String(body[FILE_FIELD]));
      if (bytes.byteLength > LIMITS.maxBytes) {
        throw new DocsiftError(
          "file_too_large",
          `The file is larger than the ${LIMITS.maxBytes / 1024 / 1024} MiB limit.`,
        );
      }
      const fileName = typeof body.fileName === "string" ? body.fileName : undefined;
      return receive(request, reply, who, { ...parsed, bytes, fileName: cleanFileName(fileName) });
    },
  );
}
