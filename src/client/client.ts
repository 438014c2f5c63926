/**
 * DocsiftClient: a typed client for every endpoint of the docsift HTTP API. No dependency beyond Node 20's fetch,
 * FormData and Blob. Tokens are fetched lazily and renewed before they expire; transient failures are retried.
 */
import { randomUUID } from "node:crypto";
import { DocsiftApiError, DocsiftWaitTimeoutError } from "./errors.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy, sleep } from "./retry.js";
import { TokenSource } from "./token.js";
import { Transport } from "./transport.js";
import type {
  Catalog,
  ExtractOptions,
  FieldCorrection,
  FileInfo,
  FilePage,
  FinalResult,
  ListFilesOptions,
  ListTasksOptions,
  OriginalFile,
  ResultOptions,
  ResultResponse,
  TaskPage,
  TokenResponse,
  UploadOptions,
  UploadReceipt,
  ValidationTask,
  WaitOptions,
} from "./types.js";
import { jsonUploadBody, multipartBody, prepareFile, type UploadSource } from "./upload-body.js";
import type {
  CreatedWebhook,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEventType,
  WebhookPage,
} from "./webhooks.js";

export interface DocsiftClientOptions {
  /** e.g. http://localhost:8080 */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes to narrow the token to; default: all the client holds. */
  scope?: string;
  /** Retries after the first attempt on 429/502/503/504 and network errors (default 4). */
  retries?: number;
  /** First backoff step in ms, doubled per retry (default 250). */
  retryBaseDelayMs?: number;
  /** Longest single wait in ms; a longer Retry-After ends the retries (default 30000). */
  retryMaxDelayMs?: number;
  /** Bound of one attempt of a non-blocking call, ms (default 60000). */
  requestTimeoutMs?: number;
  /** Renew the token this long before it expires, ms (default 60000). */
  tokenRefreshMarginMs?: number;
  /** fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Clock in epoch ms, for token expiry and wait deadlines (default Date.now). */
  now?: () => number;
  /** Random source in [0, 1) for backoff jitter (default Math.random). */
  random?: () => number;
  userAgent?: string;
}

/** The file name of a Content-Disposition header: RFC 6266's UTF-8 `filename*` first, else `filename`. */
function attachmentName(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // Malformed escapes: fall back to the plain parameter.
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(header)?.[1];
}

/** One key per upload call, chosen before the first attempt: the transport's retries send the same headers. */
const idempotencyHeader = (options: UploadOptions): Record<string, string> => ({
  "idempotency-key": options.idempotencyKey ?? randomUUID(),
});

const isFinal = (r: ResultResponse): r is FinalResult => r.status === "FINALISED" || r.status === "FAILED";

/** Server-side wait per result request inside `waitForResult`: long enough to be cheap, short enough to re-check. */
const WAIT_STEP_MS = 30_000;
/** Least time between two result requests of one wait. */
const MIN_POLL_MS = 1000;

export class DocsiftClient {
  readonly #http: Transport;
  readonly #tokens: TokenSource;
  readonly #requestTimeoutMs: number;
  readonly #now: () => number;

