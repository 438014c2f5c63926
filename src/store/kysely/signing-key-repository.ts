/**
 * The JWT signing key set, in either dialect. Each key has a position (`seq`: 1 for the first, +1 per rotation)
 * under a unique constraint, and every addition is an insert at the next position that skips on conflict: of two
 * processes adding a key at once (two first starts, two rotations) exactly one writes, whatever the dialect. The
 * insert is the transaction's first statement, so SQLite takes its write lock before reading anything and never meets
 * a snapshot another process has since changed.
 */
import type { Kysely, Selectable } from "kysely";
import type { NewSigningKey, SigningKeyRecord, SigningKeyRepository } from "../types.js";
import { type DialectCodec, orNull } from "./codec.js";
import type { SigningKeysTable, StoreDatabase } from "./schema.js";

/** Rotations that lose the race for a position try the next one; more losses than this mean something is wrong. */
const ROTATE_ATTEMPTS = 5;

export function signingKeyRepository(db: Kysely<StoreDatabase>, codec: DialectCodec): SigningKeyRepository {
  const toRecord = (row: Selectable<SigningKeysTable>): SigningKeyRecord => ({
    kid: row.kid,
    privateJwk: row.private_jwk,
    publicJwk: row.public_jwk,
    createdAt: codec.timestamp(row.created_at),
    retiredAt: orNull(row.retired_at, codec.timestamp),
  });

  /** Adds the key at `seq` and retires the keys before it, unless a key holds `seq` already (false then). */
  const addAt = (key: NewSigningKey, seq: number): Promise<boolean> =>
    db.transaction().execute(async (trx) => {
      const added = await trx
        .insertInto("signing_keys")
        .values({
          kid: key.kid,
          seq,
          private_jwk: key.privateJwk,
          public_jwk: key.publicJwk,
          created_at: key.createdAt,
          retired_at: null,
        })
        .onConflict((oc) => oc.column("seq").doNothing())
        .returning("kid")
        .executeTakeFirst();
      if (!added) return false;
      await trx
        .updateTable("signing_keys")
        .set({ retired_at: key.createdAt })
        .where("seq", "<", seq)
        .where("retired_at", "is", null)
        .execute();
      return true;
    });

  return {
    async list() {
      const rows = await db.selectFrom("signing_keys").selectAll().orderBy("seq").execute();
      return rows.map(toRecord);
    },
    createFirst: (key) => addAt(key, 1),
    async rotate(key) {
      for (let attempt = 0; attempt < ROTATE_ATTEMPTS; attempt++) {
        const newest = await db
          .selectFrom("signing_keys")
          .select((eb) => eb.fn.max("seq").as("seq"))
          .executeTakeFirst();
        if (await addAt(key, (newest?.seq ?? 0) + 1)) return;
      }
      throw new Error(`the signing key set kept changing during ${ROTATE_ATTEMPTS} rotation attempts`);
    },
  };
}
