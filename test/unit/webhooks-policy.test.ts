/**
 * The webhook policy in isolation: address classification (SSRF), URL rules, the backoff schedule and when an endpoint
 * is disabled, secret sealing and Standard Webhooks signatures (checked with the specification's library), group
 * commits, and the events a state change produces.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Webhook } from "standardwebhooks";
import { groupCommit } from "../../src/queue/group-commit.js";
import { ConfigError, loadConfig } from "../../src/runtime/config.js";
import { checkTarget, isPublicAddress, parseWebhookUrl } from "../../src/webhooks/address.js";
import { finalisedEvents, taskCreatedEvents } from "../../src/webhooks/events.js";
import { nextAttemptAt, retryPolicy, shouldDisable } from "../../src/webhooks/schedule.js";
import { generateWebhookSecret, secretBox, signatureHeaders } from "../../src/webhooks/secret.js";

describe("webhook targets", () => {
  test("only public unicast addresses pass", () => {
    for (const address of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "93.184.216.34", "::ffff:8.8.8.8"]) {
      assert.equal(isPublicAddress(address), true, address);
    }
    for (const address of [
      "127.0.0.1",
      "127.8.9.10",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "169.254.169.254",
      "100.100.100.200",
      "0.0.0.0",
      "255.255.255.255",
      "224.0.0.1",
      "::1",
      "::",
      "fe80::1",
      "fd00:ec2::254",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "not an address",
    ]) {
      assert.equal(isPublicAddress(address), false, address);
    }
  });

  test("https only unless allowed; no credentials; hosts resolving to loopback refused", async () => {
    const strict = { allowHttp: false, allowPrivate: false };
    assert.throws(() => parseWebhookUrl("http://example.com/x", strict), /must be https/);
    assert.equal(parseWebhookUrl("http://example.com/x", { ...strict, allowHttp: true }).protocol, "http:");
    assert.throws(() => parseWebhookUrl("https://user:pw@example.com/", strict), /credentials/);
    assert.throws(() => parseWebhookUrl("/relative", strict), /absolute/);
    await assert.rejects(checkTarget(new URL("https://localhost/"), strict), /resolves to (127\.0\.0\.1|::1)/);
    await assert.rejects(checkTarget(new URL("https://[::ffff:7f00:1]/"), strict), /loopback, private/);
    await checkTarget(new URL("https://localhost/"), { ...strict, allowPrivate: true });
  });
});

describe("retry schedule", () => {
  const policy = retryPolicy(5000, 24);

  test("exponential with jitter in the upper half, capped, for the whole window, then given up", () => {
    const start = 0;
    const giveUp = start + policy.windowMs;
    assert.equal(nextAttemptAt(policy, 1, start, giveUp, 0), 2500);
    assert.ok((nextAttemptAt(policy, 1, start, giveUp, 0.999_999) as number) < 5000);
    assert.equal(nextAttemptAt(policy, 4, start, giveUp, 0), 20_000);
    assert.equal(nextAttemptAt(policy, 40, start, giveUp, 1) as number, 3_600_000, "capped at an hour");
    // Walking the schedule with the longest delays still reaches the window's end, tried there once more.
    let now = start;
    let attempts = 0;
    for (let next = nextAttemptAt(policy, 1, now, giveUp, 0); next !== null; ) {
      now = next;
      attempts++;
      next = nextAttemptAt(policy, attempts + 1, now, giveUp, 0);
    }
    assert.equal(now, giveUp, "the last attempt is at the end of the window");
    assert.ok(attempts > 20 && attempts < 60, String(attempts));
  });

  test("an endpoint is disabled only when nothing succeeded during the given-up delivery's window", () => {
    assert.equal(shouldDisable(1000, 1000), true);
    assert.equal(shouldDisable(500, 1000), true);
    assert.equal(shouldDisable(2000, 1000), false, "a success after the first attempt ended the earlier run");
  });
});

describe("secrets and signatures", () => {
  test("sealed secrets open only with the same material; signatures verify with standardwebhooks", () => {
    const secret = generateWebhookSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const box = secretBox("material-a");
    const sealed = box.seal(secret);
    assert.ok(!sealed.includes(secret.slice(6)));
    assert.equal(box.open(sealed), secret);
    assert.throws(() => secretBox("material-b").open(sealed));

    const rotated = generateWebhookSecret();
    const body = JSON.stringify({ type: "file.finalised", timestamp: "t", data: { fileId: "f" } });
    const headers = signatureHeaders("msg_1", new Date(), body, [rotated, secret]);
    assert.equal(headers["webhook-signature"]?.split(" ").length, 2);
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
    assert.deepEqual(new Webhook(rotated).verify(body, headers), JSON.parse(body));
    assert.throws(() => new Webhook(generateWebhookSecret()).verify(body, headers));
  });
});

describe("events", () => {
  test("a split parent's finalisation adds split.completed with its children; an open task adds file.in_progress", () => {
    const results = { fields: [{ name: "components.children" as const, value: [{ file_id: "c1" }] }] };
    const events = finalisedEvents({ tenantId: "t", fileId: "p", workflow: "split", results }, "2024-01-01T00:00:00Z");
    assert.deepEqual(
      events.map((e) => e.type),
      ["file.finalised", "split.completed"],
    );
    assert.deepEqual(events[1]?.body.data, { fileId: "p", children: [{ file_id: "c1" }] });
    const task = {
      id: "k",
      tenantId: "t",
      fileId: "f",
      fieldSet: "invoice",
      priority: 50,
      breaches: [],
      fileName: null,
      pageCount: 1,
      createdAt: "x",
      resolvedAt: null,
      resolvedBy: null,
      corrections: null,
    };
    assert.deepEqual(
      taskCreatedEvents({ ...task, status: "open" }, "x").map((e) => e.type),
      ["task.created", "file.in_progress"],
    );
    assert.deepEqual(
      taskCreatedEvents({ ...task, status: "draft" }, "x").map((e) => e.type),
      ["task.created"],
    );
  });
});

describe("group commit", () => {
  test("writes asked for during a write go together in the next one", async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const write = groupCommit(async (items: number[]) => {
      batches.push(items);
      if (batches.length === 1) await gate;
    });
    const first = write(1);
    await new Promise((r) => setImmediate(r));
    const rest = [write(2), write(3), write(4)];
    release();
    await Promise.all([first, ...rest]);
    assert.deepEqual(batches, [[1], [2, 3, 4]]);
  });
});

describe("webhook settings", () => {
  test("parsed once from DOCSIFT_WEBHOOK_*; a bad value names the variable", () => {
    assert.deepEqual(loadConfig({}, {}).webhooks, {
      allowHttp: false,
      allowPrivate: false,
      retryBaseMs: 5000,
      retryHours: 24,
    });
    const set = loadConfig(
      {},
      {
        DOCSIFT_WEBHOOK_ALLOW_HTTP: "1",
        DOCSIFT_WEBHOOK_ALLOW_PRIVATE: "true",
        DOCSIFT_WEBHOOK_RETRY_BASE_MS: "250",
        DOCSIFT_WEBHOOK_RETRY_HOURS: "0.5",
      },
    ).webhooks;
    assert.deepEqual(set, { allowHttp: true, allowPrivate: true, retryBaseMs: 250, retryHours: 0.5 });
    assert.throws(() => loadConfig({}, { DOCSIFT_WEBHOOK_ALLOW_PRIVATE: "yes" }), ConfigError);
    assert.throws(() => loadConfig({}, { DOCSIFT_WEBHOOK_RETRY_HOURS: "0" }), /DOCSIFT_WEBHOOK_RETRY_HOURS/);
  });
});
