/**
 * Typed failures of the SDK. Every error answer of the service becomes a DocsiftApiError carrying the service's
 * stable `error` code, so callers branch on `code`, never on message text.
 */
import type { ErrorCode } from "../domain/errors.js";

/**
 * The service's codes, plus the SDK's own: `network_error` (the service could not be reached) and
 * `invalid_response` (an answer that is not what the contract says). Open-ended: a newer server may send codes
 * this SDK does not know yet.
 */
export type ApiErrorCode = ErrorCode | "network_error" | "invalid_response" | (string & {});

export class DocsiftApiError extends Error {
  /** HTTP status; 0 when no answer arrived (network_error). */
  readonly status: number;
  readonly code: ApiErrorCode;
  /** The server's x-request-id, to quote when reporting a problem. */
  readonly requestId: string | undefined;

  constructor(
    status: number,
    code: ApiErrorCode,
    message: string,
    options: { requestId?: string | undefined; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "DocsiftApiError";
    this.status = status;
    this.code = code;
    this.requestId = options.requestId;
  }

  toJSON(): { error: string; message: string } {
    return { error: this.code, message: this.message };
  }
}

/** A wait (`extract`, `waitForResult`) reached the caller's deadline before the file was FINALISED or FAILED. */
export class DocsiftWaitTimeoutError extends Error {
  readonly fileId: string;
  /** The last status the service reported (RECEIVED or IN PROGRESS). */
  readonly lastStatus: string;

  constructor(fileId: string, lastStatus: string, waitedMs: number) {
    super(`File ${fileId} is still ${lastStatus} after ${waitedMs} ms; fetch its result later.`);
    this.name = "DocsiftWaitTimeoutError";
    this.fileId = fileId;
    this.lastStatus = lastStatus;
  }
}

/** The code for an error answer without a JSON body (a proxy's HTML page, an empty 502). */
export function codeForStatus(status: number): ApiErrorCode {
  const known: Record<number, ErrorCode> = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    409: "conflict",
    413: "file_too_large",
    415: "unsupported_type",
    422: "unusable_document",
    429: "rate_limited",
    503: "unavailable",
    504: "timeout",
  };
  return known[status] ?? (status >= 500 ? "unavailable" : "bad_request");
}

/** Builds the error of a non-2xx answer from its `{error, message}` body, or from the status alone. */
export async function errorFromResponse(res: Response): Promise<DocsiftApiError> {
  const requestId = res.headers.get("x-request-id") ?? undefined;
  const text = await res.text().catch(() => "");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (typeof body === "object" && body !== null) {
    const { error, message } = body as { error?: unknown; message?: unknown };
    if (typeof error === "string") {
      return new DocsiftApiError(res.status, error, typeof message === "string" ? message : error, { requestId });
    }
  }
  const excerpt = text.trim().slice(0, 200);
  return new DocsiftApiError(
    res.status,
    codeForStatus(res.status),
    `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}${excerpt ? `: ${excerpt}` : ""}`,
    { requestId },
  );
}
