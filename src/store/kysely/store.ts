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
import { outboxSignal } from "./outbox.js";
import type { StoreDatabase } from "./schema.js";
import { signingKeyRepository } from "./signing-key-repository.js";
import { taskRepository } from "./task-repository.js";
import { tenantRepository } from "./tenant-repository.js";
import { webhookRepository } from "./webhook-repository.js";

export function kyselyStore(db: Kysely<StoreDatabase>, codec: DialectCodec): Store {
  // State changes write webhook events in their own transactions; the delivery loop of this process hears of them.
  const outbox = outboxSignal();
  return {
    tenants: tenantRepository(db, codec),
    clients: clientRepository(db, codec),
    files: fileRepository(db, codec, outbox),
    tasks: taskRepository(db, codec, outbox),
    signingKeys: signingKeyRepository(db, codec),
    webhooks: webhookRepository(db, codec, outbox),
    close: () => db.destroy(),
  };
}
