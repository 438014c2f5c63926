/**
 * The pool's limits with real threads and real child processes: a task over its time limit ends `timeout` (not a
 * crash), a thread over its heap limit ends `unusable_document`, and whenever a task is cut (time limit, crash,
 * close) no child process it reported is left running, whether the thread stops them itself or is stuck.
 * The threads are tiny modules given as data: URLs; the child is `sleep`, standing in for a hung tesseract.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { DocsiftError } from "../../src/domain/errors.js";
import { POOL_ABORT, PoolFullError, WorkerCrashError, WorkerPool } from "../../src/workflows/threads/worker-pool.js";
import { isRunning } from "../helpers/processes.js";

type Task = { kind: "sleep-child" | "ping" | "allocate" | "exit" | "count" };
type Result = { pid?: number; pong?: true; received?: number };

/**
 * `sleep-child` starts `sleep 1000`, reports it, and then, by `mode`: waits (and kills the child on POOL_ABORT, as
 * the processing thread does), blocks its event loop for good (a thread stuck in synchronous code), or exits.
 * `ping` answers at once; `count` answers how many tasks this thread received; `allocate` fills the heap.
 */
function threadScript(mode: "cooperative" | "stuck" | "exits"): URL {
  return new URL(
    `data:text/javascript,${encodeURIComponent(`
      import { spawn } from "node:child_process";
      import { parentPort } from "node:worker_threads";
      let child;
      let received = 0;
      parentPort.on("message", (task) => {
        if (task !== ${JSON.stringify(POOL_ABORT)}) received++;
        if (task.kind === "count") return parentPort.postMessage({ kind: "done", result: { received } });
        if (task === ${JSON.stringify(POOL_ABORT)}) {
          child?.kill("SIGKILL");
          child?.once("exit", () => parentPort.postMessage({ kind: "error", code: "timeout", message: "aborted" }));
          return;
        }
        if (task.kind === "ping") return parentPort.postMessage({ kind: "done", result: { pong: true } });
        if (task.kind === "allocate") {
          const hoard = [];
          for (;;) hoard.push(new Array(100000).fill({ at: hoard.length }));
        }
        child = spawn("sleep", ["1000"], { stdio: "ignore" });
        parentPort.postMessage({ kind: "child", pid: child.pid, running: true });
        child.once("exit", () => parentPort.postMessage({ kind: "child", pid: child.pid, running: false }));
        if (${JSON.stringify(mode)} === "stuck") {
          // Let the child report leave first, then never yield again.
          setTimeout(() => { for (;;) {} }, 50);
        }
        if (${JSON.stringify(mode)} === "exits") setTimeout(() => process.exit(7), 200);
      });
    `)}`,
  );
}

/** Pids of the `sleep 1000` children of this process (any thread's), from /proc. */
function sleepChildren(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!pid) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === process.pid && readFileSync(`/proc/${pid}/cmdline`, "utf8") === "sleep\u00001000\u0000")
        pids.push(pid);
    } catch {
      // ended meanwhile
    }
  }
  return pids;
}

describe("worker pool limits", () => {
  test("a task over its time limit rejects with timeout, its child is killed, and the thread is replaced", async () => {
    const pool = new WorkerPool<Task, Result>({ script: threadScript("cooperative"), size: 1, taskTimeoutMs: 1500 });
    try {
      const before = new Set(sleepChildren());
      await assert.rejects(pool.run({ kind: "sleep-child" }), (err: unknown) => {
        assert.ok(err instanceof DocsiftError, String(err));
        assert.equal(err.code, "timeout");
        assert.match(err.message, /time limit/);
        return true;
      });
      const left = sleepChildren().filter((pid) => !before.has(pid) && isRunning(pid));
      assert.deepEqual(left, []);
      assert.deepEqual(await pool.run({ kind: "ping" }), { pong: true });
    } finally {
      await pool.close();
    }
  });

  test("a thread stuck in synchronous code is terminated and the child it reported is killed", async () => {
    const pool = new WorkerPool<Task, Result>({
      script: threadScript("stuck"),
      size: 1,
      taskTimeoutMs: 1500,
      abortGraceMs: 500,
    });
    try {
      const before = new Set(sleepChildren());
      const run = pool.run({ kind: "sleep-child" });
      // The child must exist while the task runs, or the test would prove nothing.
      let seen: number[] = [];
      while (seen.length === 0) {
        await new Promise((r) => setTimeout(r, 50));
        seen = sleepChildren().filter((pid) => !before.has(pid));
      }
      await assert.rejects(run, (err: unknown) => err instanceof DocsiftError && err.code === "timeout");
      for (const pid of seen) assert.equal(isRunning(pid), false, `sleep ${pid} survived its task`);
      assert.deepEqual(await pool.run({ kind: "ping" }), { pong: true });
    } finally {
      await pool.close();
    }
  });

  test("a thread that exits mid-task rejects with WorkerCrashError and its child is killed", async () => {
    const pool = new WorkerPool<Task, Result>({ script: threadScript("exits"), size: 1 });
    try {
      const before = new Set(sleepChildren());
      await assert.rejects(pool.run({ kind: "sleep-child" }), WorkerCrashError);
      const left = sleepChildren().filter((pid) => !before.has(pid) && isRunning(pid));
      assert.deepEqual(left, []);
    } finally {
      await pool.close();
    }
  });

  test("close() cuts a running task with shutting_down and kills its child", async () => {
    const pool = new WorkerPool<Task, Result>({ script: threadScript("cooperative"), size: 1 });
    const before = new Set(sleepChildren());
    const run = pool.run({ kind: "sleep-child" });
    while (sleepChildren().filter((pid) => !before.has(pid)).length === 0) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const closed = pool.close();
    await assert.rejects(run, (err: unknown) => err instanceof DocsiftError && err.code === "shutting_down");
    await closed;
    assert.deepEqual(
      sleepChildren().filter((pid) => !before.has(pid) && isRunning(pid)),
      [],
    );
  });

  test("a thread over its heap limit rejects with unusable_document and the pool goes on", async () => {
    const pool = new WorkerPool<Task, Result>({ script: threadScript("cooperative"), size: 1, maxHeapMb: 64 });
    try {
      await assert.rejects(pool.run({ kind: "allocate" }), (err: unknown) => {
        assert.ok(err instanceof DocsiftError, String(err));
        assert.equal(err.code, "unusable_document");
        assert.match(err.message, /memory/);
        return true;
      });
      assert.deepEqual(await pool.run({ kind: "ping" }), { pong: true });
    } finally {
      await pool.close();
    }
  });
});

