/**
 * The scale-out job queue on pg-boss, in the same PostgreSQL database as the store. API processes only send; worker
 * processes also work. What pg-boss provides, and why it is configured so:
 * - `stately` policy with the file id as singleton key: at most one queued and one running job per file, so a file
 *   never runs twice at once and a repeated enqueue (the start-up sweep, a retried upload) is a no-op.
 * - retries with exponential backoff when a handler throws (its thread crashed, or the store was unreachable);
 *   the runner itself counts the file's failed attempts and interruptions in the files table and fails the file after
 *   MAX_ATTEMPTS or MAX_INTERRUPTIONS (domain/attempts.ts).
 * - expiry: a job still active after `expireInSeconds` (its worker was killed) is failed by pg-boss's maintenance and
 *   re-delivered to any live worker.
 * - a dead-letter queue after `retryLimit` retries. pg-boss counts every delivery, kills and outages included, which
 *   are not the file's fault: a dead-lettered file still within the runner's bounds is queued again under a new job,
 *   one beyond them is marked FAILED `internal`, so nothing that got a receipt stays RECEIVED forever.
 * New jobs are announced with NOTIFY so idle workers fetch at once instead of waiting for their next poll.
 */

import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";
import PgBoss from "pg-boss";
import { MAX_ATTEMPTS, MAX_INTERRUPTIONS } from "../domain/attempts.js";
import type { ErrorBody } from "../domain/errors.js";
import type { JobStore } from "./job-files.js";
import type { JobHandler, JobQueue } from "./job-queue.js";
import type { PgCompletion } from "./pg-completion.js";

export const JOB_QUEUE = "docsift-files";
export const DEAD_LETTER_QUEUE = "docsift-files-dead";
/** How long a count of the shared backlog serves uploads before it is counted again. */
export const BACKLOG_TTL_MS = 1000;
/** NOTIFY channel announcing a new job (payload unused). */
export const JOB_CHANNEL = "docsift_job_waiting";

export interface PgQueueSettings {
  /**
   * pg-boss's own schema (PGBOSS_SCHEMA). Default "pgboss", or "<schema>_pgboss" when DATABASE_URL pins a
   * search_path, so installations sharing one database by schema also keep separate queues.
   */
  schema: string;
  /** Seconds a job may stay active before it counts as abandoned (DOCSIFT_JOB_EXPIRE_SECONDS, default 900). */
  expireInSeconds: number;
  /** How often pg-boss's maintenance (expiry) runs (DOCSIFT_QUEUE_MAINTENANCE_SECONDS, default 30). */
  maintenanceIntervalSeconds: number;
  /** Fallback poll of idle workers, seconds (NOTIFY wakes them sooner). */
  pollingIntervalSeconds: number;
  /**
   * Deliveries retried before the job goes to the dead-letter queue (DOCSIFT_JOB_RETRIES, default MAX_ATTEMPTS + 3:
   * beyond the runner's own attempts, so store outages, where the handler throws, are retried too).
   */
  retryLimit: number;
  /** First retry delay, doubled each time (DOCSIFT_JOB_RETRY_DELAY_SECONDS, default 2). */
  retryDelaySeconds: number;
}

/** The first schema of a `search_path` set through the URL's `options` parameter, if any. */
export function searchPathSchema(url: string): string | undefined {
  let options: string | null;
  try {
    options = new URL(url).searchParams.get("options");
  } catch {
    return undefined;
  }
  const match = options && /(?:^|\s)(?:-c\s*|--)search_path=([A-Za-z_][A-Za-z0-9_]*)/.exec(options);
  return match?.[1];
}

/** What a deployment tunes (runtime/config.ts reads it); an unset schema follows the URL's search_path. */
export type PgQueueTuning = Omit<PgQueueSettings, "schema"> & { schema: string | undefined };

export function pgQueueSettings(url: string, tuning: PgQueueTuning): PgQueueSettings {
  const searchPath = searchPathSchema(url);
  return { ...tuning, schema: tuning.schema || (searchPath ? `${searchPath}_pgboss` : "pgboss") };
}

export interface PgQueueOptions {
  url: string;
  settings: PgQueueSettings;
  completion: PgCompletion;
  onError: (err: Error) => void;
  /** Set in processes that run jobs: the runner, how many at once, and what to sweep and fail. */
  worker?: {
    handler: JobHandler;
    concurrency: number;
    /** The files the jobs are for: the dead-letter handler and the sweep ask the store about them. */
    store: JobStore;
    onDeadLetter: (fileId: string) => void;
  };
}

export interface PgQueue extends JobQueue {
  /** Jobs sent by no one yet: RECEIVED files never started (an API process died between insert and send). */
  sweep(): Promise<number>;
  /** Wakes this process's idle workers for an immediate fetch: call on a JOB_CHANNEL notification. */
  wake(): void;
}

interface FileJob {
  fileId: string;
}

/**
 * pg-boss's connections, apart from the store's. Without a listener an idle client's error (a server restart) would
 * be an uncaught exception, and pg listens only on idle clients: one checked out between two queries when the server
 * goes away would crash the process. Broken connections are replaced on the next query.
 */
function bossPool(url: string, onError: (err: Error) => void): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on("error", onError);
  pool.on("connect", (client) => client.on("error", onError));
  return pool;
}

