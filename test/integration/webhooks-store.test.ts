/**
 * The webhook outbox on both backends, through the store: events are written with the state change (and only when it
 * happens, only for subscribed, enabled endpoints of the file's tenant), claimed with a lease by one claimant, in
 * order per endpoint and file, and their outcomes recorded (retry, failure, success, manual retry).
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { openStorage } from "../../src/store/open.js";
import type { Store } from "../../src/store/types.js";
import { createTestSchema } from "../helpers/pg-schema.js";

async function withBackend(backend: "sqlite" | "postgres", fn: (store: Store) => Promise<void>): Promise<void> {
  if (backend === "sqlite") {
    const dataDir = await mkdtemp(join(tmpdir(), "docsift-hookstore-"));
    const { store } = await openStorage(dataDir);
    try {
      await fn(store);
    } finally {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
    return;
  }
  const schema = await createTestSchema("docsift_hookstore");
  const { store } = await openStorage("/nonexistent-unused", { databaseUrl: schema.url });
  try {
    await fn(store);
  } finally {
    await store.close();
    await schema.drop();
  }
}

async function seed(store: Store): Promise<void> {
  for (const t of ["ta", "tb"]) {
    await store.tenants.create({ id: t, name: t, createdAt: "2026-01-01T00:00:00.000Z" });
    await store.clients.create({ id: `c-${t}`, name: t, tenantId: t, secretHash: "h", scopes: [] });
  }
  for (const [id, tenant] of [
    ["fa1", "ta"],
    ["fa2", "ta"],
    ["fb1", "tb"],
  ]) {
    await store.files.insert({
      id: id as string,
      tenantId: tenant as string,
      clientId: `c-${tenant}`,
      workflow: "prediction",
      options: null,
      selection: { products: ["invoices"] },
      locale: null,
      tags: null,
      fileName: null,
      type: "pdf",
      pageCount: 1,
      size: 10,
      parentId: null,
      uploadedAt: "2026-01-02T00:00:00.000Z",
    });
  }
}

const hook = (id: string, tenantId: string, events: string[]) => ({
  id,
  tenantId,
  url: "https://example.com/h",
  events,
  description: null,
  sealedSecret: "v1.x",
  createdAt: "2026-01-01T00:00:00.000Z",
});

for (const backend of ["sqlite", "postgres"] as const) {
  test(`${backend}: the outbox is written with the state change and delivered in order per file`, async () => {
    await withBackend(backend, async (store) => {
      await seed(store);
      let woken = 0;
      store.webhooks.onWritten(() => woken++);
      await store.webhooks.create(hook("wh_a", "ta", ["file.finalised", "file.failed"]));
      await store.webhooks.create(hook("wh_a_tasks", "ta", ["task.created"]));
      await store.webhooks.create(hook("wh_b", "tb", ["file.finalised"]));
      const at = "2026-01-03T00:00:00.000Z";
      await store.files.finalise("fa1", { fields: [] }, at);
      await store.files.finalise("fa1", { fields: [] }, at); // a re-run job: no second event
      await store.files.fail("fa1", { error: "internal", message: "late" }, at); // FINALISED stays: no event
      await store.files.fail("fa2", { error: "timeout", message: "slow" }, at);
      assert.equal(woken, 2);

      const far = "2030-01-01T00:00:00.000Z";
      const claimed = await store.webhooks.claimDue(at, "2026-01-03T00:00:30.000Z", 10);
      assert.deepEqual(
        claimed.map((c) => [c.webhook.id, c.delivery.fileId, c.delivery.type]),
        [
          ["wh_a", "fa1", "file.finalised"],
          ["wh_a", "fa2", "file.failed"],
        ],
        "only the subscribed endpoint of the file's tenant",
      );
      assert.equal(JSON.parse(claimed[1]?.delivery.payload ?? "{}").data.error.error, "timeout");
      assert.deepEqual(await store.webhooks.claimDue(at, far, 10), [], "leased: nobody else gets them");

      const first = claimed[0]?.delivery.seq as number;
      const second = claimed[1]?.delivery.seq as number;
      const failure = await store.webhooks.recordFailure(first, "wh_a", {
        at: "2026-01-03T00:00:01.000Z",
        statusCode: 500,
        error: "answered HTTP 500",
        nextAttemptAt: "2026-01-03T00:00:05.000Z",
      });
      assert.deepEqual(failure, {
        failingSince: "2026-01-03T00:00:01.000Z",
        firstAttemptAt: "2026-01-03T00:00:01.000Z",
      });
      assert.equal(await store.webhooks.nextDue("2026-01-03T00:00:02.000Z"), "2026-01-03T00:00:05.000Z");
      await store.webhooks.recordSuccesses(
        [{ seq: second, webhookId: "wh_a", statusCode: 204, endsFailureRun: true }],
        "2026-01-03T00:00:02.000Z",
      );
      assert.equal((await store.webhooks.get("ta", "wh_a"))?.failingSince, null, "a success ends the failure run");
      assert.deepEqual(await store.webhooks.backlog(), { pending: 1, oldestCreatedAt: at });

      const again = await store.webhooks.claimDue("2026-01-03T00:00:05.000Z", far, 10);
      assert.deepEqual(
        again.map((c) => [c.delivery.seq, c.delivery.attempts]),
        [[first, 1]],
      );
      await store.webhooks.recordFailure(first, "wh_a", {
        at: "2026-01-03T00:00:06.000Z",
        statusCode: null,
        error: "refused",
        nextAttemptAt: null,
      });
      const log = await store.webhooks.deliveries("ta", "wh_a", { status: null, before: null, limit: 10 });
      assert.deepEqual(
        log.map((d) => [d.seq, d.status, d.attempts, d.lastStatusCode]),
        [
          [second, "delivered", 1, 204],
          [first, "failed", 2, null],
        ],
      );
      assert.equal(await store.webhooks.retryDelivery("tb", "wh_a", first, at), undefined, "other tenants: nothing");
      const retried = await store.webhooks.retryDelivery("ta", "wh_a", first, "2026-01-04T00:00:00.000Z");
      assert.equal(retried?.status, "pending");
      assert.equal(retried?.firstAttemptAt, null);

      // A disabled endpoint gets no new events and none of its pending ones is claimed.
      await store.webhooks.disable("wh_a", "failing", at);
      assert.deepEqual(await store.webhooks.claimDue(far, far, 10), []);
      assert.equal(await store.webhooks.nextDue(far), null);
      await store.files.finalise("fa2", { fields: [] }, at);
      assert.equal((await store.webhooks.backlog()).pending, 1);
      assert.equal(await store.webhooks.remove("tb", "wh_a"), false);
      assert.equal(await store.webhooks.remove("ta", "wh_a"), true);
      assert.equal((await store.webhooks.backlog()).pending, 0);
    });
  });

  test(`${backend}: events of one file wait for the earlier ones; tasks write theirs in their transaction`, async () => {
    await withBackend(backend, async (store) => {
      await seed(store);
      await store.webhooks.create(
        hook("wh_t", "ta", ["task.created", "file.in_progress", "task.resolved", "file.finalised"]),
      );
      const at = "2026-01-03T00:00:00.000Z";
      const task = {
        id: "00000000-0000-4000-8000-000000000001",
        tenantId: "ta",
        fileId: "fa1",
        fieldSet: "invoice",
        status: "open" as const,
        priority: 50,
        breaches: [],
        predicted: { fields: [] },
        fileName: null,
        pageCount: 1,
        createdAt: at,
      };
      assert.equal(await store.tasks.create(task), true);
      assert.equal(await store.tasks.create({ ...task, id: "00000000-0000-4000-8000-000000000002" }), false);
      await store.tasks.resolve("ta", task.id, { corrections: [], results: { fields: [] }, by: "c-ta", at });
      const order: string[] = [];
      for (let i = 0; i < 6; i++) {
        const claimed = await store.webhooks.claimDue("2026-01-05T00:00:00.000Z", "2026-01-05T00:01:00.000Z", 10);
        assert.ok(claimed.length <= 1, "one at a time per endpoint and file");
        for (const c of claimed) {
          order.push(c.delivery.type);
          await store.webhooks.recordSuccesses(
            [{ seq: c.delivery.seq, webhookId: "wh_t", statusCode: 200, endsFailureRun: false }],
            "2026-01-05T00:00:00.000Z",
          );
        }
      }
      assert.deepEqual(order, ["task.created", "file.in_progress", "task.resolved", "file.finalised"]);
      assert.equal(await store.webhooks.releaseLeases(), 0);
    });
  });
}
