/**
 * Crash handling with real threads, a real SQLite store and real blobs. The processing thread here is a tiny
 * module that exits mid-task: fault injection for the pool and the runner, which never see ingest.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { MAX_ATTEMPTS } from "../../src/domain/attempts.js";
import { inProcessCompletion } from "../../src/queue/completion.js";
import { openStorage } from "../../src/store/open.js";
import { createJobRunner } from "../../src/workflows/runner.js";
import type { ProcessingPool } from "../../src/workflows/threads/processing-tasks.js";
import { WorkerCrashError, WorkerPool } from "../../src/workflows/threads/worker-pool.js";

/** Exits the thread for a predict task; answers a render task with an empty PNG buffer. */
const CRASHING_THREAD = new URL(
  `data:text/javascript,${encodeURIComponent(`
    import { parentPort } from "node:worker_threads";
    parentPort.on("message", (task) => {
      if (task.kind === "predict") process.exit(3);
      parentPort.postMessage({ kind: "done", result: { kind: "render", png: new Uint8Array(0) } });
    });
  `)}`,
);

test("a thread that dies mid-task rejects that task with WorkerCrashError and is replaced", async () => {
  const pool: ProcessingPool = new WorkerPool({ script: CRASHING_THREAD, size: 1 });
  try {
    const predict = {
      kind: "predict",
      bytes: new Uint8Array(1),
      selection: {},
      locale: null,
      pageConcurrency: 1,
    } as const;
    await assert.rejects(pool.run(predict), WorkerCrashError);
    const rendered = await pool.run({ kind: "render", bytes: new Uint8Array(1), pageNum: 1 });
    assert.equal(rendered.kind, "render");
  } finally {
    await pool.close();
  }
});

test("a task that never answers is cut at the pool's task timeout and its thread replaced", async () => {
  const silent = new URL(
    `data:text/javascript,${encodeURIComponent(`
      import { parentPort } from "node:worker_threads";
      parentPort.on("message", (task) => {
        if (task.kind === "render") parentPort.postMessage({ kind: "done", result: { kind: "render", png: new Uint8Array(0) } });
      });
    `)}`,
  );
  const pool: ProcessingPool = new WorkerPool({ script: silent, size: 1, taskTimeoutMs: 1000 });
  try {
    const predict = {
      kind: "predict",
      bytes: new Uint8Array(1),
      selection: {},
      locale: null,
      pageConcurrency: 1,
    } as const;
    await assert.rejects(pool.run(predict), /still running/);
    assert.equal((await pool.run({ kind: "render", bytes: new Uint8Array(1), pageNum: 1 })).kind, "render");
  } finally {
    await pool.close();
  }
});

test("a job whose thread keeps crashing is retried, then FAILED with internal after MAX_ATTEMPTS", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "docsift-retry-"));
  const { store, blobs } = await openStorage(dataDir);
  const pool: ProcessingPool = new WorkerPool({ script: CRASHING_THREAD, size: 1 });
  try {
    await store.tenants.create({ id: "t1", name: "t1", createdAt: new Date().toISOString() });
    await store.clients.create({ id: "c1", name: "c1", tenantId: "t1", secretHash: "x", scopes: [] });
    const fileId = "6f1c1c2e-5a55-4b6e-9c43-0d6b5b1f0a01";
    await blobs.put(fileId, new Uint8Array([1, 2, 3]));
    await store.files.insert({
      id: fileId,
      tenantId: "t1",
      clientId: "c1",
      workflow: "prediction",
      options: null,
      selection: { fieldSets: ["invoice"] },
      locale: null,
      tags: null,
      fileName: null,
      type: "pdf",
      pageCount: 1,
      size: 3,
      parentId: null,
      uploadedAt: new Date().toISOString(),
    });
    const completion = inProcessCompletion();
    const failures: string[] = [];
    const runner = createJobRunner({
      store,
      blobs,
      pool,
      completion,
      observer: { finalised: () => {}, failed: (_f, code) => failures.push(code), retried: () => {} },
    });
    const outcomes = [];
    for (let i = 0; i < MAX_ATTEMPTS; i++) outcomes.push(await runner(fileId));
    assert.deepEqual(outcomes, [...Array(MAX_ATTEMPTS - 1).fill("retry"), "done"]);
    const file = await store.files.getForJob(fileId);
    assert.equal(file?.status, "FAILED");
    assert.equal(file?.attempts, MAX_ATTEMPTS);
    assert.equal(file?.error?.error, "internal");
    assert.deepEqual(failures, ["internal"]);
  } finally {
    await pool.close();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