  constructor(options: DocsiftClientOptions) {
    if (!options.baseUrl) throw new TypeError("DocsiftClient needs baseUrl");
    if (!options.clientId || !options.clientSecret)
      throw new TypeError("DocsiftClient needs clientId and clientSecret");
    const policy: RetryPolicy = {
      retries: options.retries ?? DEFAULT_RETRY_POLICY.retries,
      baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
      maxDelayMs: options.retryMaxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
    };
    this.#now = options.now ?? Date.now;
    this.#requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
    this.#http = new Transport({
      baseUrl: options.baseUrl,
      fetch: options.fetch ?? globalThis.fetch,
      policy,
      now: this.#now,
      random: options.random ?? Math.random,
      userAgent: options.userAgent ?? "docsift-client/0.1",
    });
    this.#tokens = new TokenSource({
      fetchToken: () => this.#fetchToken(options),
      now: this.#now,
      refreshMarginMs: options.tokenRefreshMarginMs ?? 60_000,
    });
    this.#http.useTokens(this.#tokens);
  }

  /** The current access token (fetched or renewed if needed), e.g. to open the review console. */
  accessToken(): Promise<string> {
    return this.#tokens.get();
  }

  /**
   * Uploads a document (a path, bytes, a Blob or a stream) as multipart; resolves with the receipt. Retries carry
   * the call's Idempotency-Key, so however many attempts it takes, the service stores the file once.
   */
  async upload(file: UploadSource, options: UploadOptions): Promise<UploadReceipt> {
    const prepared = await prepareFile(file, options.fileName);
    return this.#http.json<UploadReceipt>({
      method: "POST",
      path: "/fileupload/",
      headers: idempotencyHeader(options),
      body: multipartBody(prepared, options),
      auth: true,
      signal: options.signal,
      attemptTimeoutMs: this.#requestTimeoutMs,
    });
  }

  /** Uploads a document given as base64 text (or a data: URL) through POST /fileupload/json. */
  uploadBase64(base64: string, options: UploadOptions): Promise<UploadReceipt> {
    return this.#http.json<UploadReceipt>({
      method: "POST",
      path: "/fileupload/json",
      headers: { "content-type": "application/json", ...idempotencyHeader(options) },
      body: jsonUploadBody(base64, options),
      auth: true,
      signal: options.signal,
      attemptTimeoutMs: this.#requestTimeoutMs,
    });
  }

  /**
   * One result request. The server blocks until the file is complete or `timeout` ms pass (default: its own bound),
   * then answers FINALISED, FAILED, or the status so far (RECEIVED, IN PROGRESS) without results.
   */
  result(fileId: string, options: ResultOptions = {}): Promise<ResultResponse> {
    return this.#http.json<ResultResponse>({
      method: "GET",
      path: `/result/final/${encodeURIComponent(fileId)}`,
      query: { timeout: options.timeout, verbose: options.verbose ? "true" : undefined },
      auth: true,
      signal: options.signal,
      // The server holds the request for up to `timeout`; only then does a silent connection mean trouble.
      attemptTimeoutMs: options.timeout === undefined ? undefined : options.timeout + this.#requestTimeoutMs,
    });
  }

  /** Repeats blocking result requests until the file is FINALISED or FAILED, or `deadlineMs` passes. */
  async waitForResult(fileId: string, options: WaitOptions = {}): Promise<FinalResult> {
    const started = this.#now();
    const left = (): number =>
      options.deadlineMs === undefined ? WAIT_STEP_MS : options.deadlineMs - (this.#now() - started);
    for (;;) {
      const asked = this.#now();
      const response = await this.result(fileId, {
        timeout: Math.max(0, Math.min(WAIT_STEP_MS, left())),
        signal: options.signal,
      });
      if (isFinal(response)) return response;
      if (left() <= 0) throw new DocsiftWaitTimeoutError(fileId, response.status, this.#now() - started);
      // A server configured to answer at once (a wait cap of 0) must not turn this loop into a flood of requests.
      const pause = Math.min(MIN_POLL_MS - (this.#now() - asked), left());
      if (pause > 0) await sleep(pause, options.signal);
    }
  }

  /** Uploads then waits: the FINALISED (or FAILED) result of the document. */
  async extract(file: UploadSource, options: ExtractOptions): Promise<FinalResult> {
    const started = this.#now();
    const receipt = await this.upload(file, options);
    const deadlineMs = options.deadlineMs === undefined ? undefined : options.deadlineMs - (this.#now() - started);
    return this.waitForResult(receipt.fileId, { deadlineMs, signal: options.signal });
  }

  /** Page `page` (1-based) of the file as PNG bytes. */
  async image(fileId: string, page = 1, options: { signal?: AbortSignal } = {}): Promise<Uint8Array> {
    const res = await this.#http.send({
      method: "GET",
      path: `/result/image/${encodeURIComponent(fileId)}`,
      query: { page },
      headers: { accept: "image/png" },
      auth: true,
      signal: options.signal,
      attemptTimeoutMs: this.#requestTimeoutMs,
    });
    return new Uint8Array(await res.arrayBuffer());
  }

  /** A file: name, status, times, pages, tags, workflow, split parent and children (scope result:all). */
  file(fileId: string, options: { signal?: AbortSignal } = {}): Promise<FileInfo> {
    return this.#http.json<FileInfo>({
      method: "GET",
      path: `/files/${encodeURIComponent(fileId)}`,
      auth: true,
      signal: options.signal,
      attemptTimeoutMs: this.#requestTimeoutMs,
    });
  }

  /** One page of the tenant's files, newest first. */
  listFiles(options: ListFilesOptions = {}): Promise<FilePage> {
    const since = options.since instanceof Date ? options.since.toISOString() : options.since;
    const query = { status: options.status, tag: options.tag, since, limit: options.limit, cursor: options.cursor };
    return this.#listing<FilePage>("/files", query, options.signal);
  }

  /** Every file matching the filter, newest first, following the `next` cursors. */
  files(options: Omit<ListFilesOptions, "cursor"> = {}): AsyncGenerator<FileInfo> {
    return everyPage(
      (cursor) => this.listFiles({ ...options, cursor }),
      (page) => page.files,
    );
  }

  /** The uploaded bytes (a split sub-document: its own PDF or image), with their type and file name. */
  async original(fileId: string, options: { signal?: AbortSignal } = {}): Promise<OriginalFile> {
    const res = await this.#http.send({
      method: "GET",
      path: `/files/${encodeURIComponent(fileId)}/original`,
      auth: true,
      signal: options.signal,
      attemptTimeoutMs: this.#requestTimeoutMs,
    });
    return {
      bytes: new Uint8Array(await res.arrayBuffer()),
      contentType: res.headers.get("content-type") ?? "application/octet-stream",
      fileName: attachmentName(res.headers.get("content-disposition")) ?? fileId,
    };
  }

  /**
   * Deletes a file with its result and review tasks (a split parent: with its sub-documents). Resolves true when
   * this call deleted it, false when there was no such file (already deleted, e.g. by an earlier attempt whose
   * answer was lost), so calling it again is safe.
   */
  deleteFile(fileId: string, options: { signal?: AbortSignal } = {}): Promise<boolean> {
    return this.#deleteAt(`/files/${encodeURIComponent(fileId)}`, options.signal);
  }

  /** DELETE `path`: true when this call deleted it, false when there was nothing there (not_found). */
  async #deleteAt(path: string, signal: AbortSignal | undefined): Promise<boolean> {
    try {
      const res = await this.#http.send({
        method: "DELETE",
        path,
        auth: true,
        signal,
        attemptTimeoutMs: this.#requestTimeoutMs,
      });
      await res.body?.cancel();
      return true;
    } catch (err) {
      if (err instanceof DocsiftApiError && err.code === "not_found") return false;
      throw err;
    }
  }

  /** Products, field sets and fields (with types) the service extracts. */
  catalog(options: { signal?: AbortSignal } = {}): Promise<Catalog> {
    return this.#http.json<Catalog>({
      method: "GET",
      path: "/catalog",
      auth: true,
      signal: options.signal,
      attemptTimeoutMs: this.#requestTimeoutMs,
    });
  }

  /** One page of validation tasks, highest priority first (validate workflow, beta; scope validate:annotation). */
  listTasks(options: ListTasksOptions = {}): Promise<TaskPage> {
    const query = { status: options.status, cursor: options.cursor, limit: options.limit };
    return this.#listing<TaskPage>("/validate/tasks", query, options.signal);
  }

  /** Every task matching the filter, following the `next` cursors. */
  tasks(options: Omit<ListTasksOptions, "cursor"> = {}): AsyncGenerator<ValidationTask> {
    return everyPage(
      (cursor) => this.listTasks({ ...options, cursor }),
      (page) => page.tasks,
    );
  }

  /** Registers an endpoint for the tenant's events (scope webhooks:manage); the answer holds its secret, once. */
  createWebhook(
    endpoint: { url: string; events: readonly WebhookEventType[]; description?: string },
    options: { signal?: AbortSignal } = {},
  ): Promise<CreatedWebhook> {
    return this.#http.json<CreatedWebhook>({
      method: "POST",
      path: "/webhooks",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(endpoint),
      auth: true,
      signal: options.signal,
      attemptTimeoutMs: this.#requestTimeoutMs,
    });
  }

  /** One page of the tenant's endpoints, oldest first. */
  listWebhooks(options: { limit?: number; cursor?: string; signal?: AbortSignal } = {}): Promise<WebhookPage> {
    return this.#listing<WebhookPage>("/webhooks", { limit: options.limit, cursor: options.cursor }, options.signal);
  }

  /** Every endpoint of the tenant, following the `next` cursors. */
  webhooks(options: { signal?: AbortSignal } = {}): AsyncGenerator<WebhookEndpoint> {
    return everyPage(
      (cursor) => this.listWebhooks({ ...options, cursor }),
      (page) => page.webhooks,
    );
  }

  /** Deletes an endpoint; false when the tenant has none with this id. */
  deleteWebhook(id: string, options: { signal?: AbortSignal } = {}): Promise<boolean> {
    return this.#deleteAt(`/webhooks/${encodeURIComponent(id)}`, options.signal);
  }

  /** One page of an endpoint's deliveries, newest first. */
  listWebhookDeliveries(
    id: string,
    options: { status?: WebhookDelivery["status"]; limit?: number; cursor?: string; signal?: AbortSignal } = {},
  ): Promise<WebhookDeliveryPage> {
    const query = { status: options.status, limit: options.limit, cursor: options.cursor };
    return this.#listing<WebhookDeliveryPage>(`/webhooks/${encodeURIComponent(id)}/deliveries`, query, options.signal);
  }

  /** Every delivery of an endpoint, newest first, following the `next` cursors. */
  webhookDeliveries(
    id: string,
    options: { status?: WebhookDelivery["status"]; signal?: AbortSignal } = {},
  ): AsyncGenerator<WebhookDelivery> {
    return everyPage(
      (cursor) => this.listWebhookDeliveries(id, { ...options, cursor }),
      (page) => page.deliveries,
    );
  }

  /** One page of a listing (GET with a query, authorised). */
  #listing<P>(
    path: string,
    query: Record<string, string | number | undefined>,
    signal: AbortSignal | undefined,
  ): Promise<P> {
    return this.#http.json<P>({
      method: "GET",
      path,
      query,
      auth: true,
      signal,
      attemptTimeoutMs: this.#requestTimeoutMs,
    });
  }

  task(taskId: string, options: { signal?: AbortSignal } = {}): Promise<ValidationTask> {
    return this.#http.json<ValidationTask>({
      method: "GET",
      path: `/validate/tasks/${encodeURIComponent(taskId)}`,
      auth: true,
      signal: options.signal,
      attemptTimeoutMs: this.#requestTimeoutMs,
    });
  }

  /** Moves a draft task (createTask.submit=false) into the review queue; a task that is not a draft is `conflict`. */
  submitTask(taskId: string, options: { signal?: AbortSignal } = {}): Promise<ValidationTask> {
    return this.#http.json<ValidationTask>({
      method: "POST",
      path: `/validate/tasks/${encodeURIComponent(taskId)}/submit`,
      auth: true,
      signal: options.signal,
      attemptTimeoutMs: this.#requestTimeoutMs,
    });
  }

  /**
   * Resolves a task: the listed fields are corrected, every other field is confirmed as predicted. A task another
   * reviewer resolved first is a DocsiftApiError with code `conflict` (409).
   */
  resolveTask(
    taskId: string,
    fields: readonly FieldCorrection[],
    options: { signal?: AbortSignal } = {},
  ): Promise<ValidationTask> {
    return this.#http.json<ValidationTask>({
      method: "POST",
      path: `/validate/tasks/${encodeURIComponent(taskId)}/resolve`,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fields }),
      auth: true,
      signal: options.signal,
      attemptTimeoutMs: this.#requestTimeoutMs,
    });
  }

  async #fetchToken(options: DocsiftClientOptions): Promise<TokenResponse> {
    // RFC 6749 2.3.1: id and secret are form-encoded before they are joined and base64-encoded.
    const formEncode = (s: string): string => new URLSearchParams({ v: s }).toString().slice(2);
    const basic = Buffer.from(`${formEncode(options.clientId)}:${formEncode(options.clientSecret)}`).toString("base64");
    const form = new URLSearchParams({ grant_type: "client_credentials" });
    if (options.scope) form.set("scope", options.scope);
    const body = await this.#http.json<Partial<TokenResponse>>({
      method: "POST",
      path: "/oauth2/token",
      headers: { authorization: `Basic ${basic}` },
      body: form,
      auth: false,
      attemptTimeoutMs: this.#requestTimeoutMs,
    });
    if (typeof body.access_token !== "string" || typeof body.expires_in !== "number") {
      throw new DocsiftApiError(
        200,
        "invalid_response",
        "The token endpoint answered without access_token/expires_in.",
      );
    }
    return body as TokenResponse;
  }
}

/** Every item of a paged listing, following its `next` cursors. */
async function* everyPage<P extends { next: string | null }, T>(
  read: (cursor: string | undefined) => Promise<P>,
  items: (page: P) => readonly T[],
): AsyncGenerator<T> {
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    yield* items(page);
    cursor = page.next ?? undefined;
  } while (cursor !== undefined);
}
