/**
 * The bounded queue: an upload arriving while `maxQueue` jobs are waiting or running is refused with 503
 * `unavailable` and Retry-After before its body is read, so nothing is stored and memory does not grow with the
 * backlog. Uploads admitted but not yet queued count too, so a burst cannot slip past the bound between the check
 * and the enqueue. Jobs that accepted uploads create themselves (split children) are never refused: they enter the
 * queue directly.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { DocsiftError } from "../domain/errors.js";

export const DEFAULT_MAX_QUEUE = 1000;
/** A full queue drains at the workers' pace; a few seconds later a retry has a fair chance. */
export const QUEUE_FULL_RETRY_AFTER_SECONDS = 10;

export interface QueueAdmission {
  /** Route onRequest hook: admits the upload or throws 503 `unavailable`. */
  admit(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** The upload is queued (or failed): it stops counting as admitted. Idempotent. */
  settle(request: FastifyRequest): void;
}

/** Admission against `maxQueue` jobs waiting or running; 0 admits everything. */
export function queueAdmission(queue: { backlog(): Promise<number> }, maxQueue: number): QueueAdmission {
  const pending = new WeakSet<FastifyRequest>();
  let admitted = 0;
  const settle = (request: FastifyRequest): void => {
    if (pending.delete(request)) admitted--;
  };
  return {
    async admit(request, reply) {
      if (maxQueue <= 0) return;
      if ((await queue.backlog()) + admitted >= maxQueue) {
        throw new DocsiftError(
          "unavailable",
          `The processing queue is full (${maxQueue} files waiting or running); retry in a few seconds.`,
          { retryAfterSeconds: QUEUE_FULL_RETRY_AFTER_SECONDS },
        );
      }
      admitted++;
      pending.add(request);
      // A refused or abandoned upload never reaches the handler's settle.
      reply.raw.once("close", () => settle(request));
    },
    settle,
  };
}
