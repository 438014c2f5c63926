/**
 * `docsift worker`: runs jobs only (no HTTP), against the PostgreSQL store and queue that API processes share. Any
 * number of these may run on any number of machines; each takes at most `--workers` jobs at once.
 */
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { pino } from "pino";
import { jobObserver } from "../api/job-observer.js";
import { startPgJobs } from "../queue/pg-runtime.js";
import { WorkerPool } from "../queue/worker-pool.js";
import { openStorage } from "../store/open.js";
import { PROCESSING_THREAD_URL, type ProcessingPool, processingLimits } from "../workflows/processing-tasks.js";
import { createJobRunner } from "../workflows/runner.js";
import {
  flagOrEnv,
  HELP_OPTION,
  integerOption,
  parseCommandLine,
  STORAGE_HELP,
  STORAGE_OPTIONS,
  storageFrom,
  UsageError,
} from "./args.js";

const HELP = `Usage: docsift worker [options]

Processes uploaded files from the shared PostgreSQL queue; API processes ("docsift serve --no-worker") take uploads
and answer results. Start as many workers, on as many machines, as the load needs.

Options (environment variable in brackets):
  --workers N           processing threads = jobs at once [DOCSIFT_WORKERS] (default: the number of cores)
${STORAGE_HELP}
  -h, --help            show this help

A database URL is required (the API processes' database); a blob URL must match theirs.

Environment:
  PGBOSS_SCHEMA=name                      pg-boss's schema (default pgboss)
  DOCSIFT_JOB_EXPIRE_SECONDS=N            a job active longer is re-delivered elsewhere (default 900)
  DOCSIFT_QUEUE_MAINTENANCE_SECONDS=N     how often expired jobs are looked for (default 30)
  DOCSIFT_JOB_RETRIES=N                   deliveries retried before a job is dead-lettered and its file FAILED (6)
  DOCSIFT_JOB_RETRY_DELAY_SECONDS=N       first retry delay, doubled each time (default 2)
  DOCSIFT_QUEUE_POLL_SECONDS=N            idle poll (new jobs also wake workers via NOTIFY; default 2)
  AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, S3_ENDPOINT or AWS_ENDPOINT_URL, S3_FORCE_PATH_STYLE
                                          S3 settings with a blob URL (a custom endpoint implies path style)
  LOG_LEVEL=level                         pino level (default info)

SIGTERM or SIGINT drains: stop taking jobs, finish running ones, exit 0. A worker killed outright loses nothing:
its jobs are re-delivered to another worker once they expire.
`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandLine(argv, { workers: { type: "string" }, ...STORAGE_OPTIONS, ...HELP_OPTION });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const env = process.env;
  const { dataDir, storage } = storageFrom(values, env);
  if (!storage.databaseUrl) {
    throw new UsageError("--database-url or DATABASE_URL is required (workers share the API processes' database)");
  }
  const workers =
    integerOption(...flagOrEnv("--workers", values.workers, "DOCSIFT_WORKERS", env), 1) ?? availableParallelism();
  const log = pino({ level: env.LOG_LEVEL ?? "info" });
  const { store, blobs, postgres } = await openStorage(resolve(dataDir), {
    ...storage,
    onDatabaseError: (err) => log.warn({ err }, "idle database connection lost; it is replaced"),
  });
  if (!postgres) throw new Error("unreachable: a database URL opens the PostgreSQL store");
  const pool: ProcessingPool = new WorkerPool({
    script: PROCESSING_THREAD_URL,
    size: workers,
    ...processingLimits(process.env),
  });
  const jobs = await startPgJobs({
    url: postgres.url,
    db: postgres.db,
    store,
    log,
    worker: {
      concurrency: pool.size,
      makeHandler: ({ completion, enqueue }) =>
        createJobRunner({
          store,
          blobs,
          pool,
          completion,
          enqueue,
          observer: jobObserver(log),
        }),
    },
  }).catch(async (err: unknown) => {
    await pool.close();
    await store.close();
    throw err;
  });
  log.info({ pid: process.pid, threads: pool.size }, "docsift worker ready");

  return new Promise<number>((resolveExit) => {
    const shutdown = (signal: NodeJS.Signals): void => {
      log.info({ signal }, "draining");
      (async () => {
        // The threads and connections close even when the drain fails, or they would keep the process alive.
        try {
          await jobs.close();
        } finally {
          await pool.close();
          await store.close();
        }
      })().then(
        () => resolveExit(0),
        (err: unknown) => {
          log.error({ err }, "shutdown failed");
          resolveExit(1);
        },
      );
    };
    process.once("SIGTERM", shutdown);
    process.once("SIGINT", shutdown);
  });
}
