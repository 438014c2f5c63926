/** Chooses the store and blob store once at start-up. Only the embedded pair exists today (PostgreSQL: issue 7). */
import { join } from "node:path";
import { fsBlobStore } from "./blob-fs.js";
import { openSqliteStore } from "./sqlite/sqlite-store.js";
import type { BlobStore, Store } from "./types.js";

export interface Storage {
  store: Store;
  blobs: BlobStore;
}

export async function openStorage(dataDir: string): Promise<Storage> {
  const store = await openSqliteStore(join(dataDir, "docsift.sqlite"));
  return { store, blobs: fsBlobStore(join(dataDir, "blobs")) };
}
