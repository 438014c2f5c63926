/** Tenants, in either dialect. */
import type { Kysely } from "kysely";
import type { TenantRepository } from "../types.js";
import type { DialectCodec } from "./codec.js";
import type { StoreDatabase } from "./schema.js";

export function tenantRepository(db: Kysely<StoreDatabase>, codec: DialectCodec): TenantRepository {
  return {
    async create(tenant) {
      await db
        .insertInto("tenants")
        .values({ id: tenant.id, name: tenant.name, created_at: tenant.createdAt })
        .execute();
    },
    async get(id) {
      const row = await db.selectFrom("tenants").selectAll().where("id", "=", id).executeTakeFirst();
      return row && { id: row.id, name: row.name, createdAt: codec.timestamp(row.created_at) };
    },
  };
}
