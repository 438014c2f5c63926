/** API clients, in either dialect. Scopes are one space-separated column, as in OAuth2's `scope`. */
import type { Kysely, Selectable } from "kysely";
import type { ClientRecord, ClientRepository } from "../types.js";
import { type DialectCodec, orNull } from "./codec.js";
import type { ClientsTable, StoreDatabase } from "./schema.js";

const parseScopes = (scopes: string): string[] => scopes.split(" ").filter((s) => s.length > 0);

export function clientRepository(db: Kysely<StoreDatabase>, codec: DialectCodec): ClientRepository {
  const toClient = (row: Selectable<ClientsTable>): ClientRecord => ({
    id: row.id,
    name: row.name,
    tenantId: row.tenant_id,
    secretHash: row.secret_hash,
    scopes: parseScopes(row.scopes),
    createdAt: codec.timestamp(row.created_at),
    revokedAt: orNull(row.revoked_at, codec.timestamp),
  });

  return {
    async create(client) {
      const scopes = client.scopes.join(" ");
      const createdAt = new Date().toISOString();
      await db
        .insertInto("clients")
        .values({
          id: client.id,
          name: client.name,
          tenant_id: client.tenantId,
          secret_hash: client.secretHash,
          scopes,
          created_at: createdAt,
          revoked_at: null,
        })
        .execute();
      // What a read returns: in both dialects ISO text goes in and the same text comes back out.
      return {
        id: client.id,
        name: client.name,
        tenantId: client.tenantId,
        secretHash: client.secretHash,
        scopes: parseScopes(scopes),
        createdAt,
        revokedAt: null,
      };
    },
    async get(id) {
      const row = await db.selectFrom("clients").selectAll().where("id", "=", id).executeTakeFirst();
      return row && toClient(row);
    },
    async list() {
      // The id breaks ties between clients created in the same millisecond, so the order is the same every time.
      const rows = await db.selectFrom("clients").selectAll().orderBy("created_at").orderBy("id").execute();
      return rows.map(toClient);
    },
    async count() {
      // PostgreSQL's count is a bigint, which node-postgres returns as text; SQLite's is a number.
      const row = await db
        .selectFrom("clients")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async revoke(id) {
      const res = await db
        .updateTable("clients")
        .set({ revoked_at: new Date().toISOString() })
        .where("id", "=", id)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },
    async setSecretHash(id, secretHash) {
      await db.updateTable("clients").set({ secret_hash: secretHash }).where("id", "=", id).execute();
    },
  };
}
