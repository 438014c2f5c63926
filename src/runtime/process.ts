/**
 * Builds a docsift process from a Config: `docsift serve` (the HTTP API, running jobs too unless --no-worker),
 * `docsift worker` (jobs only, on the shared PostgreSQL queue) and `startService` (the library's embedded service).
 * Embedded by default; with a database URL the store, queue and completion signals are in PostgreSQL, shared with
 * other API and worker processes. `stop()` drains: refuse new work, finish running jobs, release waiting requests,
 * close.
 */
import { join, resolve } from "node:path";
import type { FastifyInstance } from "fastify";
import { type Logger, pino } from "pino";
import { type AppDeps, buildApp } from "../api/app.js";
import { createMetrics, type ServiceMetrics, watchWebhookBacklog } from "../api/metrics.js";
import { type CreatedClient, ensureBootstrapClient } from "../auth/clients.js";
import { type KeySet, openKeySet } from "../auth/signing-key.js";
import type { JobQueue } from "../queue/job-queue.js";
import { ensureDataDir, openStorage, type Storage } from "../store/open.js";
import type { PageCache } from "../store/page-cache.js";
import type { Store } from "../store/types.js";
import { buildWorkflows } from "../workflows/facade.js";
import { createRenderPool, openPageCache, type PageImages, pageImages } from "../workflows/page-images.js";
import { startRetention } from "../workflows/retention.js";
import { RunningJobs } from "../workflows/running-jobs.js";
import { startOrphanSweeps } from "../workflows/sweep-orphans.js";
import { PROCESSING_THREAD_URL, type ProcessingPool } from "../workflows/threads/processing-tasks.js";
import { WorkerPool } from "../workflows/threads/worker-pool.js";
import { type Config, ConfigError, fromServiceConfig, type ServiceConfig } from "./config.js";
import { type Jobs, startJobs } from "./jobs.js";

export type { ServiceConfig } from "./config.js";

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

export interface RunningWorker {
  log: Logger;
  /** Jobs run at once. */
  threads: number;
  stop(): Promise<void>;
}

/**
 * Threads of the inspect pool. One: an honest inspection takes milliseconds, and each thread costs the process about
 * 300 MB (measured under tsx), which the peak-memory budget cannot spare twice; a hostile file holds it at most
 * DOCSIFT_INSPECT_TIMEOUT_MS, uploads meanwhile waiting their turn.
 */
const INSPECT_THREADS = 1;

function createLogger(config: Config): Logger {
  return pino({
    level: config.logLevel,
    // Secrets never reach the logs, whatever a log call passes in.
    redact: ["req.headers.authorization", "req.headers.cookie", "*.client_secret", "*.clientSecret", "*.access_token"],
  });
}

function openConfiguredStorage(config: Config, log: Logger): Promise<Storage> {
  const { dataDir, databaseUrl, blobUrl, s3 } = config.storage;
  return openStorage(resolve(dataDir), {
    databaseUrl,
    blobUrl,
    s3,
    onDatabaseError: (err) => log.warn({ err }, "idle database connection lost; it is replaced"),
  });
}

/** The embedded service of the library entry: ServiceConfig's fields, the rest of the Config from the environment. */
export async function startService(config: ServiceConfig): Promise<RunningService> {
  return startServer(fromServiceConfig(config));
}

/** What the HTTP app is built from: everything the process holds that a route may reach. */
interface HttpParts {
  config: Config;
  log: Logger;
  storage: Storage;
  jobs: Jobs;
  inspectPool: ProcessingPool;
  images: PageImages;
  pageCache: PageCache | undefined;
  running: RunningJobs;
  keys: KeySet;
  metrics: ServiceMetrics;
  isDraining: () => boolean;
}

/** The Fastify app's dependencies, built from the process: the one place the HTTP part is wired. */
function appDeps(parts: HttpParts): AppDeps {
  const { config, storage, jobs } = parts;
  return {
    workflows: buildWorkflows({
      store: storage.store,
      blobs: storage.blobs,
      queue: jobs.queue,
      completion: jobs.completion,
      inspectPool: parts.inspectPool,
      pageImages: parts.images,
      running: parts.running,
      pageCache: parts.pageCache,
      webhooks: { box: jobs.webhookBox, settings: config.webhooks },
    }),
    keys: parts.keys,
    metrics: parts.metrics,
    maxWaitMs: config.http.resultWaitMs,
    isDraining: parts.isDraining,
    logger: parts.log,
    rateLimits: config.http.rateLimits,
    maxQueue: config.http.maxQueue,
    trustProxy: config.http.trustProxy,
  };
}

