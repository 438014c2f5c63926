/**
 * The job queue interface and its embedded implementation. Embedded, the files table is the queue: a job is just a
 * file id, re-read from the store when it runs, and at start-up every RECEIVED or IN PROGRESS file is enqueued again,
 * so nothing that got a receipt is lost to a crash. Dispatch is in-process, at most `concurrency` jobs at once.
 */

/** What a job handler reports: `retry` puts the file back at the end of the queue (its thread crashed). */
export type JobOutcome = "done" | "retry";
export type JobHandler = (fileId: string) => Promise<JobOutcome>;

export interface JobQueue {
  enqueue(fileId: string): Promise<void>;
  /** Jobs waiting plus running (this process's view; a gauge). */
  depth(): number;
  /**
   * Jobs waiting plus running in every process sharing the queue, for the upload bound. May lag by about a second
   * in PostgreSQL mode; this process's own sends since are always included.
   */
  backlog(): Promise<number>;
  /** Stop starting jobs and wait for the running ones; waiting ones stay in the store for the next start. */
  drain(): Promise<void>;
}

export interface EmbeddedQueueOptions {
  concurrency: number;
  handler: JobHandler;
  /** Called when a handler throws (a bug or a store failure): the job is retried on the next start. */
  onError: (fileId: string, err: unknown) => void;
  /**
   * For an error worth retrying soon (storage busy or briefly unreachable): the delay, ms, after which the job runs
   * again in this process instead of waiting for the next start. Undefined: onError's rule applies.
   */
  retryDelayMs?: (fileId: string, err: unknown) => number | undefined;
}

export function embeddedQueue(options: EmbeddedQueueOptions): JobQueue {
  const waiting: string[] = [];
  const queued = new Set<string>();
  const running = new Map<string, Promise<void>>();
  let draining = false;

  const pump = (): void => {
    while (!draining && running.size < options.concurrency && waiting.length > 0) {
      const fileId = waiting.shift()!;
      queued.delete(fileId);
      const job = options
        .handler(fileId)
        .then(
          (outcome) => outcome === "retry",
          (err: unknown) => {
            const delay = options.retryDelayMs?.(fileId, err);
            if (delay === undefined) options.onError(fileId, err);
            else later(fileId, delay);
            return false;
          },
        )
        .then((retry) => {
          running.delete(fileId);
          if (retry && !draining) push(fileId);
          pump();
        });
      running.set(fileId, job);
    }
  };

  const delayed = new Map<string, NodeJS.Timeout>();
  const later = (fileId: string, delay: number): void => {
    if (draining || delayed.has(fileId)) return;
    const timer = setTimeout(() => {
      delayed.delete(fileId);
      if (draining) return;
      push(fileId);
      pump();
    }, delay);
    // A job waiting to be retried must not keep the process alive; it is in the store for the next start.
    timer.unref();
    delayed.set(fileId, timer);
  };

  const push = (fileId: string): void => {
    // A file is never queued twice nor queued while it runs (a restart scan may race a fresh enqueue).
    if (queued.has(fileId) || running.has(fileId)) return;
    queued.add(fileId);
    waiting.push(fileId);
  };

  return {
    async enqueue(fileId) {
      push(fileId);
      pump();
    },
    depth: () => waiting.length + running.size + delayed.size,
    backlog: async () => waiting.length + running.size + delayed.size,
    async drain() {
      draining = true;
      for (const timer of delayed.values()) clearTimeout(timer);
      delayed.clear();
      while (running.size > 0) await Promise.allSettled([...running.values()]);
    },
  };
}
