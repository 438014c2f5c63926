/**
 * `docsift worker`: runs jobs only (no HTTP), against the PostgreSQL store and queue that API processes share. Any
 * number of these may run on any number of machines; each takes at most `--workers` jobs at once.
 */
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { pino } from "pino";
import { jobObserver } from "../api/job-observer.js";
import { startPgJobs } from "../queue/pg-runtime.js";
import { WorkerPool } from "../queue/worker-pool.js";
import { openStorage, storageOptionsFromEnv } from "../store/open.js";
import { PROCESSING_THREAD_URL, type ProcessingPool, processingLimits } from "../workflows/processing-tasks.js";
import { createJobRunner } from "../workflows/runner.js";

const HELP = `Usage: docsift worker [options]

Processes uploaded files from the shared PostgreSQL queue; API processes ("docsift serve --no-worker") take uploads
and answer results. Start as many workers, on as many machines, as the load needs.

Options (environment variable in brackets):
  --workers N     processing threads = jobs at once [DOCSIFT_WORKERS] (default: the number of cores)
  -h, --help      show this help

Environment:
  DATABASE_URL=postgres://...             required: the database the API processes use
  BLOB_URL=s3://bucket/prefix             blobs in S3 (default: in PostgreSQL); must match the API processes
  PGBOSS_SCHEMA=name                      pg-boss's schema (default pgboss)
  DOCSIFT_JOB_EXPIRE_SECONDS=N            a job active longer is re-delivered elsewhere (default 900)
  DOCSIFT_QUEUE_MAINTENANCE_SECONDS=N     how often expired jobs are looked for (default 30)
  DOCSIFT_JOB_RETRIES=N                   deliveries retried before a job is dead-lettered and its file FAILED (6)
  DOCSIFT_JOB_RETRY_DELAY_SECONDS=N       first retry delay, doubled each time (default 2)
  DOCSIFT_QUEUE_POLL_SECONDS=N            idle poll (new jobs also wake workers via NOTIFY; default 2)
  AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, S3_ENDPOINT or AWS_ENDPOINT_URL, S3_FORCE_PATH_STYLE
                                          S3 settings when BLOB_URL is set (a custom endpoint implies path style)
  LOG_LEVEL=level                         pino level (default info)

SIGTERM or SIGINT drains: stop taking jobs, finish running ones, exit 0. A worker killed outright loses nothing:
its jobs are re-delivered to another worker once they expire.
`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      workers: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const env = process.env;
  const storageOptions = storageOptionsFromEnv(env);
  if (!storageOptions.databaseUrl) {
    process.stderr.write("docsift worker: DATABASE_URL is required (workers share the API processes' database)\n");
    return 2;
  }
  const rawWorkers = values.workers ?? env.DOCSIFT_WORKERS;
  const workers = rawWorkers ? Number(rawWorkers) : availableParallelism();
  if (!Number.isInteger(workers) || workers < 1) {
    process.stderr.write(`docsift worker: --workers must be an integer >= 1, got "${rawWorkers}"\n`);
    return 2;
  }
  const log = pino({ level: env.LOG_LEVEL ?? "info" });
  const { store, blobs, postgres } = await openStorage(resolve(env.DOCSIFT_DATA ?? "./data"), {
    ...storageOptions,
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
        await jobs.close();
        await pool.close();
        await store.close();
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
