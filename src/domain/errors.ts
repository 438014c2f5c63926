/**
 * Every failure a user can see carries a stable code and the HTTP status it maps to.
 * The codes are part of the contract: clients branch on them, so never rename one.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  empty_file: 400,
  unauthorized: 401,
  invalid_token: 401,
  invalid_client: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  file_too_large: 413,
  unsupported_type: 415,
  too_many_pages: 422,
  image_too_large: 422,
  encrypted_pdf: 422,
  corrupt_file: 422,
  unusable_document: 422,
  rate_limited: 429,
  internal: 500,
  ocr_failed: 500,
  unavailable: 503,
  shutting_down: 503,
  timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  error: ErrorCode;
  message: string;
}

export interface DocsiftErrorOptions {
  cause?: unknown;
  /** Seconds after which a retry may succeed (429, 503): sent as the Retry-After header. */
  retryAfterSeconds?: number;
}

export class DocsiftError extends Error {
  readonly code: ErrorCode;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, options?: DocsiftErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "DocsiftError";
    this.code = code;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toJSON(): ErrorBody {
    return { error: this.code, message: this.message };
  }
}

/** Turns anything thrown into the body a user sees; unknown failures never leak internals. */
export function toErrorBody(err: unknown): ErrorBody {
  if (err instanceof DocsiftError) return err.toJSON();
  return { error: "internal", message: "Unexpected internal error; the failure was logged." };
}
