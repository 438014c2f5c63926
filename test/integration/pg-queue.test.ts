/**
 * The PostgreSQL queue and completion channel on the machine's server, in a fresh schema: completion signals cross
 * connections (and survive a dropped LISTEN session), a file enqueued twice runs once at a time, a job that keeps
 * failing is retried, then dead-lettered and its file marked FAILED, and a job dead-lettered for deliveries that were
 * not the file's fault (its process killed, shut down) is queued again and finishes.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { sql } from "kysely";
import pg from "pg";
import { MAX_ATTEMPTS } from "../../src/domain/attempts.js";
import type { JobHandler } from "../../src/queue/job-queue.js";
import { type PgCompletion, startPgCompletion } from "../../src/queue/pg-completion.js";
import { type PgQueue, pgQueueSettings, startPgQueue } from "../../src/queue/pg-queue.js";
import { DEFAULT_PG_QUEUE_TUNING } from "../../src/runtime/config.js";
import { openStorage, type Storage } from "../../src/store/open.js";
import { createTestSchema, type TestSchema } from "../helpers/pg-schema.js";

let schema: TestSchema;
let storage: Storage;
const errors: Error[] = [];
const onError = (err: Error): void => {
  errors.push(err);
};

before(async () => {
  schema = await createTestSchema("docsift_queue");
  storage = await openStorage("/nonexistent-unused", { databaseUrl: schema.url });
  await storage.store.tenants.create({ id: "t1", name: "t1", createdAt: new Date().toISOString() });
  await storage.store.clients.create({ id: "c1", name: "c1", tenantId: "t1", secretHash: "x", scopes: [] });
});
after(async () => {
  await storage.store.close();
  await schema.drop();
});

async function newFile(): Promise<string> {
  const id = randomUUID();
  await storage.store.files.insert({
    id,
    tenantId: "t1",
    clientId: "c1",
    workflow: "prediction",
    options: null,
    selection: { fieldSets: ["invoice"] },
    locale: null,
    tags: null,
    fileName: "a.pdf",
    type: "pdf",
    pageCount: 1,
    size: 10,
    parentId: null,
    uploadedAt: new Date().toISOString(),
  });
  return id;
}

test("a completion notified on one connection wakes a waiter on another, also after its LISTEN session dropped", async () => {
  const db = storage.postgres!.db;
  const a = await startPgCompletion({ url: schema.url, db, store: storage.store, onError });
  // A name of its own, so the test can find b's LISTEN session among every other client of the server.
  const appName = `docsift_listen_${randomUUID().slice(0, 8)}`;
  const bUrl = new URL(schema.url);
  bUrl.searchParams.set("application_name", appName);
  const b = await startPgCompletion({ url: bUrl.toString(), db, store: storage.store, onError });
  try {
    const first = await newFile();
    const woken = b.wait(first, 10_000);
    a.notify(first);
    assert.equal(await woken, true);

    // Cut b's LISTEN session, then finish a file with no notification at all (as if it was sent during the outage):
    // b reconnects and finds it finished in the store.
    const second = await newFile();
    const waiting = b.wait(second, 15_000);
    const killed = await sql<{ ok: boolean }>`
      SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = ${appName}`.execute(db);
    assert.deepEqual(
      killed.rows.map((r) => r.ok),
      [true],
    );
    await storage.store.files.finalise(
      second,
      { timestamp: new Date().toISOString(), fields: [] },
      new Date().toISOString(),
    );
    assert.equal(await waiting, true, "woken by the re-check after reconnecting");
  } finally {
    await a.close();
    await b.close();
  }
});

/** A queue that dead-letters a job after its first retry, with `handler` as the job runner. */
async function startQueue(handler: JobHandler): Promise<{ queue: PgQueue; completion: PgCompletion }> {
  const db = storage.postgres!.db;
  const completion = await startPgCompletion({ url: schema.url, db, store: storage.store, onError });
  const queue = await startPgQueue({
    url: schema.url,
    settings: {
      ...pgQueueSettings(schema.url, DEFAULT_PG_QUEUE_TUNING),
      retryLimit: 1,
      retryDelaySeconds: 1,
      pollingIntervalSeconds: 1,
    },
    completion,
    onError,
    worker: { handler, concurrency: 2, store: storage.store, onDeadLetter: () => undefined },
  });
  return { queue, completion };
}

