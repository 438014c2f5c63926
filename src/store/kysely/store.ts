/**
 * The Store over Kysely, written once for SQLite and PostgreSQL: the openers (sqlite/sqlite-store.ts,
 * postgres/pg-store.ts) set up the connection and run their dialect's migrations, then hand the database and the
 * dialect's codec here.
 */
import type { Kysely } from "kysely";
import type { Store } from "../types.js";
import { clientRepository } from "./client-repository.js";
import type { DialectCodec } from "./codec.js";
import { fileRepository } from "./file-repository.js";
import type { StoreDatabase } from "./schema.js";
import { signingKeyRepository } from "./signing-key-repository.js";
import { taskRepository } from "./task-repository.js";
import { tenantRepository } from "./tenant-repository.js";

export function kyselyStore(db: Kysely<StoreDatabase>, codec: DialectCodec): Store {
  return {
    tenants: tenantRepository(db, codec),
    clients: clientRepository(db, codec),
    files: fileRepository(db, codec),
    tasks: taskRepository(db, codec),
    signingKeys: signingKeyRepository(db, codec),
    close: () => db.destroy(),
  };
}
