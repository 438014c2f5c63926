/**
 * One HTTP exchange with the service, made reliable: the bearer token attached (and renewed once when the server
 * refuses it), retries on 429/502/503/504 and network failures with backoff that honours Retry-After, and every
 * error answer turned into a DocsiftApiError.
 */
import { DocsiftApiError, errorFromResponse } from "./errors.js";
import { isRetryableStatus, nextDelay, parseRetryAfter, type RetryPolicy, sleep } from "./retry.js";
import type { TokenSource } from "./token.js";

export interface TransportOptions {
  baseUrl: string;
  fetch: typeof fetch;
  policy: RetryPolicy;
  now: () => number;
  random: () => number;
  userAgent: string;
}

export interface Call {
  method: "GET" | "POST" | "DELETE";
  path: string;
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  /** Must be replayable (string, URLSearchParams, Blob, FormData): a retry sends it again. */
  body?: string | URLSearchParams | Blob | FormData;
  /** Attach the bearer token. */
  auth: boolean;
  signal?: AbortSignal | undefined;
  /** Bound of one attempt, ms; undefined = no bound (a blocking result wait the server itself bounds). */
  attemptTimeoutMs?: number | undefined;
}

function describeFailure(err: unknown): string {
  const cause = err instanceof Error ? (err.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === "string") return cause.code;
  if (typeof cause?.message === "string") return cause.message;
  return err instanceof Error ? err.message : String(err);
}

export class Transport {
  readonly #options: TransportOptions;
  #tokens: TokenSource | undefined;

  constructor(options: TransportOptions) {
    this.#options = { ...options, baseUrl: options.baseUrl.replace(/\/+$/, "") };
  }

  /** Set once the client has built its token source (which itself uses this transport, unauthenticated). */
  useTokens(tokens: TokenSource): void {
    this.#tokens = tokens;
  }

  url(path: string, query: Call["query"] = {}): string {
    const url = new URL(this.#options.baseUrl + path);
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  /** Sends the call until it succeeds or the policy gives up; resolves with a 2xx response (body unread). */
  async send(call: Call): Promise<Response> {
    const { policy, now, random } = this.#options;
    const url = this.url(call.path, call.query);
    let attempt = 0;
    let renewedToken = false;
    for (;;) {
      const token = call.auth ? await this.#requireTokens().get() : undefined;
      let res: Response;
      try {
        res = await this.#attempt(url, call, token);
      } catch (err) {
        if (call.signal?.aborted) throw call.signal.reason;
        const delay = nextDelay(attempt, undefined, policy, random);
        if (delay === undefined) {
          throw new DocsiftApiError(0, "network_error", `Cannot reach ${url}: ${describeFailure(err)}.`, {
            cause: err,
          });
        }
        await sleep(delay, call.signal);
        attempt++;
        continue;
      }
      if (res.ok) return res;
      // An expired or rotated-key token: renew once; a second refusal is a real authorisation problem.
      if (res.status === 401 && token !== undefined && !renewedToken) {
        await res.body?.cancel();
        this.#requireTokens().invalidate(token);
        renewedToken = true;
        continue;
      }
      if (isRetryableStatus(res.status)) {
        const delay = nextDelay(attempt, parseRetryAfter(res.headers.get("retry-after"), now()), policy, random);
        if (delay !== undefined) {
          await res.body?.cancel();
          await sleep(delay, call.signal);
          attempt++;
          continue;
        }
      }
      throw await errorFromResponse(res);
    }
  }

  /** Sends the call and parses its JSON answer. */
  async json<T>(call: Call): Promise<T> {
    const res = await this.send({ ...call, headers: { accept: "application/json", ...call.headers } });
    const text = await res.text();
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      throw new DocsiftApiError(
        res.status,
        "invalid_response",
        `Expected JSON from ${call.path}, got: ${text.slice(0, 200)}`,
        {
          requestId: res.headers.get("x-request-id") ?? undefined,
          cause: err,
        },
      );
    }
  }

  #requireTokens(): TokenSource {
    if (!this.#tokens) throw new Error("Transport used with auth before useTokens()");
    return this.#tokens;
  }

  #attempt(url: string, call: Call, token: string | undefined): Promise<Response> {
    const headers = new Headers(call.headers);
    headers.set("user-agent", this.#options.userAgent);
    if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
    const signals = [
      call.signal,
      call.attemptTimeoutMs === undefined ? undefined : AbortSignal.timeout(call.attemptTimeoutMs),
    ];
    const active = signals.filter((s): s is AbortSignal => s !== undefined);
    return this.#options.fetch(url, {
      method: call.method,
      headers,
      body: call.body,
      signal: active.length === 0 ? undefined : AbortSignal.any(active),
    });
  }
}
