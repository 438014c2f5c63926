/**
 * The access token: fetched lazily on first use, cached, and renewed shortly before it expires, so no request is
 * sent with a token about to lapse. Concurrent callers share one token request.
 */

export interface AccessToken {
  value: string;
  /** Epoch ms (on the client's clock) after which the token is not used any more. */
  renewAt: number;
}

export interface TokenSourceOptions {
  /** Fetches a new token: `{access_token, expires_in}` from POST /oauth2/token. */
  fetchToken: () => Promise<{ access_token: string; expires_in: number }>;
  now: () => number;
  /** Renew this long before expiry (capped at half the lifetime, so short-lived tokens are still used). */
  refreshMarginMs: number;
}

/** When to stop using a token issued at `issuedAt` for `expiresInS` seconds. */
export function renewalTime(issuedAt: number, expiresInS: number, refreshMarginMs: number): number {
  const lifetimeMs = Math.max(0, expiresInS * 1000);
  return issuedAt + lifetimeMs - Math.min(refreshMarginMs, lifetimeMs / 2);
}

export class TokenSource {
  readonly #options: TokenSourceOptions;
  #current: AccessToken | undefined;
  #pending: Promise<AccessToken> | undefined;

  constructor(options: TokenSourceOptions) {
    this.#options = options;
  }

  /** A token good for now: the cached one, or a fresh one when none is cached or it is due for renewal. */
  async get(): Promise<string> {
    const current = this.#current;
    if (current && this.#options.now() < current.renewAt) return current.value;
    this.#pending ??= this.#renew().finally(() => {
      this.#pending = undefined;
    });
    return (await this.#pending).value;
  }

  /** Drops `value` if it is still the cached token (the server refused it), so the next get() fetches anew. */
  invalidate(value: string): void {
    if (this.#current?.value === value) this.#current = undefined;
  }

  async #renew(): Promise<AccessToken> {
    const issuedAt = this.#options.now();
    const body = await this.#options.fetchToken();
    const token = {
      value: body.access_token,
      renewAt: renewalTime(issuedAt, body.expires_in, this.#options.refreshMarginMs),
    };
    this.#current = token;
    return token;
  }
}
