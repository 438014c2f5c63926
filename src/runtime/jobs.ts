/**
 * The job side of a process, the same in `serve` and `worker`: the processing pool, the job runner, and the queue
 * with its completion signals. PostgreSQL mode: the pg-boss queue and LISTEN/NOTIFY completion shared with every
 * other process; embedded: both in-process.
 */
import type { Logger } from "pino";
import type { ServiceMetrics } from "../api/metrics.js";
import { type CompletionSignal, inProcessCompletion } from "../queue/completion.js";
import { type DeliveryLoop, startDeliveryLoop } from "../queue/delivery-loop.js";
import { embeddedQueue, type JobHandler, type JobQueue } from "../queue/job-queue.js";
import type { Storage } from "../store/open.js";
import { isTransient } from "../store/transient-errors.js";
import type { ClaimedDelivery } from "../store/webhook-types.js";
import type { SecretBox } from "../webhooks/secret.js";
import { createJobRunner } from "../workflows/runner.js";
import type { RunningJobs } from "../workflows/running-jobs.js";
import {
  PROCESSING_THREAD_URL,
  type ProcessingPool,
  type ProcessingThreadData,
} from "../workflows/threads/processing-tasks.js";
import { WorkerPool } from "../workflows/threads/worker-pool.js";
import {
  attemptDelivery,
  claimDeliveries,
  type DeliveryDeps,
  openSecretBox,
  successRecorder,
} from "../workflows/webhooks.js";
import type { Config } from "./config.js";
import { jobObserver } from "./job-observer.js";
import { startPgJobs } from "./pg-jobs.js";

/** Embedded mode: a job cut by a storage outage (disk full, SQLite busy) runs again after this. */
const TRANSIENT_RETRY_MS = 3000;
/** Webhook attempts under way at once in one process (each waits on a receiver, up to 10 s). */
const WEBHOOK_CONCURRENCY = 16;
/** How soon a process sees deliveries other processes wrote or released (its own are seen at once). */
const WEBHOOK_POLL_MS = 1000;

export interface JobsDeps {
  config: Config;
  log: Logger;
  storage: Storage;
  /** Jobs of this process, so that deleting a file stops its job here at once (API processes). */
  running?: RunningJobs;
  /** Where the process serves metrics: pages, OCR time, processing time and failures are counted. */
  metrics?: ServiceMetrics;
}

export interface Jobs {
  pool: ProcessingPool;
  queue: JobQueue;
  completion: CompletionSignal;
  /** PostgreSQL mode: pg-boss re-delivers abandoned jobs itself; embedded, unfinished files are queued at start. */
  durable: boolean;
  /** Seals and opens webhook signing secrets (the API's webhook routes use it too). */
  webhookBox: SecretBox;
  /** Stops taking jobs and waits for running ones (then closes the queue's connections); the pool stays open. */
  drain(): Promise<void>;
}

/**
 * The webhook delivery loop over the outbox (queue/delivery-loop.ts), woken by this process's own writes. Embedded,
 * this process is the only one delivering: leases left by a killed predecessor are freed at once, so its
 * undelivered events go now rather than when the leases run out.
 */
async function startWebhookDelivery(
  deps: DeliveryDeps,
  shared: boolean,
  log: Logger,
  metrics: ServiceMetrics | undefined,
): Promise<DeliveryLoop> {
  const { store } = deps;
  if (!shared) {
    const released = await store.webhooks.releaseLeases();
    if (released > 0) log.info({ count: released }, "resumed webhook deliveries cut by the last stop");
  }
  const loop = startDeliveryLoop<ClaimedDelivery>({
    concurrency: WEBHOOK_CONCURRENCY,
    claim: (limit) => claimDeliveries(deps, limit),
    attempt: async (claimed) => {
      const outcome = await attemptDelivery(deps, claimed);
      metrics?.webhookDeliveries.labels(outcome).inc();
      if (outcome === "failed") {
        log.warn({ webhookId: claimed.webhook.id, eventId: claimed.delivery.eventId }, "webhook delivery given up");
      }
    },
    nextDueIn: async () => {
      const due = await store.webhooks.nextDue(new Date().toISOString());
      return due === null ? undefined : Date.parse(due) - Date.now();
    },
    maxIdleMs: WEBHOOK_POLL_MS,
    onError: (err) => log.warn({ err }, "webhook delivery failed unexpectedly; it is retried when its lease runs out"),
  });
  const unsubscribe = store.webhooks.onWritten(() => loop.wake());
  return {
    wake: () => loop.wake(),
    async stop() {
      unsubscribe();
      await loop.stop();
    },
  };
}

export async function startJobs({ config, log, storage, running, metrics }: JobsDeps): Promise<Jobs> {
  const { store, blobs, postgres } = storage;
  const webhookBox = await openSecretBox(store);
  const webhooks = await startWebhookDelivery(
    { store, box: webhookBox, settings: config.webhooks, recordSuccess: successRecorder(store) },
    postgres !== undefined,
    log,
    metrics,
  );
  const workerData: ProcessingThreadData = { ocr: config.ocr };
  const pool: ProcessingPool = new WorkerPool({
    script: PROCESSING_THREAD_URL,
    size: config.jobs.threads,
    ...config.jobs.limits,
    workerData,
    onEvent: metrics
      ? (event) => {
          metrics.pages.labels(event.source).inc();
          if (event.source === "ocr") metrics.ocrSeconds.inc(event.ms / 1000);
        }
      : undefined,
  });
  const makeRunner = (completion: CompletionSignal, enqueue: (fileId: string) => Promise<void>): JobHandler =>
    createJobRunner({ store, blobs, pool, completion, enqueue, running, observer: jobObserver(log, metrics) });

  if (postgres) {
    const pgJobs = await startPgJobs({
      url: postgres.url,
      db: postgres.db,
      store,
      log,
      tuning: config.jobs.queue,
      worker: config.jobs.run
        ? { concurrency: pool.size, makeHandler: (deps) => makeRunner(deps.completion, deps.enqueue) }
        : undefined,
    }).catch(async (err: unknown) => {
      await Promise.all([pool.close(), webhooks.stop()]);
      throw err;
    });
    return {
      pool,
      queue: pgJobs.queue,
      completion: pgJobs.completion,
      durable: true,
      webhookBox,
      drain: () => pgJobs.close().finally(() => webhooks.stop()),
    };
  }
  const completion = inProcessCompletion();
  const queue: JobQueue = embeddedQueue({
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
  return {
    pool,
    queue,
    completion,
    durable: false,
    webhookBox,
    drain: () => queue.drain().finally(() => webhooks.stop()),
  };
}
