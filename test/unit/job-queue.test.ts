import assert from "node:assert/strict";
import { test } from "node:test";
import { embeddedQueue } from "../../src/queue/job-queue.js";

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a job whose error is worth retrying soon runs again after the delay; other errors wait for the next start", async () => {
  const runs: string[] = [];
  const reported: string[] = [];
  const queue = embeddedQueue({
    concurrency: 1,
    handler: async (fileId) => {
      runs.push(fileId);
      if (fileId === "busy" && runs.filter((r) => r === "busy").length === 1) throw new Error("SQLITE_BUSY");
      if (fileId === "bug") throw new Error("a bug");
      return "done";
    },
    onError: (fileId) => reported.push(fileId),
    retryDelayMs: (_fileId, err) => (err instanceof Error && err.message === "SQLITE_BUSY" ? 20 : undefined),
  });
  await queue.enqueue("busy");
  await queue.enqueue("bug");
  await settle(10);
  assert.equal(queue.depth(), 1, "the busy job waits for its retry and still counts as queued");
  await settle(100);
  assert.deepEqual(runs, ["busy", "bug", "busy"]);
  assert.deepEqual(reported, ["bug"]);
  assert.equal(queue.depth(), 0);
});

test("drain cancels a delayed retry: the file stays in the store for the next start", async () => {
  let runs = 0;
  const queue = embeddedQueue({
    concurrency: 1,
    handler: async () => {
      runs++;
      throw new Error("EIO");
    },
    onError: () => assert.fail("a transient error is not reported as unexpected"),
    retryDelayMs: () => 20,
  });
  await queue.enqueue("f");
  await settle(5);
  await queue.drain();
  await settle(60);
  assert.equal(runs, 1);
  assert.equal(queue.depth(), 0);
});
