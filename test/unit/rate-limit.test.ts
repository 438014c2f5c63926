import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseRateLimit, TokenBuckets } from "../../src/api/rate-limit.js";

describe("parseRateLimit", () => {
  test("reads N/window in ms, s, m, h, a bare unit, a bare number per minute", () => {
    assert.deepEqual(parseRateLimit("X", "100/60s"), { count: 100, windowMs: 60_000 });
    assert.deepEqual(parseRateLimit("X", "600/1m"), { count: 600, windowMs: 60_000 });
    assert.deepEqual(parseRateLimit("X", "5/500ms"), { count: 5, windowMs: 500 });
    assert.deepEqual(parseRateLimit("X", "20/s"), { count: 20, windowMs: 1000 });
    assert.deepEqual(parseRateLimit("X", "1000/h"), { count: 1000, windowMs: 3_600_000 });
    assert.deepEqual(parseRateLimit("X", "10/30"), { count: 10, windowMs: 30_000 });
    assert.deepEqual(parseRateLimit("X", " 42 "), { count: 42, windowMs: 60_000 });
  });

  test("0 and off disable; anything unreadable throws naming the variable", () => {
    for (const off of ["0", "off", "OFF", "false", "none"]) assert.equal(parseRateLimit("X", off), undefined);
    for (const bad of ["", "ten", "10/", "10/0s", "-1/60s", "10/60x", "1.5/60s", "10 per minute"]) {
      assert.throws(() => parseRateLimit("DOCSIFT_RATE_LIMIT", bad), /DOCSIFT_RATE_LIMIT must look like/, bad);
    }
  });
});

describe("TokenBuckets", () => {
  test("a burst of N passes, the next waits for one token, and the refill is continuous", () => {
    const buckets = new TokenBuckets({ limit: { count: 3, windowMs: 3000 } });
    const t0 = 1_000_000;
    assert.deepEqual(
      [0, 1, 2].map(() => buckets.take("a", t0).remaining),
      [2, 1, 0],
    );
    const refused = buckets.take("a", t0);
    assert.equal(refused.allowed, false);
    assert.equal(refused.retryAfterSeconds, 1, "one token refills in a second");
    assert.equal(refused.resetSeconds, 3);
    assert.equal(buckets.take("a", t0 + 500).allowed, false, "half a token is not a token");
    assert.equal(buckets.take("a", t0 + 1000).allowed, true);
    assert.equal(buckets.take("a", t0 + 1000).allowed, false);
    // Idle long enough, the bucket is full again but never fuller than N.
    assert.deepEqual(
      Array.from({ length: 4 }, () => buckets.take("a", t0 + 60_000).allowed),
      [true, true, true, false],
    );
  });

  test("peek tells whether a token is there without taking it, and tracks no new key", () => {
    const buckets = new TokenBuckets({ limit: { count: 2, windowMs: 2000 } });
    assert.deepEqual(
      Array.from({ length: 5 }, () => buckets.peek("a", 0).allowed),
      [true, true, true, true, true],
    );
    assert.equal(buckets.size, 0, "peeking at an unknown key stores nothing");
    buckets.take("a", 0);
    buckets.take("a", 0);
    const spent = buckets.peek("a", 0);
    assert.equal(spent.allowed, false);
    assert.equal(spent.retryAfterSeconds, 1);
    assert.equal(buckets.peek("a", 1000).allowed, true, "refilled");
    assert.equal(buckets.peek("a", 1000).remaining, 1, "and still there after peeking");
  });

  test("keys are independent", () => {
    const buckets = new TokenBuckets({ limit: { count: 1, windowMs: 60_000 } });
    assert.equal(buckets.take("a", 0).allowed, true);
    assert.equal(buckets.take("a", 0).allowed, false);
    assert.equal(buckets.take("b", 0).allowed, true);
  });

  test("Retry-After is whole seconds, at least 1, up to the full window for a slow limit", () => {
    const buckets = new TokenBuckets({ limit: { count: 1, windowMs: 3_600_000 } });
    buckets.take("a", 0);
    assert.equal(buckets.take("a", 0).retryAfterSeconds, 3600);
    const fast = new TokenBuckets({ limit: { count: 100, windowMs: 1000 } });
    for (let i = 0; i < 100; i++) fast.take("a", 0);
    assert.equal(fast.take("a", 0).retryAfterSeconds, 1);
  });

  test("a clock stepping back adds nothing", () => {
    const buckets = new TokenBuckets({ limit: { count: 1, windowMs: 1000 } });
    buckets.take("a", 10_000);
    assert.equal(buckets.take("a", 5_000).allowed, false);
  });

  test("memory is bounded: idle keys go first, then the oldest", () => {
    const buckets = new TokenBuckets({ limit: { count: 2, windowMs: 1000 }, maxKeys: 3 });
    buckets.take("idle", 0);
    buckets.take("busy1", 500);
    buckets.take("busy1", 500);
    buckets.take("busy2", 900);
    buckets.take("busy2", 900);
    // At 1000 "idle" (one token spent at 0) is full again, the others are not.
    buckets.take("new", 1000);
    assert.equal(buckets.size, 3);
    assert.equal(buckets.take("busy2", 1000).allowed, false, "busy2 kept its state");
    assert.equal(buckets.take("busy1", 1000).allowed, true);
    assert.equal(buckets.take("busy1", 1000).allowed, false, "busy1 kept its state");
    for (let i = 0; i < 10; i++) buckets.take(`flood${i}`, 1000);
    assert.ok(buckets.size <= 3);
  });
});
