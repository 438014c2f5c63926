/**
 * When to retry and how long to wait. Pure functions: the clock and the random source come in as arguments, so the
 * policy is the same in production and in tests.
 */

/** Statuses that mean "try again later" without the request having had an effect we could duplicate knowingly. */
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUS.has(status);
}

export interface RetryPolicy {
  /** Retries after the first attempt (so at most retries + 1 attempts). */
  retries: number;
  /** First backoff step, ms; doubled per attempt. */
  baseDelayMs: number;
  /** Longest single wait, ms. A Retry-After beyond it ends the retries: the caller learns now, not much later. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 4, baseDelayMs: 250, maxDelayMs: 30_000 };

/**
 * Retry-After as milliseconds from `now`: delta-seconds or an HTTP date (RFC 9110 10.2.3). Undefined when absent or
 * unreadable; a date in the past is 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Exponential backoff with "equal jitter": half of the step is fixed, half random, so many clients that failed
 * together spread out without any of them retrying immediately.
 * `attempt` counts from 0 (the wait after the first failure).
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * The wait before the next attempt, or undefined to stop: retries used up, or the server asked for a pause longer
 * than the policy allows. The server's Retry-After wins over the computed backoff.
 */
export function nextDelay(
  attempt: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | undefined {
  if (attempt >= policy.retries) return undefined;
  const delay = retryAfterMs ?? backoffDelay(attempt, policy, random);
  return delay > policy.maxDelayMs ? undefined : delay;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
