import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createLimiter, mapConcurrent } from "../../src/ingest/concurrency.js";

describe("mapConcurrent", () => {
  it("keeps input order and never exceeds the limit", async () => {
    let running = 0;
    let peak = 0;
    const out = await mapConcurrent([5, 1, 4, 2, 3], 2, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await sleep(n);
      running--;
      return n * 10;
    });
    assert.deepEqual(out, [50, 10, 40, 20, 30]);
    assert.equal(peak, 2);
  });

  it("stops starting tasks after a failure and rethrows it once running ones settle", async () => {
    const started: number[] = [];
    let settled = 0;
    await assert.rejects(
      mapConcurrent([1, 2, 3, 4, 5], 2, async (n) => {
        started.push(n);
        await sleep(n);
        settled++;
        if (n === 1) throw new Error("page 1 failed");
        return n;
      }),
      /page 1 failed/,
    );
    assert.deepEqual(started, [1, 2]);
    assert.equal(settled, 2);
  });
});

describe("createLimiter", () => {
  it("runs at most `limit` tasks at once, in arrival order, and frees slots after failures", async () => {
    const limit = createLimiter(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (n: number) =>
      limit(async () => {
        running++;
        peak = Math.max(peak, running);
        order.push(n);
        await sleep(2);
        running--;
        if (n === 0) throw new Error("boom");
        return n;
      });
    const results = await Promise.allSettled([0, 1, 2, 3, 4].map(task));
    assert.equal(peak, 2);
    assert.deepEqual(order, [0, 1, 2, 3, 4]);
    assert.equal(results[0]!.status, "rejected");
    assert.deepEqual(
      results.slice(1).map((r) => (r.status === "fulfilled" ? r.value : undefined)),
      [1, 2, 3, 4],
    );
  });
});
