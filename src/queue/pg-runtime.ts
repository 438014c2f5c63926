/**
 * The PostgreSQL mode's queue and completion channel, wired together: one LISTEN session per process carries both
 * "file done" (wakes waiting result requests) and "job waiting" (wakes idle workers). Used by `docsift serve` on
 * DATABASE_URL (with or without workers) and by `docsift worker`.
 */
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { PgDatabase } from "../store/postgres/schema.js";
import type { Store } from "../store/types.js";
import type { CompletionSignal } from "./completion.js";
import type { JobHandler } from "./job-queue.js";
import { type PgCompletion, startPgCompletion } from "./pg-completion.js";
import { JOB_CHANNEL, type PgQueue, pgQueueSettingsFromEnv, startPgQueue } from "./pg-queue.js";

export interface PgJobsOptions {
  url: string;
  db: Kysely<PgDatabase>;
  store: Store;
  log: Logger;
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

export async function startPgJobs(options: PgJobsOptions): Promise<PgJobs> {
  const { log } = options;
  let queue: PgQueue | undefined;
  const completion = await startPgCompletion({
    url: options.url,
    db: options.db,
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
      settings: pgQueueSettingsFromEnv(options.url),
      completion,
      onError: (err) => log.warn({ err }, "job queue error (retried)"),
      worker: worker && {
        ...worker,
        store: options.store,
        db: options.db,
        onDeadLetter: (fileId) => log.error({ fileId }, "job dead-lettered: file marked FAILED"),
      },
    });
  } catch (err) {
    await completion.close();
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
      await started.drain();
      await completion.close();
    },
  };
}
