/**
 * Applies the rate limits (src/api/rate-limit.ts) to routes: authenticated routes per client (the token's subject),
 * uploads on a budget of their own, and the token endpoint per client address, where no client is known yet and
 * the limit slows credential guessing (and bounds the scrypt work a stranger can ask for). Runs at onRequest after
 * the auth hook, so a refused request costs no body read. Answers carry RateLimit-Limit, -Remaining and -Reset;
 * a refusal is 429 `rate_limited` with Retry-After.
 *
 * The token budget counts failed attempts only: a known client exchanging its credentials successfully (some
 * clients ask for a new token before every call, many at once) never spends it, while an address that keeps
 * failing is refused once it has failed `N` times in the window, whatever it sends then.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { DocsiftError } from "../domain/errors.js";
import { type RateDecision, type RateLimit, TokenBuckets } from "./rate-limit.js";

/** Which budget a route draws on; authenticated routes without one use `requests`. */
export type RateClass = "requests" | "uploads" | "token";

declare module "fastify" {
  interface FastifyContextConfig {
    rateLimit?: RateClass;
  }
}

/** Limits per budget; undefined turns that budget's limit off. */
export interface RateLimitSettings {
  /** Authenticated requests other than uploads, per client (DOCSIFT_RATE_LIMIT). */
  requests: RateLimit | undefined;
  /** Uploads per client (DOCSIFT_UPLOAD_RATE_LIMIT). */
  uploads: RateLimit | undefined;
  /** Failed token requests per client address (DOCSIFT_TOKEN_RATE_LIMIT). */
  token: RateLimit | undefined;
}

/**
 * Far above what a person or a well-behaved integration does (a blocking result wait is one request; a token lasts
 * an hour), so only a runaway loop or an attack meets them.
 */
export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  requests: { count: 3000, windowMs: 60_000 },
  uploads: { count: 600, windowMs: 60_000 },
  token: { count: 120, windowMs: 60_000 },
};

function setHeaders(reply: FastifyReply, decision: RateDecision): void {
  reply.header("ratelimit-limit", decision.limit);
  reply.header("ratelimit-remaining", decision.remaining);
  reply.header("ratelimit-reset", decision.resetSeconds);
}

export function registerRateLimits(app: FastifyInstance, settings: RateLimitSettings, now = Date.now): void {
  const buckets: Partial<Record<RateClass, TokenBuckets>> = {};
  for (const budget of ["requests", "uploads", "token"] as const) {
    const limit = settings[budget];
    if (limit) buckets[budget] = new TokenBuckets({ limit });
  }
  app.addHook("onRequest", async (request, reply) => {
    const config = request.routeOptions.config;
    const budget: RateClass | undefined = config.rateLimit ?? (config.auth ? "requests" : undefined);
    const limiter = budget && buckets[budget];
    if (!limiter) return;
    // Token requests carry no verified identity yet: the address is all there is.
    const key = budget === "token" ? `ip:${request.ip}` : request.principal?.clientId;
    if (key === undefined) return;
    const decision = budget === "token" ? limiter.peek(key, now()) : limiter.take(key, now());
    setHeaders(reply, decision);
    if (!decision.allowed) {
      const who = budget === "token" ? "this address" : "this client";
      throw new DocsiftError(
        "rate_limited",
        `Too many ${budget === "requests" ? "requests" : budget === "uploads" ? "uploads" : "failed token requests"} from ${who}: ` +
          `the limit is ${decision.limit} per ${limiter.limit.windowMs / 1000} s; retry after ${decision.retryAfterSeconds} s.`,
        { retryAfterSeconds: decision.retryAfterSeconds },
      );
    }
  });
  const tokenLimiter = buckets.token;
  if (tokenLimiter) {
    app.addHook("onResponse", async (request, reply) => {
      if (request.routeOptions.config.rateLimit !== "token") return;
      // A refusal of ours (429) or the server's trouble (5xx) says nothing about the caller's credentials.
      const status = reply.statusCode;
      if (status >= 400 && status !== 429 && status < 500) tokenLimiter.take(`ip:${request.ip}`, now());
    });
  }
}