export async function startPgQueue(options: PgQueueOptions): Promise<PgQueue> {
  const { settings } = options;
  // pg-boss runs its SQL on a pool of ours, hardened against connections dropped by a server restart.
  const pool = bossPool(options.url, options.onError);
  // pg-boss's SQL still in flight: its stop does not wait for a fetch already sent, nor for the job that fetch
  // returns, nor for the completion it then sends unawaited; the drain waits for them before ending the pool.
  let queries = 0;
  const executeSql = async (text: string, values?: unknown[]) => {
    queries++;
    try {
      return await pool.query(text, values);
    } finally {
      queries--;
    }
  };
  const boss = new PgBoss({
    db: { executeSql },
    schema: settings.schema,
    supervise: options.worker !== undefined,
    schedule: false,
    maintenanceIntervalSeconds: settings.maintenanceIntervalSeconds,
  });
  // pg-boss reports connection loss and failed polls here; without a listener an EventEmitter error would crash.
  boss.on("error", options.onError);
  await boss.start();
  await boss.createQueue(DEAD_LETTER_QUEUE, { name: DEAD_LETTER_QUEUE, policy: "standard" });
  await boss.createQueue(JOB_QUEUE, {
    name: JOB_QUEUE,
    policy: "stately",
    retryLimit: settings.retryLimit,
    retryDelay: settings.retryDelaySeconds,
    retryBackoff: true,
    expireInSeconds: settings.expireInSeconds,
    deadLetter: DEAD_LETTER_QUEUE,
  });

  /** Jobs this process sent: the backlog count adds them until its next recount. */
  let sent = 0;
  const enqueue = async (fileId: string): Promise<void> => {
    await boss.send(JOB_QUEUE, { fileId } satisfies FileJob, { singletonKey: fileId });
    sent++;
    options.completion.publish(JOB_CHANNEL, "");
  };

  let running = 0;
  let waitingCount = 0;
  const workerIds: string[] = [];
  const worker = options.worker;
  if (worker) {
    for (let i = 0; i < Math.max(1, worker.concurrency); i++) {
      let workerId = "";
      workerId = await boss.work<FileJob>(
        JOB_QUEUE,
        { batchSize: 1, pollingIntervalSeconds: settings.pollingIntervalSeconds },
        async ([job]) => {
          if (!job) return;
          running++;
          try {
            // Throwing hands the job back to pg-boss, which retries it with backoff.
            if ((await worker.handler(job.data.fileId)) === "retry")
              throw new Error("processing attempt did not finish");
          } finally {
            running--;
            // pg-boss would sleep out the rest of the poll interval before its next fetch: with a backlog that idles
            // the worker for up to a poll interval per job. A worker that just finished looks for the next at once.
            boss.notifyWorker(workerId);
          }
        },
      );
      workerIds.push(workerId);
    }
    await boss.work<FileJob>(DEAD_LETTER_QUEUE, { batchSize: 1 }, async ([job]) => {
      if (!job) return;
      const file = await worker.store.files.getForJob(job.data.fileId);
      if (!file || file.status === "FINALISED" || file.status === "FAILED") return;
      if (file.attempts < MAX_ATTEMPTS && file.interruptions < MAX_INTERRUPTIONS) {
        await enqueue(file.id);
        return;
      }
      const error: ErrorBody = {
        error: "internal",
        message: "Processing was abandoned after repeated failures; the failure was logged.",
      };
      await worker.store.files.fail(file.id, error, new Date().toISOString());
      options.completion.notify(file.id);
      worker.onDeadLetter(file.id);
    });
  }
  // The depth gauge must answer synchronously: refresh a cached count in the background.
  const refresh = (): void => {
    boss.getQueueSize(JOB_QUEUE).then(
      (n) => {
        waitingCount = n;
      },
      () => undefined,
    );
  };
  const depthTimer = setInterval(refresh, 5000);
  depthTimer.unref();
  refresh();

  // The backlog over every process: queued, retrying and active jobs, counted at most once per BACKLOG_TTL_MS (one
  // query shared by concurrent uploads), plus what this process sent since the count began.
  let counted: { at: number; count: number; sentBefore: number } | undefined;
  let counting: Promise<void> | undefined;
  const recount = (): Promise<void> => {
    counting ??= (async () => {
      const sentBefore = sent;
      try {
        const count = await boss.getQueueSize(JOB_QUEUE, { before: "completed" });
        counted = { at: Date.now(), count, sentBefore };
      } catch (err) {
        // The database is unreachable: the upload fails at the insert anyway; keep the last count meanwhile.
        options.onError(err instanceof Error ? err : new Error(String(err)));
        if (counted) counted.at = Date.now();
      } finally {
        counting = undefined;
      }
    })();
    return counting;
  };
  const backlog = async (): Promise<number> => {
    if (!counted || Date.now() - counted.at >= BACKLOG_TTL_MS) await recount();
    return counted ? counted.count + (sent - counted.sentBefore) : sent;
  };

  return {
    enqueue,
    depth: () => waitingCount + running,
    backlog,
    wake() {
      for (const id of workerIds) boss.notifyWorker(id);
    },
    async sweep() {
      if (!worker) return 0;
      const ids = await worker.store.files.listNeverStarted();
      for (const id of ids) await enqueue(id);
      return ids.length;
    },
    async drain() {
      clearInterval(depthTimer);
      // Graceful: running jobs finish (up to the pool's own task timeout); waiting ones stay queued in PostgreSQL.
      await boss.stop({ graceful: true, wait: true, timeout: 10 * 60_000 });
      // A fetch sent just before the stop still delivers its job: it runs, and its completion is written, before the
      // pool ends (a query on an ended pool would reject with nobody listening).
      const settleBy = Date.now() + 10 * 60_000;
      while ((queries > 0 || running > 0) && Date.now() < settleBy) await delay(20);
      await pool.end();
    },
  };
}
