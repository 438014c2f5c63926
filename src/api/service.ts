/**
 * Composes the service: storage, signing key, processing pool, queue, job runner and the app, then resumes
 * unfinished files. Embedded by default; with a database URL the store, queue and completion signals are in
 * PostgreSQL, shared with other API and worker processes. `stop()` drains: refuse new work, finish running jobs, release waiting requests, close.
 */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { pino } from "pino";
import { type CreatedClient, ensureBootstrapClient } from "../auth/clients.js";
import { openKeySet } from "../auth/signing-key.js";
import { type CompletionSignal, inProcessCompletion } from "../queue/completion.js";
import { embeddedQueue, type JobHandler, type JobQueue } from "../queue/job-queue.js";
import { startPgJobs } from "../queue/pg-runtime.js";
import { WorkerPool } from "../queue/worker-pool.js";
import { ensureDataDir, openStorage } from "../store/open.js";
import { isTransient } from "../store/transient-errors.js";
import type { Store } from "../store/types.js";
import { createRenderPool, openPageCache, pageImageSettings, pageImages } from "../workflows/page-images.js";
import {
  inspectLimits,
  PROCESSING_THREAD_URL,
  type ProcessingPool,
  processingLimits,
} from "../workflows/processing-tasks.js";
import { retentionDaysFromEnv, startRetention } from "../workflows/retention.js";
import { createJobRunner } from "../workflows/runner.js";
import { RunningJobs } from "../workflows/running-jobs.js";
import { orphanGraceMs, startOrphanSweeps } from "../workflows/sweep-orphans.js";
import { buildApp } from "./app.js";
import { jobObserver } from "./job-observer.js";
import { createMetrics } from "./metrics.js";
import type { RateLimitSettings } from "./rate-limit-hook.js";

export interface ServiceConfig {
  dataDir: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Processing threads; default: the machine's available parallelism. */
  workers?: number;
  /** Default and cap of a blocking result wait, ms. */
  resultWaitMs?: number;
  /** `id:secret` of the bootstrap client (DOCSIFT_BOOTSTRAP_CLIENT). */
  bootstrapClient?: string;
  /** pino level (fatal .. trace, or silent); default info. */
  logLevel?: string;
  /** postgres://... (DATABASE_URL): store and queue in PostgreSQL instead of the data directory. */
  databaseUrl?: string;
  /** s3://bucket/prefix (BLOB_URL): blobs in S3; only with databaseUrl. */
  blobUrl?: string;
  /** false: API only (`serve --no-worker`); jobs run in `docsift worker` processes. Needs databaseUrl. */
  runJobs?: boolean;
  /** Rate limits per client and, for tokens, per address (DOCSIFT_*RATE_LIMIT); default DEFAULT_RATE_LIMITS. */
  rateLimits?: RateLimitSettings;
  /** Files waiting or running past which uploads get 503 (DOCSIFT_MAX_QUEUE); 0 = no bound; default 1000. */
  maxQueue?: number;
  /** Whose X-Forwarded-For to believe for client addresses (DOCSIFT_TRUST_PROXY); default none. */
  trustProxy?: boolean | string;
  /** Files older than this many days are deleted in the background; default DOCSIFT_RETENTION_DAYS, else never. */
  retentionDays?: number;
}

export interface RunningService {
  app: FastifyInstance;
  /** Base URL, e.g. http://127.0.0.1:8080 */
  url: string;
  /** Set when this start created the first client: print its secret once. */
  bootstrap: CreatedClient | undefined;
  queue: JobQueue;
  store: Store;
  stop(): Promise<void>;
}

export const DEFAULT_RESULT_WAIT_MS = 120_000;
/**
 * Threads of the inspect pool. One: an honest inspection takes milliseconds, and each thread costs the process about
 * 300 MB (measured under tsx), which the peak-memory budget cannot spare twice; a hostile file holds it at most
 * DOCSIFT_INSPECT_TIMEOUT_MS, uploads meanwhile waiting their turn.
 */
