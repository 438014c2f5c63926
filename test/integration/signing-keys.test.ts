/**
 * The JWT signing key set, shared through the store. PostgreSQL: API processes started at once on one database, each
 * with its own data dir (machines with no shared disk), create one key and accept each other's tokens, as clients
 * behind a load balancer need; `docsift keys rotate` moves every process to a new key while the old key's tokens stay
 * valid; a key retired longer ago than a token lives verifies nothing. SQLite: a token survives restarts and a
 * rotation, and a data dir from before key sets keeps its key. Real servers, real HTTP, the real CLI.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, SignJWT } from "jose";
import { openKeySet, rotateSigningKey } from "../../src/auth/signing-key.js";
import { openStorage } from "../../src/store/open.js";
import type { Store } from "../../src/store/types.js";
import { createTestSchema, type TestSchema } from "../helpers/pg-schema.js";
import { getToken, requestJson, startTestServer, type TestServer } from "../helpers/server.js";
import { retireSigningKeysLongAgo } from "../helpers/signing-keys.js";

const MAIN = join(import.meta.dirname, "../../src/cli/main.ts");
const execFileAsync = promisify(execFile);

/** `docsift keys ...` as a separate process; DATABASE_URL only as given (empty: the embedded store). */
async function keysCli(args: string[], databaseUrl = ""): Promise<string> {
  const { stdout } = await execFileAsync(process.execPath, ["--import", "tsx", MAIN, "keys", ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: "utf8",
  });
  return stdout;
}

const kidOf = (token: string): unknown => decodeProtectedHeader(token).kid;

/** What a server answers a token with, on a route that needs nothing but a valid one. */
async function statusAt(server: TestServer, token: string): Promise<number> {
  return (await requestJson(`${server.url}/catalog`, { token })).status;
}

async function assertAccepted(servers: TestServer[], token: string, what: string): Promise<void> {
  for (const [i, server] of servers.entries()) assert.equal(await statusAt(server, token), 200, `${what} at #${i}`);
}

async function assertRefused(servers: TestServer[], token: string, what: string): Promise<void> {
  for (const [i, server] of servers.entries()) {
    const res = await requestJson(`${server.url}/catalog`, { token });
    assert.equal(res.status, 401, `${what} at #${i}`);
    assert.equal(res.body.error, "invalid_token", what);
  }
}

/** Two API processes started at the same instant on a fresh schema, as an orchestrator starts them. */
async function startPair(): Promise<{ schema: TestSchema; servers: [TestServer, TestServer] }> {
  const schema = await createTestSchema("docsift_keys");
  const servers = await Promise.all([
    startTestServer({ backend: "postgres", schema, workers: 1 }),
    startTestServer({ backend: "postgres", schema, workers: 1, runJobs: false }),
  ]);
  return { schema, servers };
}

async function stopPair(servers: TestServer[]): Promise<void> {
  const [first, ...rest] = servers;
  for (const s of rest) {
    await s.stop(true);
    await rm(s.dataDir, { recursive: true, force: true });
  }
  // The first drops the schema.
  await first?.stop();
}

describe("signing keys on PostgreSQL: processes started at once", () => {
  let schema: TestSchema;
  let servers: [TestServer, TestServer];
  /** A client of both processes (each start resets the bootstrap client to its own secret). */
  let client: { id: string; secret: string };
  const tokenFrom = (server: TestServer): Promise<string> => getToken(server.url, client.id, client.secret);

  before(async () => {
    ({ schema, servers } = await startPair());
    const created = await servers[0].newClient({ name: "behind-a-load-balancer" });
    client = { id: created.clientId, secret: created.clientSecret };
  });
  after(() => stopPair(servers));

  test("share one key: a token from either process is accepted by the other", async () => {
    const [a, b] = servers;
    assert.equal((await a.service.store.signingKeys.list()).length, 1, "one key created, not one per process");
    const fromA = await tokenFrom(a);
    const fromB = await tokenFrom(b);
    assert.equal(kidOf(fromA), kidOf(fromB));
    await assertAccepted([a, b], fromA, "token from A");
    await assertAccepted([a, b], fromB, "token from B");
  });

  test("keys rotate: new tokens carry the new kid at both; the old key's tokens stay valid at both", async () => {
    const [a, b] = servers;
    const before = await tokenFrom(a);
    // Both have the set in memory now (B's copy is what the rotation makes stale).
    await assertAccepted([a, b], before, "token before the rotation");
    const { kid } = JSON.parse(await keysCli(["rotate", "--json"], schema.url)) as { kid: string };
    assert.notEqual(kid, kidOf(before));

    const newFromA = await tokenFrom(a);
    assert.equal(kidOf(newFromA), kid);
    // B has not issued a token since the rotation: the unknown kid makes it reload the set.
    await assertAccepted([b, a], newFromA, "new token from A");
    const newFromB = await tokenFrom(b);
    assert.equal(kidOf(newFromB), kid);
    await assertAccepted([a, b], newFromB, "new token from B");
    await assertAccepted([a, b], before, "token of the retired key");

    const listed = JSON.parse(await keysCli(["list", "--json"], schema.url)) as Array<Record<string, unknown>>;
    assert.deepEqual(
      listed.map((k) => [k.kid, k.state]),
      [
        [kidOf(before), "retired"],
        [kid, "current"],
      ],
    );
    assert.ok(
      listed.every((k) => !("privateJwk" in k) && !JSON.stringify(k).includes('"d"')),
      "no private key shown",
    );
  });

  test("a key retired longer ago than a token lives verifies nothing, at either process", async () => {
    const [a, b] = servers;
    const old = await tokenFrom(a);
    // The token is fresh (valid for an hour by its own exp), but its key counts as retired two hours ago.
    const kid = await retireSigningKeysLongAgo(a);
    // Each process reads the set again when it next signs (and every minute): after that the old key is refused.
    const fresh = [await tokenFrom(a), await tokenFrom(b)];
    for (const token of fresh) assert.equal(kidOf(token), kid);
    await assertRefused([a, b], old, "token of a key retired past its grace");
    for (const token of fresh) await assertAccepted([a, b], token, "token of the new key");
  });
});

