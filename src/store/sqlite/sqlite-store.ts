/**
 * The embedded store: Kysely over better-sqlite3. WAL with synchronous=FULL, so a committed transaction has been
 * fsync'd and an upload receipt really means the row survives a power cut. WAL also lets `docsift clients` write
 * while the server runs. The repositories are the shared ones (../kysely), reading SQLite's text columns.
 */
import { chmodSync, closeSync, openSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import { sqliteCodec } from "../kysely/codec.js";
import type { StoreDatabase } from "../kysely/schema.js";
import { kyselyStore } from "../kysely/store.js";
import type { Store } from "../types.js";
import { migrationProvider } from "./migrations.js";

/**
 * Kysely's migrator takes no lock on SQLite, so two processes opening one new database at once (a server and a
 * `docsift clients` command) would both apply the same migration. One IMMEDIATE transaction around all of it takes
 * the write lock first (the other process waits, up to busy_timeout, then sees the migrations done) and makes the
 * step all or nothing.
 */
async function migrate(sqlite: SQLite.Database, db: Kysely<StoreDatabase>): Promise<void> {
  sqlite.exec("BEGIN IMMEDIATE");
  try {
    const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
    if (error) throw error;
    sqlite.exec("COMMIT");
  } catch (err) {
    if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
    throw err;
  }
}

/**
 * A new database file is created owner-only (0600) before SQLite opens it: SQLite would create it 0644 less the
 * umask, and it gives the -wal and -shm files it creates the database file's mode. An existing file is left as is.
 */
function createOwnerOnly(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return;
    throw err;
  }
  closeSync(fd);
  // The umask may have taken bits from 0600 too.
  chmodSync(path, 0o600);
}

/**
 * Switches to WAL. Two processes opening a new database at the same moment can get SQLITE_BUSY from this pragma at
 * once, without the busy handler being asked (SQLite does not wait for that lock, to avoid a deadlock), so it is
 * retried for up to the busy timeout.
 */
async function switchToWal(sqlite: SQLite.Database): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      sqlite.pragma("journal_mode = WAL");
      return;
    } catch (err) {
      const busy = err instanceof SQLite.SqliteError && err.code === "SQLITE_BUSY";
      if (!busy || Date.now() > deadline) throw err;
      await delay(10 + Math.random() * 40);
    }
  }
}

/** Opens (creating if need be) the database at `path`, in an existing directory, and brings its schema up to date. */
export async function openSqliteStore(path: string): Promise<Store> {
  createOwnerOnly(path);
  const sqlite = new SQLite(path);
  // The CLI may write while the server runs: wait for the lock instead of failing at once. First, so that switching
  // a new database to WAL waits too when another process opens it at the same moment.
  sqlite.pragma("busy_timeout = 5000");
  await switchToWal(sqlite);
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  const db = new Kysely<StoreDatabase>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    await migrate(sqlite, db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return kyselyStore(db, sqliteCodec);
}
