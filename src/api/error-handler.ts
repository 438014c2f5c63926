/**
 * One mapping from anything thrown to `{error, message}` with the design's status codes. Fastify's own errors
 * (validation, body limits, content types, multipart limits) get stable codes too, transient storage failures become
 * 503 `unavailable` with Retry-After; 5xx never carry internals.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { DocsiftError, ERROR_STATUS, type ErrorBody, type ErrorCode } from "../domain/errors.js";
import { LIMITS } from "../domain/limits.js";
import { storageUnavailable } from "../workflows/facade.js";

const MAX_MB = LIMITS.maxBytes / 1024 / 1024;

function fromFastify(err: FastifyError): DocsiftError | undefined {
  switch (err.code) {
    case "FST_REQ_FILE_TOO_LARGE":
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new DocsiftError("file_too_large", `The upload is larger than the ${MAX_MB} MiB limit.`);
    case "FST_FILES_LIMIT":
      return new DocsiftError("bad_request", "Send exactly one file, as fileToUpload.");
    case "FST_PARTS_LIMIT":
    case "FST_FIELDS_LIMIT":
      return new DocsiftError("bad_request", "The form has too many fields.");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
    case "FST_INVALID_MULTIPART_CONTENT_TYPE":
      return new DocsiftError(
        "unsupported_type",
        "Unsupported Content-Type: send multipart/form-data to /fileupload/ or application/json to /fileupload/json.",
      );
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new DocsiftError("bad_request", "The body is not valid JSON.");
  }
  if (err.validation) return new DocsiftError("bad_request", `Invalid request: ${err.message}.`);
  return undefined;
}

function codeForStatus(status: number): ErrorCode {
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 413) return "file_too_large";
  if (status === 415) return "unsupported_type";
  if (status === 429) return "rate_limited";
  if (status === 503) return "unavailable";
  return status < 500 ? "bad_request" : "internal";
}

export function toDocsiftError(err: unknown): DocsiftError | undefined {
  if (err instanceof DocsiftError) return err;
  // Disk full, SQLite busy, PostgreSQL restarting: 503 with Retry-After, whichever route met it.
  const transient = storageUnavailable(err);
  if (transient) return transient;
  const fastifyErr = err as FastifyError;
  if (typeof fastifyErr?.code === "string") {
    const mapped = fromFastify(fastifyErr);
    if (mapped) return mapped;
  }
  const status = typeof fastifyErr?.statusCode === "number" ? fastifyErr.statusCode : 500;
  if (status >= 400 && status < 500) return new DocsiftError(codeForStatus(status), fastifyErr.message);
  return undefined;
}

export function sendError(reply: FastifyReply, body: ErrorBody): FastifyReply {
  const status = ERROR_STATUS[body.error];
  if (body.error === "unauthorized" || body.error === "invalid_token") {
    reply.header("www-authenticate", `Bearer realm="docsift", error="invalid_token"`);
  }
  return reply.status(status).type("application/json").send(body);
}

/**
 * The client closed the connection before its request was read whole (a cancelled upload). Whatever that caused
 * downstream (ECONNRESET, a multipart part cut short, a form without its file) is the client's doing, neither a
 * storage outage nor a bug, and nobody is left to read the answer.
 */
function abortedByClient(request: FastifyRequest): boolean {
  return request.raw.readableAborted;
}

export function errorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (abortedByClient(request)) {
    request.log.info({ reason: err.message }, "request aborted by client");
    return sendError(reply, { error: "bad_request", message: "The request was aborted by the client." });
  }
  const known = toDocsiftError(err);
  if (!known) {
    request.log.error({ err }, "unhandled error");
    return sendError(reply, { error: "internal", message: "Unexpected internal error; the failure was logged." });
  }
  if (known.code === "file_too_large") {
    // The client may still be streaming a huge body: close the connection rather than read the rest.
    reply.header("connection", "close");
  }
  if (known.retryAfterSeconds !== undefined) reply.header("retry-after", String(Math.ceil(known.retryAfterSeconds)));
  // A transient outage is expected operation, not a bug: a warning, with the underlying error for the operator.
  if (known.code === "unavailable") request.log.warn({ err: known.cause ?? err }, known.message);
  else if (known.status >= 500) request.log.error({ err }, known.message);
  return sendError(reply, known.toJSON());
}
