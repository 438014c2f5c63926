import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { mapConcurrent } from "../../src/ingest/concurrency.js";

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