/** Two stores (two connection pools, as two processes have) on a fresh schema. */
async function withTwoStores(fn: (stores: [Store, Store]) => Promise<void>): Promise<void> {
  const schema = await createTestSchema("docsift_keys");
  try {
    const storages = await Promise.all([
      openStorage("", { databaseUrl: schema.url }),
      openStorage("", { databaseUrl: schema.url }),
    ]);
    try {
      await fn([storages[0].store, storages[1].store]);
    } finally {
      await Promise.all(storages.map((s) => s.store.close()));
    }
  } finally {
    await schema.drop();
  }
}

describe("signing keys on PostgreSQL: processes adding keys at once", () => {
  test("two key sets opened at once on an empty schema, 5 times: one key, both sign with it", async () => {
    for (let round = 0; round < 5; round++) {
      await withTwoStores(async (stores) => {
        const sets = await Promise.all(stores.map((s) => openKeySet(s.signingKeys)));
        const kids = await Promise.all(sets.map(async (set) => (await set.signingKey()).kid));
        const stored = await stores[0].signingKeys.list();
        assert.equal(stored.length, 1, `round ${round}: one key`);
        assert.deepEqual(kids, [stored[0]?.kid, stored[0]?.kid]);
      });
    }
  });

  test("two rotations at once: both keys are added, one after the other; only the newest is current", async () => {
    await withTwoStores(async (stores) => {
      await openKeySet(stores[0].signingKeys);
      const added = await Promise.all(stores.map((s) => rotateSigningKey(s.signingKeys)));
      const keys = await stores[0].signingKeys.list();
      assert.deepEqual(new Set(keys.slice(1).map((k) => k.kid)), new Set(added));
      assert.deepEqual(
        keys.map((k) => k.retiredAt === null),
        [false, false, true],
      );
    });
  });
});

describe("signing keys, embedded (SQLite)", () => {
  let server: TestServer;
  after(() => server?.stop());

  test("a token survives a restart, a rotation by the CLI while serving, and another restart", async () => {
    server = await startTestServer({ backend: "sqlite", workers: 1 });
    const first = await server.token();
    await server.stop(true);
    server = await startTestServer({ backend: "sqlite", workers: 1, dataDir: server.dataDir });
    await assertAccepted([server], first, "token from before the restart");

    const { kid } = JSON.parse(await keysCli(["rotate", "--json", "--data", server.dataDir])) as { kid: string };
    const second = await server.token();
    assert.equal(kidOf(second), kid);
    await assertAccepted([server], first, "token of the retired key");

    await server.stop(true);
    server = await startTestServer({ backend: "sqlite", workers: 1, dataDir: server.dataDir });
    await assertAccepted([server], first, "token of the retired key, after a restart");
    await assertAccepted([server], second, "token of the new key, after a restart");
  });

  test("a data dir from before key sets keeps its jwt-key.json key: the tokens it signed stay valid", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "docsift-legacy-key-"));
    const { privateKey, publicKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
    const legacy = {
      kid: "legacy-kid",
      alg: "EdDSA",
      privateJwk: await exportJWK(privateKey),
      publicJwk: await exportJWK(publicKey),
    };
    await writeFile(join(dataDir, "jwt-key.json"), JSON.stringify(legacy), { mode: 0o600 });
    const legacyServer = await startTestServer({ backend: "sqlite", workers: 1, dataDir });
    try {
      const me = await legacyServer.service.store.clients.get(legacyServer.admin.clientId);
      assert.ok(me);
      // A token as the old release issued it, before this start.
      const now = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({ scope: "fileupload:all", tid: me.tenantId })
        .setProtectedHeader({ alg: "EdDSA", kid: legacy.kid, typ: "JWT" })
        .setIssuer("docsift")
        .setSubject(me.id)
        .setIssuedAt(now)
        .setExpirationTime(now + 3600)
        .sign(await importJWK(legacy.privateJwk, "EdDSA"));
      await assertAccepted([legacyServer], token, "token of the legacy key");
      assert.equal(kidOf(await legacyServer.token()), legacy.kid, "the legacy key keeps signing until a rotation");
    } finally {
      await legacyServer.stop();
    }
  });
});
