/**
 * Two processes starting at once on an empty database: exactly one bootstrap client ends up existing, neither start
 * fails, and with DOCSIFT_BOOTSTRAP_CLIENT both converge on the named client. PostgreSQL: two storages (two pools)
 * in this process, run at once, repeated on fresh schemas. SQLite: two real child processes on one fresh data dir
 * (SQLite's locks are per connection, and one thread blocked in SQLite's busy wait would stall the other), which
 * open the store and meet at a shared start time before ensureBootstrapClient, so both race on the empty tables.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import SQLite from "better-sqlite3";
import pg from "pg";
import { authenticateClient, type CreatedClient, ensureBootstrapClient } from "../../src/auth/clients.js";
import { openStorage } from "../../src/store/open.js";
import { createTestSchema } from "../helpers/pg-schema.js";

const ROUNDS = 6;
const NAMED = "ops-admin:named-secret-123";

/** What one start did: the client it created (and must print), or null. */
type Outcome = { created: string | null };

/** One round's database afterwards: its clients and tenants. */
interface Census {
  clients: string[];
  tenants: number;
}

function checkRound(outcomes: Outcome[], census: Census, named: boolean): void {
  assert.equal(census.clients.length, 1, `exactly one client: ${JSON.stringify(census)}`);
  assert.equal(census.tenants, 1, "no tenant left behind by the start that lost");
  const created = outcomes.filter((o) => o.created !== null);
  if (named) {
    assert.deepEqual(created, [], "a named bootstrap client is never printed");
    assert.deepEqual(census.clients, ["ops-admin"]);
  } else {
    assert.equal(created.length, 1, `exactly one start created (and prints) the client: ${JSON.stringify(outcomes)}`);
    assert.deepEqual(census.clients, [created[0]?.created]);
  }
}

describe("bootstrap client race on PostgreSQL", () => {
  for (const named of [false, true]) {
    test(`two starts at once, ${ROUNDS} times: one client${named ? " (DOCSIFT_BOOTSTRAP_CLIENT)" : ""}`, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const schema = await createTestSchema("docsift_boot");
        try {
          const storages = await Promise.all([
            openStorage("", { databaseUrl: schema.url }),
            openStorage("", { databaseUrl: schema.url }),
          ]);
          try {
            const results = await Promise.all(
              storages.map((s) => ensureBootstrapClient(s.store, named ? NAMED : undefined)),
            );
            const outcomes = results.map((r) => ({ created: r?.clientId ?? null }));
            const [first] = storages;
            assert.ok(first);
            const clients = (await first.store.clients.list()).map((c) => c.id);
            const tenants = await countTenantsPg(schema.url);
            checkRound(outcomes, { clients, tenants }, named);
            await assertCanSignIn(first.store, results, named);
          } finally {
            await Promise.all(storages.map((s) => s.store.close()));
          }
        } finally {
          await schema.drop();
        }
      }
    });
  }
});

describe("bootstrap client race on SQLite (two processes)", () => {
  for (const named of [false, true]) {
    test(`two processes start at once, 3 times: one client${named ? " (DOCSIFT_BOOTSTRAP_CLIENT)" : ""}`, async () => {
      for (let round = 0; round < 3; round++) {
        const dataDir = await mkdtemp(join(tmpdir(), "docsift-boot-"));
        try {
          const startAt = Date.now() + 4000;
          const outcomes = await Promise.all([
            startProcess(dataDir, named, startAt),
            startProcess(dataDir, named, startAt),
          ]);
          const db = new SQLite(join(dataDir, "docsift.sqlite"), { readonly: true });
          try {
            const clients = (db.prepare("SELECT id FROM clients").all() as { id: string }[]).map((r) => r.id);
            const tenants = Number((db.prepare("SELECT count(*) AS n FROM tenants").get() as { n: number }).n);
            checkRound(outcomes, { clients, tenants }, named);
          } finally {
            db.close();
          }
        } finally {
          await rm(dataDir, { recursive: true, force: true });
        }
      }
    });
  }
});

async function countTenantsPg(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM tenants");
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}

async function assertCanSignIn(
  store: Parameters<typeof authenticateClient>[0],
  results: (CreatedClient | undefined)[],
  named: boolean,
): Promise<void> {
  const [id, secret] = named
    ? NAMED.split(":")
    : [results.find((r) => r)?.clientId, results.find((r) => r)?.clientSecret];
  assert.ok(id && secret);
  const who = await authenticateClient(store, id, secret);
  assert.equal(who.clientId, id);
}

const CHILD = `
const [open, clients] = await Promise.all([import(process.argv[1]), import(process.argv[2])]);
const [, , dataDir, spec, startAt] = process.argv.slice(1);
const storage = await open.openStorage(dataDir);
await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
try {
  const created = await clients.ensureBootstrapClient(storage.store, spec || undefined);
  process.stdout.write(JSON.stringify({ created: created ? created.clientId : null }));
} finally {
  await storage.store.close();
}
`;

/** A real process: opens the store under dataDir, waits for startAt (epoch ms), ensures the bootstrap client. */
function startProcess(dataDir: string, named: boolean, startAt: number): Promise<Outcome> {
  const modules = ["../../src/store/open.ts", "../../src/auth/clients.ts"].map((m) => new URL(m, import.meta.url).href);
  const { NODE_TEST_CONTEXT: _ignored, ...env } = process.env;
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", CHILD, ...modules, dataDir, named ? NAMED : "", String(startAt)],
    { env, stdio: ["ignore", "pipe", "pipe"], cwd: fileURLToPath(new URL("../..", import.meta.url)) },
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    err += c.toString();
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => {
      if (code !== 0) reject(new Error(`the start failed (exit ${code}):\n${err}`));
      else resolve(JSON.parse(out) as Outcome);
    });
  });
}
