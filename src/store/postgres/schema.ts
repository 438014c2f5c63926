/**
 * The PostgreSQL database as Kysely sees it: the store's tables (../kysely/schema.ts: timestamps are timestamptz;
 * options, selection, error, breaches and corrections jsonb; a result body and a task's predicted results `json`,
 * which keeps the text as written) plus the blobs table, when BLOB_URL does not point elsewhere.
 */
import type { ColumnType } from "kysely";
import type { StoreDatabase } from "../kysely/schema.js";

export interface BlobsTable {
  id: string;
  bytes: Buffer;
  created_at: ColumnType<Date, string, string>;
}

/** The tables only the PostgreSQL mode has (a type alias: Kysely's `withTables` wants an indexable type). */
export type PgOnlyTables = { blobs: BlobsTable };

export type PgDatabase = StoreDatabase & PgOnlyTables;
