/**
 * The embedded store: Kysely over better-sqlite3. WAL with synchronous=FULL, so a committed transaction has been
 * fsync'd and an upload receipt really means the row survives a power cut. WAL also lets `docsift clients` write
 * while the server runs. The repositories are the shared ones (../kysely), reading SQLite's text columns.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import { sqliteCodec } from "../kysely/codec.js";
import type { StoreDatabase } from "../kysely/schema.js";
import { kyselyStore } from "../kysely/store.js";
import type { Store } from "../types.js";
import { migrationProvider } from "./migrations.js";

export async function openSqliteStore(path: string): Promise<Store> {
  mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  // The CLI may write while the server runs: wait for the lock instead of failing at once.
  sqlite.pragma("busy_timeout = 5000");
  const db = new Kysely<StoreDatabase>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) {
    await db.destroy();
    throw error;
  }
  return kyselyStore(db, sqliteCodec);
}
