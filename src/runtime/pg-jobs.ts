/**
 * The PostgreSQL mode's queue and completion channel, wired together: one LISTEN session per process carries both
 * "file done" (wakes waiting result requests) and "job waiting" (wakes idle workers). Used by `docsift serve` on
 * DATABASE_URL (with or without workers) and by `docsift worker` (through jobs.ts). The queue reaches the files
 * table only through the store (queue/job-files.ts).
 */
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { CompletionSignal } from "../queue/completion.js";
import type { JobHandler } from "../queue/job-queue.js";
import { type PgCompletion, startPgCompletion } from "../queue/pg-completion.js";
import { JOB_CHANNEL, type PgQueue, type PgQueueTuning, pgQueueSettings, startPgQueue } from "../queue/pg-queue.js";
import type { PgDatabase } from "../store/postgres/schema.js";
import { transientKind } from "../store/transient-errors.js";
import type { Store } from "../store/types.js";

export interface PgJobsOptions {
  url: string;
  db: Kysely<PgDatabase>;
  store: Store;
  log: Logger;
  /** pg-boss settings (runtime/config.ts). */
  tuning: PgQueueTuning;
  /**
   * Set where jobs run (serve without --no-worker, worker). The handler is built once the completion channel exists;
   * `enqueue` (for jobs that create files: split children) waits for the queue if a job runs while it is starting.
   */
  worker?: { concurrency: number; makeHandler(deps: HandlerDeps): JobHandler };
}

export interface HandlerDeps {
  completion: CompletionSignal;
  enqueue(fileId: string): Promise<void>;
}

export interface PgJobs {
  queue: PgQueue;
  completion: PgCompletion;
  /** Stops fetching and waits for running jobs, then closes the LISTEN session. */
  close(): Promise<void>;
}

/**
 * pg-boss 10 completes and fails jobs without awaiting the promise, so while PostgreSQL is down or restarting those
 * writes reject with nobody listening, and Node would end the process. Nothing is lost when they fail: the job stays
 * active, expires and is delivered again, and the runner skips files already finished. So such rejections are logged;
 * any other unhandled rejection still ends the process as before.
 */
function isConnectionFailure(err: unknown): boolean {
  return transientKind(err) === "database_unreachable";
}

function surviveDatabaseOutages(log: Logger): () => void {
  const onRejection = (reason: unknown): void => {
    if (!isConnectionFailure(reason)) throw reason;
    log.warn({ err: reason }, "database write lost during an outage; the job will be delivered again");
  };
  process.on("unhandledRejection", onRejection);
  return () => process.off("unhandledRejection", onRejection);
}

export async function startPgJobs(options: PgJobsOptions): Promise<PgJobs> {
  const { log } = options;
  const stopSurviving = surviveDatabaseOutages(log);
  let queue: PgQueue | undefined;
  const completion = await startPgCompletion({
    url: options.url,
    db: options.db,
    store: options.store,
    onError: (err) => log.warn({ err }, "database notification channel interrupted; reconnecting"),
    channels: options.worker ? { [JOB_CHANNEL]: () => queue?.wake() } : {},
  });
  let queueReady: (q: PgQueue) => void = () => undefined;
  const whenQueued = new Promise<PgQueue>((resolve) => {
    queueReady = resolve;
  });
  const worker = options.worker && {
    concurrency: options.worker.concurrency,
    handler: options.worker.makeHandler({
      completion,
      enqueue: async (fileId) => (queue ?? (await whenQueued)).enqueue(fileId),
    }),
  };
  try {
    queue = await startPgQueue({
      url: options.url,
      settings: pgQueueSettings(options.url, options.tuning),
      completion,
      onError: (err) => log.warn({ err }, "job queue error (retried)"),
      worker: worker && {
        ...worker,
        store: options.store,
        onDeadLetter: (fileId) => log.error({ fileId }, "job dead-lettered: file marked FAILED"),
      },
    });
  } catch (err) {
    await completion.close();
    stopSurviving();
    throw err;
  }
  const started = queue;
  queueReady(started);
  if (options.worker) {
    const swept = await started.sweep();
    if (swept > 0) log.info({ count: swept }, "queued files that had no job");
  }
  return {
    queue: started,
    completion,
    async close() {
      // The LISTEN session is a socket that keeps the process alive: it closes even when the drain fails.
      try {
        await started.drain();
      } finally {
        await completion.close();
        stopSurviving();
      }
    },
  };
}
