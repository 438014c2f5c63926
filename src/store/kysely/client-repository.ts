/**
 * API clients, in either dialect. Scopes are one space-separated column, as in OAuth2's `scope`. The creations that
 * processes starting at once may race on (the bootstrap client) are single transactions decided by a primary key:
 * PostgreSQL makes the second insert of a key wait for the first transaction and then skip, SQLite runs one write
 * transaction at a time, so exactly one of them writes and the other writes nothing.
 */
import type { Kysely, Selectable, Transaction } from "kysely";
import type { ClientRecord, ClientRepository, NewClient } from "../types.js";
import { type DialectCodec, orNull } from "./codec.js";
import type { ClientsTable, StoreDatabase } from "./schema.js";
import { insertTenant } from "./tenant-repository.js";

const parseScopes = (scopes: string): string[] => scopes.split(" ").filter((s) => s.length > 0);

/** The bootstrap table's one claim (see createBootstrap). */
const BOOTSTRAP_CLAIM = "client";

/** Rolls back a transaction that found the client id taken. */
class ClientIdTaken extends Error {}

type Db = Kysely<StoreDatabase> | Transaction<StoreDatabase>;

/** Inserts the client unless its id exists; the record as a read returns it, or undefined when the id was taken. */
async function insertClient(db: Db, client: NewClient): Promise<ClientRecord | undefined> {
  const scopes = client.scopes.join(" ");
  const createdAt = new Date().toISOString();
  const row = await db
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
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!row) return undefined;
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
}

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
      const created = await insertClient(db, client);
      if (!created) throw new Error(`a client with id ${JSON.stringify(client.id)} already exists`);
      return created;
    },
    async createIfAbsent(client, newTenant) {
      try {
        return await db.transaction().execute(async (trx) => {
          if (newTenant) await insertTenant(trx, newTenant);
          const created = await insertClient(trx, client);
          // The new tenant must not outlive the client that lost the race: roll both back.
          if (!created) throw new ClientIdTaken();
          return created;
        });
      } catch (err) {
        if (err instanceof ClientIdTaken) return undefined;
        throw err;
      }
    },
    async createBootstrap(client, newTenant) {
      return db.transaction().execute(async (trx) => {
        const claimed = await trx
          .insertInto("bootstrap")
          .values({ name: BOOTSTRAP_CLAIM, client_id: client.id, created_at: new Date().toISOString() })
          .onConflict((oc) => oc.column("name").doNothing())
          .returning("name")
          .executeTakeFirst();
        if (!claimed) return false;
        if (newTenant) await insertTenant(trx, newTenant);
        if (!(await insertClient(trx, client))) throw new Error("a generated client id already exists");
        return true;
      });
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
    async setScopes(id, scopes) {
      await db
        .updateTable("clients")
        .set({ scopes: scopes.join(" ") })
        .where("id", "=", id)
        .execute();
    },
    async bootstrapClientId() {
      const row = await db
        .selectFrom("bootstrap")
        .select("client_id")
        .where("name", "=", BOOTSTRAP_CLAIM)
        .executeTakeFirst();
      return row?.client_id ?? undefined;
    },
  };
}
