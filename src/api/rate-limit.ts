/**
 * Per-key rate limits as token buckets (pure: the clock comes in as an argument). A limit `N/window` lets a key make
 * N requests at once and then N per window, refilled continuously, so a client that paces itself never sees a 429
 * and one that bursts waits only as long as the next token takes. Buckets live in this process only: with several
 * API processes behind a balancer each enforces its own budget.
 */

/** `count` requests per `windowMs`, burst `count`. */
export interface RateLimit {
  count: number;
  windowMs: number;
}

/** What one request learned from its bucket; the numbers become RateLimit-* and Retry-After headers. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Whole requests left after this one. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until the next request may pass; 0 when this one passed. */
  retryAfterSeconds: number;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Reads `N/DURATION` (`100/60s`, `600/1m`, `5/500ms`, `20/s`, or `N` alone per minute); `0`, `off`, `false` or
 * `none` disable the limit (undefined). Anything else throws, naming the variable: a typo must not silently
 * turn a limit off.
 */
export function parseRateLimit(name: string, text: string): RateLimit | undefined {
  const value = text.trim().toLowerCase();
  if (["0", "off", "false", "none", "disabled"].includes(value)) return undefined;
  const match = /^(\d+)\s*(?:\/\s*(\d+)?\s*(ms|s|m|h)?)?$/.exec(value);
  const count = Number(match?.[1]);
  const amount = match?.[2] === undefined ? 1 : Number(match[2]);
  // A bare number is per minute; after a slash the unit defaults to seconds.
  const unit = match?.[3] ?? (value.includes("/") ? "s" : "m");
  const windowMs = amount * (UNIT_MS[unit] ?? Number.NaN);
  const emptyWindow = value.includes("/") && match?.[2] === undefined && match?.[3] === undefined;
  if (!match || emptyWindow || !Number.isSafeInteger(count) || count < 1 || !(windowMs > 0)) {
    throw new Error(`${name} must look like 100/60s (requests per window; units ms, s, m, h) or off, got "${text}"`);
  }
  return { count, windowMs };
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface BucketsOptions {
  limit: RateLimit;
  /** Keys tracked at most; past it, full (idle) buckets are dropped first, then the oldest. */
  maxKeys?: number;
}

/** Token buckets for one limit, keyed by client id or address. */
export class TokenBuckets {
  readonly limit: RateLimit;
  readonly #maxKeys: number;
  readonly #buckets = new Map<string, Bucket>();
  /** Tokens refilled per ms. */
  readonly #rate: number;

  constructor(options: BucketsOptions) {
    this.limit = options.limit;
    this.#maxKeys = options.maxKeys ?? 100_000;
    this.#rate = options.limit.count / options.limit.windowMs;
  }

  get size(): number {
    return this.#buckets.size;
  }

  /** Takes one token for `key` at time `now` (ms) if there is one. */
  take(key: string, now: number): RateDecision {
    return this.#decide(key, now, true);
  }

  /**
   * Whether `key` has a token at `now`, taking none: for limits that count only some requests (the token endpoint's
   * failed attempts), checked when a request arrives and charged with `take` once its outcome is known.
   */
  peek(key: string, now: number): RateDecision {
    return this.#decide(key, now, false);
  }

  #decide(key: string, now: number, consume: boolean): RateDecision {
    const capacity = this.limit.count;
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      if (!consume) return this.#decision(capacity, true);
      this.#makeRoom(now);
      bucket = { tokens: capacity, updatedAt: now };
      this.#buckets.set(key, bucket);
    } else {
      // A clock that steps back never adds tokens.
      const elapsed = Math.max(0, now - bucket.updatedAt);
      bucket.tokens = Math.min(capacity, bucket.tokens + elapsed * this.#rate);
      bucket.updatedAt = Math.max(bucket.updatedAt, now);
    }
    const allowed = bucket.tokens >= 1;
    if (allowed && consume) bucket.tokens -= 1;
    return this.#decision(bucket.tokens, allowed);
  }

  #decision(tokens: number, allowed: boolean): RateDecision {
    const capacity = this.limit.count;
    // Rounded to whole ms first: float noise must not add a second.
    const toSeconds = (ms: number): number => Math.max(0, Math.ceil(Math.round(ms) / 1000));
    return {
      allowed,
      limit: capacity,
      remaining: Math.floor(tokens),
      resetSeconds: toSeconds((capacity - tokens) / this.#rate),
      retryAfterSeconds: allowed ? 0 : Math.max(1, toSeconds((1 - tokens) / this.#rate)),
    };
  }

  #makeRoom(now: number): void {
    if (this.#buckets.size < this.#maxKeys) return;
    const capacity = this.limit.count;
    for (const [key, bucket] of this.#buckets) {
      if (bucket.tokens + (now - bucket.updatedAt) * this.#rate >= capacity) this.#buckets.delete(key);
    }
    // Still full of active keys (a flood of addresses): forget the oldest; they start again with a full bucket.
    for (const key of this.#buckets.keys()) {
      if (this.#buckets.size < this.#maxKeys) break;
      this.#buckets.delete(key);
    }
  }
}
