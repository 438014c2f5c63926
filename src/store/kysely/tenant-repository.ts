/** Tenants, in either dialect. */
import type { Kysely, Transaction } from "kysely";
import type { Tenant, TenantRepository } from "../types.js";
import type { DialectCodec } from "./codec.js";
import type { StoreDatabase } from "./schema.js";

/** Also used inside the client repository's transactions, which create a client with its tenant. */
export async function insertTenant(
  db: Kysely<StoreDatabase> | Transaction<StoreDatabase>,
  tenant: Tenant,
): Promise<void> {
  await db.insertInto("tenants").values({ id: tenant.id, name: tenant.name, created_at: tenant.createdAt }).execute();
}

export function tenantRepository(db: Kysely<StoreDatabase>, codec: DialectCodec): TenantRepository {
  return {
    create: (tenant) => insertTenant(db, tenant),
    async get(id) {
      const row = await db.selectFrom("tenants").selectAll().where("id", "=", id).executeTakeFirst();
      return row && { id: row.id, name: row.name, createdAt: codec.timestamp(row.created_at) };
    },
  };
}
