/**
 * The store's repositories on both backends, through the same calls: the shared Kysely code must behave the same
 * over SQLite (a fresh data directory) and PostgreSQL (a fresh schema). Covers what the service tests reach only by
 * chance: a result is written once (a re-delivered job neither replaces it nor fails the file), a task is created
 * once per file and field set, the review queue pages by cursor in its order, and timestamps and JSON read back as
 * written.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { Results } from "../../src/domain/result.js";
import { openStorage } from "../../src/store/open.js";
import type { NewTask, Store, TaskCursor, TaskStatus } from "../../src/store/types.js";
import { createTestSchema } from "../helpers/pg-schema.js";

const T = "t1";

async function withBackend(backend: "sqlite" | "postgres", fn: (store: Store) => Promise<void>): Promise<void> {
  if (backend === "sqlite") {
    const dataDir = await mkdtemp(join(tmpdir(), "docsift-store-"));
    const { store } = await openStorage(dataDir);
    try {
      await fn(store);
    } finally {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
    return;
  }
  const schema = await createTestSchema("docsift_store");
  const { store } = await openStorage("/nonexistent-unused", { databaseUrl: schema.url });
  try {
    await fn(store);
  } finally {
    await store.close();
    await schema.drop();
  }
}

async function seed(store: Store, fileIds: string[]): Promise<void> {
  await store.tenants.create({ id: T, name: "Tenant", createdAt: "2026-01-01T00:00:00.123Z" });
  await store.clients.create({ id: "c1", name: "one", tenantId: T, secretHash: "h", scopes: ["upload", "results"] });
  for (const [i, id] of fileIds.entries()) {
    await store.files.insert({
      id,
      tenantId: T,
      clientId: "c1",
      workflow: "prediction",
      options: i === 0 ? { pages: [1, 2] } : null,
      selection: { products: ["invoices"] },
      locale: null,
      tags: null,
      fileName: `${id}.pdf`,
      type: "pdf",
      pageCount: 1,
      size: 10,
      parentId: null,
      uploadedAt: `2026-01-02T00:00:0${i}.000Z`,
    });
  }
}

const results = (value: string): Results => ({ fields: [{ name: "total", value } as never] });

for (const backend of ["sqlite", "postgres"] as const) {
  test(`${backend}: the first result wins; a late duplicate of the job neither replaces it nor fails the file`, async () => {
    await withBackend(backend, async (store) => {
      await seed(store, ["f1"]);
      await store.files.markStarted("f1", "2026-01-03T00:00:00.000Z");
      await store.files.markStarted("f1", "2026-01-03T00:00:01.000Z");
      await store.files.finalise("f1", results("first"), "2026-01-03T00:00:02.000Z");
      await store.files.finalise("f1", results("second"), "2026-01-03T00:00:03.000Z");
      await store.files.fail("f1", { error: "internal", message: "late" }, "2026-01-03T00:00:04.000Z");
      const read = await store.files.getWithResults(T, "f1");
      assert.deepEqual(read?.results, results("first"));
      assert.equal(read?.file.status, "FINALISED");
      assert.equal(read?.file.finishedAt, "2026-01-03T00:00:02.000Z");
      assert.equal(read?.file.startedAt, "2026-01-03T00:00:01.000Z");
      assert.equal(read?.file.uploadedAt, "2026-01-02T00:00:00.000Z");
      assert.equal(read?.file.error, null);
      assert.deepEqual(read?.file.options, { pages: [1, 2] });
      assert.deepEqual(read?.file.selection, { products: ["invoices"] });
      assert.equal(await store.files.getWithResults("other-tenant", "f1"), undefined);
    });
  });

  test(`${backend}: a failed file keeps its error; unfinished files list oldest first`, async () => {
    await withBackend(backend, async (store) => {
      await seed(store, ["f1", "f2", "f3"]);
      await store.files.fail("f2", { error: "unsupported_type", message: "no" }, "2026-01-03T00:00:00.000Z");
      await store.files.markStarted("f3", "2026-01-03T00:00:00.000Z");
      const failed = await store.files.getWithResults(T, "f2");
      assert.equal(failed?.file.status, "FAILED");
      assert.deepEqual(failed?.file.error, { error: "unsupported_type", message: "no" });
      assert.equal(failed?.results, undefined);
      assert.deepEqual(await store.files.listUnfinished(), ["f1", "f3"]);
    });
  });

  test(`${backend}: what the queue asks: finished files among some ids, files never started oldest first`, async () => {
    await withBackend(backend, async (store) => {
      await seed(store, ["f1", "f2", "f3", "f4", "f5", "f6"]);
      await store.files.finalise("f1", results("done"), "2026-01-03T00:00:00.000Z");
      await store.files.fail("f2", { error: "internal", message: "no" }, "2026-01-03T00:00:00.000Z");
      await store.files.markStarted("f3", "2026-01-03T00:00:00.000Z");
      // Started once, then back to RECEIVED for a retry: it had a job, so the sweep leaves it to the queue.
      await store.files.markStarted("f4", "2026-01-03T00:00:00.000Z");
      await store.files.markRetry("f4");
      assert.deepEqual((await store.files.finishedIds(["f1", "f2", "f3", "f5", "unknown"])).sort(), ["f1", "f2"]);
      assert.deepEqual(await store.files.finishedIds([]), []);
      assert.deepEqual(await store.files.listNeverStarted(), ["f5", "f6"]);
    });
  });

  test(`${backend}: tenants and clients read back as written`, async () => {
    await withBackend(backend, async (store) => {
      await seed(store, []);
      assert.deepEqual(await store.tenants.get(T), { id: T, name: "Tenant", createdAt: "2026-01-01T00:00:00.123Z" });
      const created = await store.clients.create({ id: "c0", name: "zero", tenantId: T, secretHash: "h0", scopes: [] });
      assert.deepEqual(await store.clients.get("c0"), created);
      assert.equal(await store.clients.count(), 2);
      assert.equal(await store.clients.revoke("c0"), true);
      assert.equal(await store.clients.revoke("c0"), false);
      const revoked = await store.clients.get("c0");
      assert.ok(revoked?.revokedAt && Date.parse(revoked.revokedAt) >= Date.parse(created.createdAt));
      assert.deepEqual((await store.clients.get("c1"))?.scopes, ["upload", "results"]);
      // Oldest first; clients created in the same millisecond by id.
      const listed = await store.clients.list();
      const ordered = [...listed].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
      assert.deepEqual(
        listed.map((c) => c.id),
        ordered.map((c) => c.id),
      );
      assert.equal(listed.length, 2);
    });
  });

  test(`${backend}: one task per file and field set; the queue pages by cursor; one resolution wins`, async () => {
    await withBackend(backend, async (store) => {
      await seed(store, ["f1", "f2", "f3", "f4"]);
      const task = (id: string, fileId: string, priority: number, createdAt: string): NewTask => ({
        id,
        tenantId: T,
        fileId,
        fieldSet: "invoices",
        status: "open",
        priority,
        breaches: [],
        predicted: results(id),
        fileName: null,
        pageCount: 1,
        createdAt,
      });
      assert.equal(await store.tasks.create(task("k1", "f1", 50, "2026-02-01T00:00:00.000Z")), true);
      assert.equal(await store.tasks.create(task("k1-again", "f1", 50, "2026-02-01T00:00:00.000Z")), false);
      assert.equal(await store.tasks.create(task("k2", "f2", 50, "2026-02-01T00:00:00.000Z")), true);
      assert.equal(await store.tasks.create(task("k3", "f3", 90, "2026-02-02T00:00:00.000Z")), true);
      assert.equal(await store.tasks.create(task("k4", "f4", 50, "2026-01-31T23:59:59.999Z")), true);

      const pages = async (status: TaskStatus | null): Promise<string[]> => {
        const ids: string[] = [];
        let after: TaskCursor | null = null;
        for (;;) {
          const page = await store.tasks.list(T, { status, after, limit: 1 });
          const last = page.at(-1);
          if (!last) return ids;
          ids.push(last.id);
          after = { priority: last.priority, createdAt: last.createdAt, id: last.id };
        }
      };
      assert.deepEqual(await pages(null), ["k3", "k4", "k1", "k2"]);

      const resolution = { corrections: [], results: results("reviewed"), by: "c1", at: "2026-02-03T00:00:00.000Z" };
      const resolved = await store.tasks.resolve(T, "k1", resolution);
      assert.equal(resolved?.status, "resolved");
      assert.equal(resolved?.resolvedAt, "2026-02-03T00:00:00.000Z");
      assert.deepEqual(resolved?.corrections, []);
      assert.equal(await store.tasks.resolve(T, "k1", resolution), undefined);
      assert.deepEqual((await store.files.getWithResults(T, "f1"))?.results, results("reviewed"));
      assert.deepEqual(await pages("open"), ["k3", "k4", "k2"]);
      assert.deepEqual(await pages("resolved"), ["k1"]);
      assert.equal((await store.tasks.getForFile("f3"))?.createdAt, "2026-02-02T00:00:00.000Z");
      assert.equal(await store.tasks.get("other-tenant", "k3"), undefined);
    });
  });
}
