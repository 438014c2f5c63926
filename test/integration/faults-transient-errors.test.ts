/**
 * The transient-failure classification on errors raised for real: a write to /dev/full (ENOSPC), a SQLite write
 * against another connection's exclusive lock, a PostgreSQL connection refused and one terminated by the server
 * (57P01, what a restart does to open sessions). Permanent failures stay unclassified.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import SQLite from "better-sqlite3";
import pg from "pg";
import { DocsiftError } from "../../src/domain/errors.js";
import { transientKind, unavailableFor } from "../../src/store/transient-errors.js";
import { PG_TEST_URL } from "../helpers/pg-schema.js";

async function caught(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a failure");
}

describe("transient storage failures become 503 unavailable with Retry-After", () => {
  const dirs: string[] = [];
  after(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it("disk full (ENOSPC from /dev/full)", async () => {
    const err = await caught(() => writeFile("/dev/full", Buffer.alloc(4096)));
    assert.equal(transientKind(err), "disk_full");
    const mapped = unavailableFor(err, "The upload was not stored.");
    assert.ok(mapped);
    assert.equal(mapped.code, "unavailable");
    assert.equal(mapped.status, 503);
    assert.equal(mapped.retryAfterSeconds, 60);
    assert.match(mapped.message, /^The upload was not stored\. The server's storage is full/);
    assert.ok(!mapped.message.includes("/dev/full"), "no internals in the message");
    assert.equal(mapped.cause, err);
  });

  it("SQLite busy: a write against another connection's exclusive lock", async () => {
    const dir = await mkdtemp(join(tmpdir(), "docsift-busy-"));
    dirs.push(dir);
    const path = join(dir, "db.sqlite");
    const holder = new SQLite(path);
    const other = new SQLite(path);
    try {
      holder.pragma("journal_mode = WAL");
      holder.exec("CREATE TABLE t (x INTEGER)");
      other.pragma("busy_timeout = 0");
      holder.exec("BEGIN EXCLUSIVE");
      const err = await caught(() => other.prepare("INSERT INTO t VALUES (1)").run());
      assert.match(String((err as { code?: unknown }).code), /^SQLITE_BUSY/);
      assert.equal(transientKind(err), "database_busy");
      assert.equal(unavailableFor(err)?.retryAfterSeconds, 2);
      holder.exec("ROLLBACK");
      // A constraint violation is the caller's bug, not an outage.
      holder.exec("CREATE TABLE u (x INTEGER PRIMARY KEY)");
      holder.exec("INSERT INTO u VALUES (1)");
      const dup = await caught(() => holder.exec("INSERT INTO u VALUES (1)"));
      assert.equal(transientKind(dup), undefined);
    } finally {
      holder.close();
      other.close();
    }
  });

  it("PostgreSQL unreachable (connection refused) and terminated by the server (57P01)", async () => {
    const refusedUrl = new URL(PG_TEST_URL);
    refusedUrl.port = "1";
    const refusedClient = new pg.Client({ connectionString: refusedUrl.toString() });
    const refused = await caught(() => refusedClient.connect());
    assert.equal(transientKind(refused), "database_unreachable");
    assert.equal(unavailableFor(refused)?.retryAfterSeconds, 5);

    const victim = new pg.Client({ connectionString: PG_TEST_URL });
    const admin = new pg.Client({ connectionString: PG_TEST_URL });
    victim.on("error", () => undefined);
    await victim.connect();
    await admin.connect();
    try {
      const { rows } = await victim.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      const pid = rows[0]?.pid;
      const pending = caught(() => victim.query("SELECT pg_sleep(30)"));
      // Terminate it mid-query, as a restart does to busy sessions.
      const running = "SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND query LIKE '%pg_sleep%' AND state = 'active'";
      while ((await admin.query(running, [pid])).rowCount === 0) await new Promise((r) => setTimeout(r, 20));
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
      const terminated = await pending;
      assert.equal((terminated as { code?: unknown }).code, "57P01");
      assert.equal(transientKind(terminated), "database_unreachable");
      // A query on the dropped connection fails with node-postgres's own code-less error: still transient.
      const afterwards = await caught(() => victim.query("SELECT 1"));
      assert.equal(transientKind(afterwards), "database_unreachable", String(afterwards));
      // A syntax error is permanent.
      const syntax = await caught(() => admin.query("SELEC 1"));
      assert.equal(transientKind(syntax), undefined);
    } finally {
      await victim.end().catch(() => undefined);
      await admin.end();
    }
  });

  it("errors that are already DocsiftErrors, or not errors at all, are left alone", () => {
    assert.equal(unavailableFor(new DocsiftError("corrupt_file", "bad")), undefined);
    assert.equal(unavailableFor(new Error("boom")), undefined);
    assert.equal(unavailableFor("ENOSPC"), undefined);
    assert.equal(unavailableFor(null), undefined);
  });
});
