/**
 * When a failed delivery is tried again, and when it and its endpoint are given up. Exponential backoff with full
 * jitter on the upper half (so endpoints that failed together do not come back in step), capped, for at least the
 * retry window: the last attempt is placed at the window's end, so an endpoint down for the whole window still gets
 * one try after it. An endpoint is disabled when a delivery is given up and the endpoint has had no success since that
 * delivery's first attempt: it has then failed for a whole retry window.
 */

export interface RetryPolicy {
  /** First retry delay, ms (DOCSIFT_WEBHOOK_RETRY_BASE_MS, default 5 s); doubled per attempt. */
  baseMs: number;
  /** Longest delay between two attempts, ms. */
  maxDelayMs: number;
  /** How long a delivery is retried before it is marked failed, ms (DOCSIFT_WEBHOOK_RETRY_HOURS, default 24 h). */
  windowMs: number;
}

export const DEFAULT_RETRY_BASE_MS = 5000;
export const DEFAULT_RETRY_HOURS = 24;
export const MAX_RETRY_DELAY_MS = 60 * 60_000;

export function retryPolicy(baseMs: number, retryHours: number): RetryPolicy {
  const windowMs = retryHours * 3_600_000;
  return { baseMs, windowMs, maxDelayMs: Math.max(baseMs, Math.min(MAX_RETRY_DELAY_MS, windowMs / 4)) };
}

/**
 * The time of the next attempt after `attempts` failed ones, or null when the delivery is given up: the attempt
 * that just failed was at or past `giveUpAt`. `random` is in [0, 1).
 */
export function nextAttemptAt(
  policy: RetryPolicy,
  attempts: number,
  now: number,
  giveUpAt: number,
  random: number = Math.random(),
): number | null {
  if (now >= giveUpAt) return null;
  const exponential = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** Math.min(30, Math.max(0, attempts - 1)));
  const delay = exponential / 2 + (exponential / 2) * random;
  return Math.min(now + delay, giveUpAt);
}

/**
 * After a delivery is given up (its window spent): the endpoint is disabled when its current run of failures began
 * no later than the delivery's first attempt, i.e. nothing it was sent succeeded during that whole window.
 */
export function shouldDisable(failingSince: number, firstAttemptAt: number): boolean {
  return failingSince <= firstAttemptAt;
}
