/**
 * The scale-out store: Kysely over node-postgres, shared by any number of API and worker processes. Migrations run at
 * open. Pool connections that break (a PostgreSQL restart) are discarded by pg and replaced on the next query, so a
 * process recovers by itself once the server answers again; the calls made while it was down fail and are retried by
 * their callers (the queue re-delivers jobs, clients retry uploads). The repositories are the shared ones (../kysely),
 * reading timestamptz and json/jsonb columns through the PostgreSQL codec.
 */
import { Kysely, Migrator, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { postgresCodec } from "../kysely/codec.js";
import type { StoreDatabase } from "../kysely/schema.js";
import { kyselyStore } from "../kysely/store.js";
import type { Store } from "../types.js";
import { pgMigrationProvider } from "./migrations.js";
import type { PgDatabase, PgOnlyTables } from "./schema.js";

export interface PostgresHandle {
  store: Store;
  /** The Kysely instance, for the PostgreSQL blob store and the completion channel. */
  db: Kysely<PgDatabase>;
  pool: pg.Pool;
}

export interface PostgresOptions {
  /** Pool size per process (default 10). */
  maxConnections?: number;
  /** Called for errors of pooled connections (e.g. the server restarted); they are replaced, not fatal. */
  onIdleError?: (err: Error) => void;
}

export function createPgPool(url: string, options: PostgresOptions = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10 });
  const report = (err: Error): void => options.onIdleError?.(err);
  // Without a listener, an idle client's error (server restart) would be an uncaught exception.
  pool.on("error", report);
  // pg listens for errors only on idle clients: one that is checked out between two queries (a transaction) when the
  // server goes away would crash the process. The query in flight, if any, still fails on its own.
  pool.on("connect", (client) => client.on("error", report));
  return pool;
}

/** Applies pending migrations; returns the names applied now. */
export async function migratePostgres(db: Kysely<PgDatabase>): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one: name the connection's own, or a
  // second installation in another schema of the same database would look already migrated.
  const { rows } = await sql<{ schema: string | null }>`SELECT current_schema() AS schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error("the database connection has no current schema (check search_path)");
  const migrator = new Migrator({ db, provider: pgMigrationProvider, migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

export async function openPostgresStore(url: string, options: PostgresOptions = {}): Promise<PostgresHandle> {
  const pool = createPgPool(url, options);
  const storeDb = new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool }) });
  // The same connection pool, typed with the blobs table as well (Kysely's types do not narrow a database to fewer
  // tables, so the wider view is derived from the store's, not the other way round).
  const db = storeDb.withTables<PgOnlyTables>();
  try {
    await migratePostgres(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return { db, pool, store: kyselyStore(storeDb, postgresCodec) };
}
