/**
 * Chooses the store and blob store once at start-up: embedded (SQLite + files under the data directory) by default,
 * PostgreSQL when a database URL is given (blobs then in PostgreSQL, or in S3 when a blob URL says so).
 */
import { chmod, mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Kysely } from "kysely";
import { fsBlobStore } from "./blob-fs.js";
import { pgBlobStore } from "./blob-pg.js";
import type { S3Settings } from "./blob-s3.js";
import { openPostgresStore } from "./postgres/pg-store.js";
import type { PgDatabase } from "./postgres/schema.js";
import { openSqliteStore } from "./sqlite/sqlite-store.js";
import type { BlobStore, Store } from "./types.js";

export interface Storage {
  store: Store;
  blobs: BlobStore;
  /** Set in the PostgreSQL mode: the queue and the completion channel use the same database. */
  postgres?: { url: string; db: Kysely<PgDatabase> };
}

export interface StorageOptions {
  /** postgres://... (DATABASE_URL): switches the store to PostgreSQL. */
  databaseUrl?: string;
  /** s3://bucket/prefix (BLOB_URL); only with a database URL. */
  blobUrl?: string;
  /** Region, endpoint and addressing of an s3:// blob URL (runtime/config.ts). */
  s3?: S3Settings;
  /** Errors of idle PostgreSQL connections (a server restart): logged, not fatal. */
  onDatabaseError?: (err: Error) => void;
}

/**
 * The data directory, created owner-only (0700) whatever the umask: it holds the database, the documents and the
 * signing keys. mkdir's mode passes through the umask, hence the chmod. A directory that exists keeps the mode its
 * operator gave it.
 */
export async function ensureDataDir(dir: string): Promise<void> {
  const created = await mkdir(dir, { recursive: true, mode: 0o700 });
  if (created !== undefined) await chmod(dir, 0o700);
}

export async function openStorage(dataDir: string, options: StorageOptions = {}): Promise<Storage> {
  if (options.databaseUrl) {
    const { store, db } = await openPostgresStore(options.databaseUrl, { onIdleError: options.onDatabaseError });
    const blobs = await openBlobStore(options, db).catch(async (err: unknown) => {
      await store.close();
      throw err;
    });
    return { store, blobs, postgres: { url: options.databaseUrl, db } };
  }
  if (options.blobUrl)
    throw new Error("BLOB_URL needs DATABASE_URL: the embedded mode keeps blobs in its data directory");
  await ensureDataDir(dataDir);
  const store = await openSqliteStore(join(dataDir, "docsift.sqlite"));
  return { store, blobs: fsBlobStore(join(dataDir, "blobs")) };
}

async function openBlobStore({ blobUrl, s3 }: StorageOptions, db: Kysely<PgDatabase>): Promise<BlobStore> {
  if (!blobUrl) return pgBlobStore(db);
  if (blobUrl.startsWith("s3://")) {
    // Loaded only when used: the AWS SDK is large.
    const { s3BlobStore } = await import("./blob-s3.js");
    if (!s3) throw new Error("an s3:// BLOB_URL needs S3 settings (region, endpoint)");
    return s3BlobStore(blobUrl, s3);
  }
  throw new Error(`unsupported BLOB_URL ${JSON.stringify(blobUrl)}`);
}