test("one job per file at a time; a job that keeps failing is retried, dead-lettered and its file FAILED", async () => {
  const calls: string[] = [];
  let running = 0;
  let maxRunning = 0;
  const { queue, completion } = await startQueue(async (fileId) => {
    // Like a runner whose processing thread crashes on every attempt: the file's own failure, counted.
    calls.push(fileId);
    running++;
    maxRunning = Math.max(maxRunning, running);
    await storage.store.files.markFailedAttempt(fileId);
    await new Promise((r) => setTimeout(r, 300));
    running--;
    return "retry";
  });
  try {
    const fileId = await newFile();
    const done = completion.wait(fileId, 30_000);
    // Enqueued twice (a retried upload, the start-up sweep) to two idle workers: the singleton key allows one queued
    // and one running job per file, never two running.
    await queue.enqueue(fileId);
    await queue.enqueue(fileId);
    await queue.enqueue(fileId);
    assert.equal(await done, true, "the dead-letter handler signals completion");
    const file = await storage.store.files.getForJob(fileId);
    assert.equal(file?.status, "FAILED");
    assert.equal(file?.error?.error, "internal");
    assert.equal(maxRunning, 1, "never two deliveries of one file at once");
    // Dead-lettered with attempts to spare, the file was queued again until its failed attempts reached the bound.
    assert.ok(calls.length >= MAX_ATTEMPTS, `deliveries: ${calls.length}`);
  } finally {
    await queue.drain();
    await completion.close();
  }
});

test("a job dead-lettered for deliveries that were not the file's fault is queued again and finishes", async () => {
  let deliveries = 0;
  const { queue, completion } = await startQueue(async (fileId) => {
    // Like a job whose process was killed or shut down twice (pg-boss counts those deliveries too), then runs.
    if (++deliveries <= 2) return "retry";
    await storage.store.files.finalise(
      fileId,
      { timestamp: new Date().toISOString(), fields: [] },
      new Date().toISOString(),
    );
    completion.notify(fileId);
    return "done";
  });
  try {
    const fileId = await newFile();
    const done = completion.wait(fileId, 30_000);
    await queue.enqueue(fileId);
    assert.equal(await done, true);
    const file = await storage.store.files.getForJob(fileId);
    assert.equal(file?.status, "FINALISED", JSON.stringify(file?.error));
    assert.equal(deliveries, 3);
  } finally {
    await queue.drain();
    await completion.close();
  }
});

test("a fetch already sent when the queue drains still runs its job and records it done before the pool ends", async () => {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown): void => {
    rejections.push(reason);
  };
  process.on("unhandledRejection", onRejection);
  const db = storage.postgres!.db;
  const completion = await startPgCompletion({ url: schema.url, db, store: storage.store, onError });
  const ran: string[] = [];
  const settings = {
    ...pgQueueSettings(schema.url, DEFAULT_PG_QUEUE_TUNING),
    // One fetch on start, then none until woken: the test decides when the next fetch is sent.
    pollingIntervalSeconds: 60,
  };
  const queue = await startPgQueue({
    url: schema.url,
    settings,
    completion,
    onError,
    worker: {
      handler: async (fileId) => {
        ran.push(fileId);
        return "done";
      },
      concurrency: 1,
      store: storage.store,
      onDeadLetter: () => undefined,
    },
  });
  const locker = new pg.Client({ connectionString: schema.url });
  await locker.connect();
  let drained: Promise<void> | undefined;
  try {
    const fileId = await newFile();
    await queue.enqueue(fileId);
    // Hold the job table so the next fetch waits in PostgreSQL, then wake the worker into that fetch.
    await locker.query("BEGIN");
    await locker.query(`LOCK TABLE ${pg.escapeIdentifier(settings.schema)}.job IN ACCESS EXCLUSIVE MODE`);
    queue.wake();
    await waitFor(async () => {
      const { rows } = await locker.query<{ n: string }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%job%'",
      );
      return Number(rows[0]?.n) > 0;
    });
    // The drain begins while that fetch is in flight; then the fetch is let through and delivers the job.
    drained = queue.drain();
    await new Promise((r) => setTimeout(r, 300));
    await locker.query("COMMIT");
    await drained;
    assert.deepEqual(ran, [fileId], "the job the fetch delivered ran");
    const { rows } = await locker.query<{ state: string }>(
      `SELECT state FROM ${pg.escapeIdentifier(settings.schema)}.job WHERE data->>'fileId' = $1`,
      [fileId],
    );
    assert.deepEqual(
      rows.map((r) => r.state),
      ["completed"],
      "its completion was written before the pool ended",
    );
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(rejections, [], "no query was sent on the ended pool");
  } finally {
    await locker.query("ROLLBACK").catch(() => undefined);
    await locker.end();
    await drained?.catch(() => undefined);
    await completion.close();
    process.off("unhandledRejection", onRejection);
  }
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}