const INSPECT_THREADS = 1;
/** Embedded mode: a job cut by a storage outage (disk full, SQLite busy) runs again after this. */
const TRANSIENT_RETRY_MS = 3000;

export async function startService(config: ServiceConfig): Promise<RunningService> {
  const log = pino({
    level: config.logLevel ?? "info",
    // Secrets never reach the logs, whatever a log call passes in.
    redact: ["req.headers.authorization", "req.headers.cookie", "*.client_secret", "*.clientSecret", "*.access_token"],
  });
  if (config.runJobs === false && !config.databaseUrl) {
    throw new Error("--no-worker needs DATABASE_URL: without a shared queue no other process would run the jobs");
  }
  const graceMs = orphanGraceMs(process.env);
  // Owner-only before anything lands in it (PostgreSQL mode too: the page cache lives there).
  await ensureDataDir(config.dataDir);
  const { store, blobs, postgres } = await openStorage(config.dataDir, {
    databaseUrl: config.databaseUrl,
    blobUrl: config.blobUrl,
    onDatabaseError: (err) => log.warn({ err }, "idle database connection lost; it is replaced"),
  });
  const bootstrap = await ensureBootstrapClient(store, config.bootstrapClient);
  // The key set is in the store, shared with every other process; a data dir from before key sets brings its key.
  const keys = await openKeySet(store.signingKeys, join(config.dataDir, "jwt-key.json"));

  const renderSettings = pageImageSettings(process.env);
  const pageCache = await openPageCache(config.dataDir, renderSettings);
  // The gauges read the queue and the render pool only when scraped, after start-up.
  const metrics = createMetrics(
    () => queue.depth(),
    () => renderPool.busy,
  );
  const pool: ProcessingPool = new WorkerPool({
    script: PROCESSING_THREAD_URL,
    size: config.workers ?? availableParallelism(),
    ...processingLimits(process.env),
    onEvent: (event) => {
      metrics.pages.labels(event.source).inc();
      if (event.source === "ocr") metrics.ocrSeconds.inc(event.ms / 1000);
    },
  });
  // Upload inspections run here, apart from the extraction pool (an upload never waits behind OCR) and off the
  // event loop (a parser attack costs one of these threads, up to its own time and heap limit, never the API).
  const inspectPool: ProcessingPool = new WorkerPool({
    script: PROCESSING_THREAD_URL,
    size: INSPECT_THREADS,
    ...inspectLimits(process.env),
  });
  // Page images render in their own threads, so a flood of them never takes a thread extraction needs.
  const renderPool = createRenderPool(renderSettings, process.env);
  const images = pageImages({
    pool: renderPool,
    blobs,
    cache: pageCache,
    observer: {
      rendered: () => metrics.pageRenders.inc(),
      cacheHit: () => metrics.pageCacheHits.inc(),
      rejected: () => metrics.pageRendersRejected.inc(),
      cacheFailed: (err) => log.warn({ err }, "a rendered page could not be cached"),
    },
  });
  // Jobs of this process, so that deleting a file stops its job here at once.
  const running = new RunningJobs();
  const makeRunner = (completion: CompletionSignal, enqueue: (fileId: string) => Promise<void>): JobHandler =>
    createJobRunner({
      store,
      blobs,
      pool,
      completion,
      enqueue,
      running,
      observer: jobObserver(log, metrics),
    });
  // PostgreSQL mode: pg-boss queue and LISTEN/NOTIFY completion shared with every other process; else in-process.
  const pgJobs =
    postgres &&
    (await startPgJobs({
      url: postgres.url,
      db: postgres.db,
      store,
      log,
      worker:
        config.runJobs === false
          ? undefined
          : { concurrency: pool.size, makeHandler: (deps) => makeRunner(deps.completion, deps.enqueue) },
    }).catch(async (err: unknown) => {
      await Promise.all([pool.close(), inspectPool.close(), renderPool.close()]);
      await store.close();
      throw err;
    }));
  const completion: CompletionSignal = pgJobs ? pgJobs.completion : inProcessCompletion();
  const queue: JobQueue = pgJobs
    ? pgJobs.queue
    : embeddedQueue({
        concurrency: pool.size,
        // Split parents queue their children; the queue exists by the time any job runs.
        handler: makeRunner(completion, (fileId) => queue.enqueue(fileId)),
        onError: (fileId, err) => log.error({ fileId, err }, "job failed unexpectedly; it resumes on the next start"),
        retryDelayMs: (fileId, err) => {
          if (!isTransient(err)) return undefined;
          log.warn({ fileId, err }, "storage unavailable during a job; it runs again shortly");
          return TRANSIENT_RETRY_MS;
        },
      });

  let draining = false;
  const app = await buildApp({
    store,
    blobs,
    queue,
    completion,
    inspectPool,
    pageImages: images,
    running,
    pageCache,
    keys,
    metrics,
    maxWaitMs: config.resultWaitMs ?? DEFAULT_RESULT_WAIT_MS,
    isDraining: () => draining,
    logger: log,
    rateLimits: config.rateLimits,
    maxQueue: config.maxQueue,
    trustProxy: config.trustProxy,
  });

  const address = await app.listen({ host: config.host, port: config.port }).catch(async (err: unknown) => {
    await Promise.allSettled([app.close(), pool.close(), inspectPool.close(), renderPool.close(), pgJobs?.close()]);
    await store.close();
    throw err;
  });
  // Resume what a previous process accepted but did not finish (crash, kill -9, power cut). PostgreSQL mode: the
  // queue is durable and pg-boss re-delivers abandoned jobs itself.
  if (!pgJobs) {
    const unfinished = await store.files.listUnfinished();
    for (const fileId of unfinished) await queue.enqueue(fileId);
    if (unfinished.length > 0) log.info({ count: unfinished.length }, "resumed unfinished files");
  }
  const retentionDays = config.retentionDays ?? retentionDaysFromEnv(process.env);
  const retention =
    retentionDays === undefined
      ? undefined
      : startRetention(
          { store, blobs, completion, running, pageCache },
          {
            days: retentionDays,
            onSwept: (count) => {
              metrics.retentionDeleted.inc(count);
              if (count > 0) log.info({ count, retentionDays }, "deleted files past their retention");
            },
            onError: (err) => log.warn({ err }, "retention sweep failed; it runs again at the next interval"),
            onBlobFailure: (fileId, err) => log.warn({ fileId, err }, "a deleted file's blob could not be removed"),
          },
        );
  // Crash leftovers (partial blob writes, blobs without a row): at start, and in PostgreSQL mode, where processes run
  // for long beside others that may crash, every grace period.
  const orphans = startOrphanSweeps(
    { store, blobs },
    {
      graceMs,
      periodic: postgres !== undefined,
      onSwept: (counts) => {
        metrics.orphansRemoved.labels("temporary").inc(counts.temporary);
        metrics.orphansRemoved.labels("blob").inc(counts.blob);
        if (counts.temporary + counts.blob > 0) log.info(counts, "removed leftovers of crashes from the blob store");
      },
      onError: (err) => log.warn({ err }, "orphan sweep failed; it runs again at the next start or interval"),
    },
  );

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      draining = true;
      // Every step runs even when one before it fails: a stop that throws must not leave the process alive on the
      // threads, sockets and connections it did not get to.
      await inOrder([
        () => retention?.stop(),
        () => orphans.stop(),
        () => (pgJobs ? pgJobs.close() : queue.drain()),
        () => completion.releaseAll(),
        // Requests waiting on a render answer shutting_down now rather than hold the close up.
        () => renderPool.close(),
        () => app.close(),
        () => Promise.all([pool.close(), inspectPool.close()]),
        () => store.close(),
      ]);
    })();
    return stopping;
  };
  return { app, url: address, bootstrap, queue, store, stop };
}

/** Runs every step in turn, whatever fails; then throws the first failure, if any. */
async function inOrder(steps: (() => unknown)[]): Promise<void> {
  const failures: unknown[] = [];
  for (const step of steps) {
    try {
      await step();
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length > 0) throw failures[0];
}