/** `docsift serve`: storage, signing keys, pools, queue and runner, the app, then unfinished files resumed. */
export async function startServer(config: Config): Promise<RunningService> {
  if (!config.jobs.run && !config.storage.databaseUrl) {
    throw new ConfigError("--no-worker needs DATABASE_URL: without a shared queue no other process would run the jobs");
  }
  const log = createLogger(config);
  const dataDir = resolve(config.storage.dataDir);
  // Owner-only before anything lands in it (PostgreSQL mode too: the page cache lives there).
  await ensureDataDir(dataDir);
  const storage = await openConfiguredStorage(config, log);
  const { store, blobs, postgres } = storage;
  const bootstrap = await ensureBootstrapClient(store, config.http.bootstrapClient);
  // The key set is in the store, shared with every other process; a data dir from before key sets brings its key.
  const keys = await openKeySet(store.signingKeys, join(dataDir, "jwt-key.json"));

  const pageCache = await openPageCache(dataDir, config.pageImages);
  // The gauges read the queue and the render pool only when scraped, after start-up.
  const metrics = createMetrics(
    () => jobs.queue.depth(),
    () => renderPool.busy,
  );
  watchWebhookBacklog(metrics, () => store.webhooks.backlog());
  // Upload inspections run here, apart from the extraction pool (an upload never waits behind OCR) and off the
  // event loop (a parser attack costs one of these threads, up to its own time and heap limit, never the API).
  const inspectPool: ProcessingPool = new WorkerPool({
    script: PROCESSING_THREAD_URL,
    size: INSPECT_THREADS,
    ...config.jobs.inspectLimits,
  });
  // Page images render in their own threads, so a flood of them never takes a thread extraction needs.
  const renderPool = createRenderPool(config.pageImages, config.jobs.limits);
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
  const running = new RunningJobs();
  const jobs = await startJobs({ config, log, storage, running, metrics }).catch(async (err: unknown) => {
    await Promise.all([inspectPool.close(), renderPool.close()]);
    await store.close();
    throw err;
  });

  let draining = false;
  const app = await buildApp(
    appDeps({
      config,
      log,
      storage,
      jobs,
      inspectPool,
      images,
      pageCache,
      running,
      keys,
      metrics,
      isDraining: () => draining,
    }),
  );
  const { host, port } = config.http;
  const address = await app.listen({ host, port }).catch(async (err: unknown) => {
    await Promise.allSettled([app.close(), jobs.pool.close(), inspectPool.close(), renderPool.close(), jobs.drain()]);
    await store.close();
    throw err;
  });
  // Resume what a previous process accepted but did not finish (crash, kill -9, power cut). PostgreSQL mode: the
  // queue is durable and pg-boss re-delivers abandoned jobs itself.
  if (!jobs.durable) {
    const unfinished = await store.files.listUnfinished();
    for (const fileId of unfinished) await jobs.queue.enqueue(fileId);
    if (unfinished.length > 0) log.info({ count: unfinished.length }, "resumed unfinished files");
  }
  const { retentionDays } = config.jobs;
  const retention =
    retentionDays === undefined
      ? undefined
      : startRetention(
          { store, blobs, completion: jobs.completion, running, pageCache },
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
      graceMs: config.jobs.orphanGraceMs,
      periodic: postgres !== undefined,
      onSwept: (counts) => {
        metrics.orphansRemoved.labels("temporary").inc(counts.temporary);
        metrics.orphansRemoved.labels("blob").inc(counts.blob);
        if (counts.temporary + counts.blob > 0) log.info(counts, "removed leftovers of crashes from the blob store");
      },
      onError: (err) => log.warn({ err }, "orphan sweep failed; it runs again at the next start or interval"),
    },
  );

  const stop = once(async () => {
    draining = true;
    await inOrder([
      () => retention?.stop(),
      () => orphans.stop(),
      () => jobs.drain(),
      () => jobs.completion.releaseAll(),
      // Requests waiting on a render answer shutting_down now rather than hold the close up.
      () => renderPool.close(),
      () => app.close(),
      () => Promise.all([jobs.pool.close(), inspectPool.close()]),
      () => store.close(),
    ]);
  });
  return { app, url: address, bootstrap, queue: jobs.queue, store, stop };
}

/** `docsift worker`: jobs only, no HTTP, against the PostgreSQL store and queue the API processes share. */
export async function startWorker(config: Config): Promise<RunningWorker> {
  if (!config.storage.databaseUrl) {
    throw new ConfigError("--database-url or DATABASE_URL is required (workers share the API processes' database)");
  }
  const log = createLogger(config);
  const storage = await openConfiguredStorage(config, log);
  const jobs = await startJobs({ config, log, storage }).catch(async (err: unknown) => {
    await storage.store.close();
    throw err;
  });
  const stop = once(() => inOrder([() => jobs.drain(), () => jobs.pool.close(), () => storage.store.close()]));
  return { log, threads: jobs.pool.size, stop };
}

/** The first call runs `stop`; every call returns its promise. */
function once(stop: () => Promise<void>): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= stop();
    return stopping;
  };
}

/**
 * Runs every step in turn, whatever fails; then throws the first failure, if any: a stop that throws must not leave
 * the process alive on the threads, sockets and connections it did not get to.
 */
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