/** Resolves once a new `sleep 1000` child (not in `before`) runs: the pool's first task is then surely running. */
async function childStarted(before: Set<number>): Promise<void> {
  while (sleepChildren().filter((pid) => !before.has(pid)).length === 0) {
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A regression would leave a task waiting behind `sleep 1000`: the timeout turns that hang into a failure. */
describe("worker pool admission and cancellation", () => {
  test("past maxQueued waiting tasks, run rejects at once with PoolFullError", { timeout: 30_000 }, async () => {
    const pool = new WorkerPool<Task, Result>({ script: threadScript("cooperative"), size: 1, maxQueued: 1 });
    const before = new Set(sleepChildren());
    const stop = new AbortController();
    try {
      const running = pool.run({ kind: "sleep-child" }, [], stop.signal);
      await childStarted(before);
      const waiting = pool.run({ kind: "ping" });
      // Admitted, it would wait behind the running task: the timeout keeps that failure from hanging the test.
      await assert.rejects(pool.run({ kind: "ping" }, [], AbortSignal.timeout(2000)), (err: unknown) => {
        assert.ok(err instanceof PoolFullError, String(err));
        assert.equal(err.maxQueued, 1);
        return true;
      });
      stop.abort(new Error("client gone"));
      await assert.rejects(running, /client gone/);
      assert.deepEqual(await waiting, { pong: true });
    } finally {
      await pool.close();
    }
  });

  test("an aborted waiting task is dropped: its thread never receives it", { timeout: 30_000 }, async () => {
    const pool = new WorkerPool<Task, Result>({ script: threadScript("cooperative"), size: 1 });
    const before = new Set(sleepChildren());
    const first = new AbortController();
    const second = new AbortController();
    try {
      const running = pool.run({ kind: "sleep-child" }, [], first.signal);
      await childStarted(before);
      let prepared = false;
      const waiting = pool.run({ kind: "ping" }, [], second.signal);
      const waitingPrepared = pool.runPrepared(async () => {
        prepared = true;
        return { task: { kind: "ping" } };
      }, second.signal);
      second.abort(new Error("client gone"));
      await assert.rejects(waiting, /client gone/);
      await assert.rejects(waitingPrepared, /client gone/);
      assert.equal(pool.busy, 1);
      first.abort(new Error("done waiting"));
      await assert.rejects(running, /done waiting/);
      // The cut thread was replaced: the new one received nothing but this count.
      assert.deepEqual(await pool.run({ kind: "count" }), { received: 1 });
      assert.equal(prepared, false);
    } finally {
      await pool.close();
    }
  });

  test("an aborted running task is cut: it rejects with the reason, its child is killed, the thread replaced", {
    timeout: 30_000,
  }, async () => {
    const pool = new WorkerPool<Task, Result>({ script: threadScript("cooperative"), size: 1 });
    const before = new Set(sleepChildren());
    const controller = new AbortController();
    try {
      const running = pool.run({ kind: "sleep-child" }, [], controller.signal);
      await childStarted(before);
      controller.abort(new Error("client gone"));
      await assert.rejects(running, /client gone/);
      assert.deepEqual(
        sleepChildren().filter((pid) => !before.has(pid) && isRunning(pid)),
        [],
      );
      assert.deepEqual(await pool.run({ kind: "count" }), { received: 1 });
    } finally {
      await pool.close();
    }
  });

  test("runPrepared builds a task only when a thread is free for it", { timeout: 30_000 }, async () => {
    const pool = new WorkerPool<Task, Result>({ script: threadScript("cooperative"), size: 1 });
    const before = new Set(sleepChildren());
    const controller = new AbortController();
    try {
      const running = pool.run({ kind: "sleep-child" }, [], controller.signal);
      await childStarted(before);
      let prepared = 0;
      const waiting = pool.runPrepared(async () => {
        prepared++;
        return { task: { kind: "ping" } };
      });
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(prepared, 0, "a waiting task was prepared before a thread was free");
      controller.abort(new Error("next"));
      await assert.rejects(running, /next/);
      assert.deepEqual(await waiting, { pong: true });
      assert.equal(prepared, 1);
      await assert.rejects(
        pool.runPrepared(async () => {
          throw new Error("blob gone");
        }),
        /blob gone/,
      );
      assert.deepEqual(await pool.run({ kind: "ping" }), { pong: true });
    } finally {
      await pool.close();
    }
  });
});
