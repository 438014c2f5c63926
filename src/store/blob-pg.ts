/**
 * Blobs in PostgreSQL (a bytea table): the default in the scale-out mode, so one database is all the state there is.
 * `put` resolves after the INSERT commits, i.e. once PostgreSQL has made it durable. Writing the same id twice keeps
 * the first bytes (ids are fresh UUIDs; a second write can only be a retried one).
 */
import type { Kysely } from "kysely";
import type { PgDatabase } from "./postgres/schema.js";
import type { BlobStore } from "./types.js";

export function pgBlobStore(db: Kysely<PgDatabase>): BlobStore {
  return {
    async put(id, bytes) {
      await db
        .insertInto("blobs")
        .values({
          id,
          bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          created_at: new Date().toISOString(),
        })
        .onConflict((oc) => oc.column("id").doNothing())
        .execute();
    },
    async get(id) {
      const row = await db.selectFrom("blobs").select("bytes").where("id", "=", id).executeTakeFirst();
      if (!row) throw Object.assign(new Error(`blob ${id} not found`), { code: "ENOENT" });
      return row.bytes;
    },
    async delete(id) {
      await db.deleteFrom("blobs").where("id", "=", id).execute();
    },
  };
}
