/**
 * A bootstrap client made by an older version has the scopes of its day; each start gives the operator's client the
 * scopes added since (a client's scopes are otherwise fixed at creation), on SQLite and PostgreSQL, for the named
 * client (DOCSIFT_BOOTSTRAP_CLIENT) and the generated one. A revoked bootstrap client stays as it is.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ensureBootstrapClient } from "../../src/auth/clients.js";
import { SCOPES } from "../../src/auth/scopes.js";
import { openStorage, type Storage } from "../../src/store/open.js";
import { createTestSchema } from "../helpers/pg-schema.js";

/** The scopes an older version gave: every scope but the last ones added. */
const OLD_SCOPES = SCOPES.filter((scope) => scope !== "webhooks:manage" && scope !== "metrics:read");

async function onEachStore(run: (storage: Storage) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), "docsift-scopes-"));
  const schema = await createTestSchema("docsift_scopes");
  try {
    for (const storage of [await openStorage(dataDir), await openStorage("", { databaseUrl: schema.url })]) {
      try {
        await run(storage);
      } finally {
        await storage.store.close();
      }
    }
  } finally {
    await schema.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe("bootstrap client scopes", () => {
  test("the named bootstrap client gets the scopes added since it was made", () =>
    onEachStore(async ({ store }) => {
      await ensureBootstrapClient(store, "ops-admin:named-secret-123");
      await store.clients.setScopes("ops-admin", OLD_SCOPES);
      await ensureBootstrapClient(store, "ops-admin:named-secret-123");
      assert.deepEqual((await store.clients.get("ops-admin"))?.scopes.toSorted(), [...SCOPES].sort());
    }));

  test("the generated bootstrap client gets them too; a revoked one is left alone", () =>
    onEachStore(async ({ store }) => {
      const created = await ensureBootstrapClient(store, undefined);
      assert.ok(created);
      await store.clients.setScopes(created.clientId, OLD_SCOPES);
      assert.equal(await ensureBootstrapClient(store, undefined), undefined, "nothing new to print");
      assert.deepEqual((await store.clients.get(created.clientId))?.scopes.toSorted(), [...SCOPES].sort());

      await store.clients.setScopes(created.clientId, OLD_SCOPES);
      assert.ok(await store.clients.revoke(created.clientId));
      await ensureBootstrapClient(store, undefined);
      assert.deepEqual((await store.clients.get(created.clientId))?.scopes, OLD_SCOPES);
    }));
});
