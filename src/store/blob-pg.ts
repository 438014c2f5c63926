/**
 * Blobs in PostgreSQL (a bytea table): the default in the scale-out mode, so one database is all the state there is.
 * `put` resolves after the INSERT commits, i.e. once PostgreSQL has made it durable. Writing the same id twice keeps
 * the first bytes (ids are fresh UUIDs; a second write can only be a retried one). An INSERT cut by a crash is rolled
 * back by PostgreSQL, so there are never partial blobs to remove.
 */
import type { Kysely } from "kysely";
import type { PgDatabase } from "./postgres/schema.js";
import type { BlobStore } from "./types.js";

const LIST_PAGE = 1000;

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
    async *list() {
      // In pages by id: the bytes are never read, and no long-running query holds a snapshot.
      let after = "";
      for (;;) {
        const rows = await db
          .selectFrom("blobs")
          .select(["id", "created_at"])
          .where("id", ">", after)
          .orderBy("id")
          .limit(LIST_PAGE)
          .execute();
        for (const row of rows) yield { id: row.id, storedAt: new Date(row.created_at) };
        const last = rows[rows.length - 1];
        if (!last || rows.length < LIST_PAGE) return;
        after = last.id;
      }
    },
    removeTemporary: async () => 0,
  };
}
