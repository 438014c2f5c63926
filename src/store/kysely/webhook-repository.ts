/**
 * Webhook endpoints and their deliveries, in either dialect. The deliveries table is the queue: a delivery is claimed
 * by a conditional update that sets its lease (of two processes claiming the same row, the second matches nothing),
 * and a claimed row is only ever the oldest pending one of its endpoint and file, so a file's events arrive in order.
 * A process killed mid-attempt leaves a lease that simply runs out; the row is claimed again.
 */
import { type Kysely, type Selectable, sql } from "kysely";
import type { DeliveryRecord, DeliveryStatus, WebhookRecord, WebhookRepository } from "../webhook-types.js";
import { type DialectCodec, orNull } from "./codec.js";
import type { OutboxSignal } from "./outbox.js";
import type { StoreDatabase, WebhookDeliveriesTable, WebhooksTable } from "./schema.js";

export function webhookRepository(
  db: Kysely<StoreDatabase>,
  codec: DialectCodec,
  outbox: OutboxSignal,
): WebhookRepository {
  const toWebhook = (row: Selectable<WebhooksTable>): WebhookRecord => ({
    id: row.id,
    tenantId: row.tenant_id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    description: row.description,
    sealedSecret: row.secret,
    sealedPreviousSecret: row.previous_secret,
    previousSecretUntil: orNull(row.previous_secret_until, codec.timestamp),
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason,
    failingSince: orNull(row.failing_since, codec.timestamp),
    createdAt: codec.timestamp(row.created_at),
    updatedAt: codec.timestamp(row.updated_at),
  });
  const toDelivery = (row: Selectable<WebhookDeliveriesTable>): DeliveryRecord => ({
    seq: row.seq,
    eventId: row.event_id,
    webhookId: row.webhook_id,
    tenantId: row.tenant_id,
    fileId: row.file_id,
    type: row.type,
    payload: row.payload,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    createdAt: codec.timestamp(row.created_at),
    nextAttemptAt: codec.timestamp(row.next_attempt_at),
    windowStart: codec.timestamp(row.window_start),
    firstAttemptAt: orNull(row.first_attempt_at, codec.timestamp),
    lastAttemptAt: orNull(row.last_attempt_at, codec.timestamp),
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    deliveredAt: orNull(row.delivered_at, codec.timestamp),
  });
  /**
   * Pending deliveries of enabled endpoints that nobody holds and that are the oldest pending one of their endpoint
   * and file: what may be attempted (when due).
   */
  const heads = (now: string) =>
    db
      .selectFrom("webhook_deliveries as d")
      .innerJoin("webhooks as w", "w.id", "d.webhook_id")
      .where("d.status", "=", "pending")
      .where((eb) => eb.or([eb("d.lease_until", "is", null), eb("d.lease_until", "<", now)]))
      .where("w.enabled", "=", 1)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("webhook_deliveries as e")
              .select(sql`1`.as("one"))
              .whereRef("e.webhook_id", "=", "d.webhook_id")
              .whereRef("e.file_id", "=", "d.file_id")
              .where("e.status", "=", "pending")
              .whereRef("e.seq", "<", "d.seq"),
          ),
        ),
      );
  const mine = (tenantId: string, id: string) =>
    db.selectFrom("webhooks").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id);

  return {
    async create(hook) {
      const row = await db
        .insertInto("webhooks")
        .values({
          id: hook.id,
          tenant_id: hook.tenantId,
          url: hook.url,
          events: JSON.stringify(hook.events),
          description: hook.description,
          secret: hook.sealedSecret,
          previous_secret: null,
          previous_secret_until: null,
          enabled: 1,
          disabled_reason: null,
          failing_since: null,
          created_at: hook.createdAt,
          updated_at: hook.createdAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toWebhook(row);
    },
    async get(tenantId, id) {
      const row = await mine(tenantId, id).executeTakeFirst();
      return row && toWebhook(row);
    },
    async list(tenantId, after, limit) {
      let query = db.selectFrom("webhooks").selectAll().where("tenant_id", "=", tenantId);
      if (after !== null) {
        query = query.where((eb) =>
          eb.or([
            eb("created_at", ">", after.createdAt),
            eb.and([eb("created_at", "=", after.createdAt), eb("id", ">", after.id)]),
          ]),
        );
      }
      const rows = await query.orderBy("created_at").orderBy("id").limit(limit).execute();
      return rows.map(toWebhook);
    },
    async update(tenantId, id, patch, at) {
      const row = await db
        .updateTable("webhooks")
        .set({
          updated_at: at,
          ...(patch.url === undefined ? {} : { url: patch.url }),
          ...(patch.events === undefined ? {} : { events: JSON.stringify(patch.events) }),
          ...(patch.description === undefined ? {} : { description: patch.description }),
          ...(patch.enabled === undefined
            ? {}
            : patch.enabled
              ? { enabled: 1, disabled_reason: null, failing_since: null }
              : { enabled: 0, disabled_reason: "disabled by its owner" }),
        })
        .where("tenant_id", "=", tenantId)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
      // Deliveries held back while it was disabled are due again.
      if (row && patch.enabled) outbox.written();
      return row && toWebhook(row);
    },
    async rotateSecret(tenantId, id, sealedSecret, previousUntil, at) {
      const row = await db
        .updateTable("webhooks")
        .set((eb) => ({
          previous_secret: eb.ref("secret"),
          previous_secret_until: previousUntil,
          secret: sealedSecret,
          updated_at: at,
        }))
        .where("tenant_id", "=", tenantId)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
      return row && toWebhook(row);
    },
    async remove(tenantId, id) {
      return db.transaction().execute(async (trx) => {
        const found = await trx
          .selectFrom("webhooks")
          .select("id")
          .where("tenant_id", "=", tenantId)
          .where("id", "=", id)
          .executeTakeFirst();
        if (!found) return false;
        await trx.deleteFrom("webhook_deliveries").where("webhook_id", "=", id).execute();
        await trx.deleteFrom("webhooks").where("id", "=", id).execute();
        return true;
      });
    },
    async deliveries(tenantId, webhookId, { status, before, limit }) {
      let query = db
        .selectFrom("webhook_deliveries")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .where("webhook_id", "=", webhookId);
      if (status !== null) query = query.where("status", "=", status);
      if (before !== null) query = query.where("seq", "<", before);
      const rows = await query.orderBy("seq", "desc").limit(limit).execute();
      return rows.map(toDelivery);
    },
    async retryDelivery(tenantId, webhookId, seq, at) {
      const row = await db
        .updateTable("webhook_deliveries")
        .set({ status: "pending", next_attempt_at: at, window_start: at, first_attempt_at: null, lease_until: null })
        .where("tenant_id", "=", tenantId)
        .where("webhook_id", "=", webhookId)
        .where("seq", "=", seq)
        .returningAll()
        .executeTakeFirst();
      if (row) outbox.written();
      return row && toDelivery(row);
    },
    async claimDue(now, leaseUntil, limit) {
      const candidates = await heads(now)
        .select("d.seq")
        .where("d.next_attempt_at", "<=", now)
        .orderBy("d.seq")
        .limit(limit)
        .execute();
      if (candidates.length === 0) return [];
      // One conditional update for the batch: a row another process leased meanwhile no longer matches.
      const rows = await db
        .updateTable("webhook_deliveries")
        .set({ lease_until: leaseUntil })
        .where(
          "seq",
          "in",
          candidates.map((c) => c.seq),
        )
        .where("status", "=", "pending")
        .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", now)]))
        .returningAll()
        .execute();
      const ids = [...new Set(rows.map((r) => r.webhook_id))];
      const hooks = new Map(
        ids.length === 0
          ? []
          : (await db.selectFrom("webhooks").selectAll().where("id", "in", ids).execute()).map((h) => [
              h.id,
              toWebhook(h),
            ]),
      );
      return rows
        .sort((a, b) => a.seq - b.seq)
        .flatMap((row) => {
          const webhook = hooks.get(row.webhook_id);
          return webhook ? [{ delivery: toDelivery(row), webhook }] : [];
        });
    },
    async recordSuccesses(successes, at) {
      await db.transaction().execute(async (trx) => {
        for (const code of new Set(successes.map((s) => s.statusCode))) {
          const seqs = successes.filter((s) => s.statusCode === code).map((s) => s.seq);
          await trx
            .updateTable("webhook_deliveries")
            .set((eb) => ({
              status: "delivered",
              attempts: eb("attempts", "+", 1),
              first_attempt_at: sql<string>`COALESCE(first_attempt_at, ${at})`,
              last_attempt_at: at,
              last_status_code: code,
              last_error: null,
              delivered_at: at,
              lease_until: null,
            }))
            .where("seq", "in", seqs)
            .execute();
        }
        const ended = [...new Set(successes.filter((s) => s.endsFailureRun).map((s) => s.webhookId))];
        if (ended.length > 0) {
          await trx.updateTable("webhooks").set({ failing_since: null }).where("id", "in", ended).execute();
        }
      });
    },
    async recordFailure(seq, webhookId, attempt) {
      return db.transaction().execute(async (trx) => {
        const delivery = await trx
          .updateTable("webhook_deliveries")
          .set((eb) => ({
            status: attempt.nextAttemptAt === null ? "failed" : "pending",
            attempts: eb("attempts", "+", 1),
            first_attempt_at: sql<string>`COALESCE(first_attempt_at, ${attempt.at})`,
            last_attempt_at: attempt.at,
            last_status_code: attempt.statusCode,
            last_error: attempt.error?.slice(0, 500) ?? null,
            next_attempt_at: attempt.nextAttemptAt ?? attempt.at,
            lease_until: null,
          }))
          .where("seq", "=", seq)
          .returning("first_attempt_at")
          .executeTakeFirst();
        const row = await trx
          .updateTable("webhooks")
          .set({ failing_since: sql<string>`COALESCE(failing_since, ${attempt.at})` })
          .where("id", "=", webhookId)
          .returning("failing_since")
          .executeTakeFirst();
        return {
          failingSince: row ? codec.timestamp(row.failing_since) : attempt.at,
          firstAttemptAt: delivery ? codec.timestamp(delivery.first_attempt_at) : attempt.at,
        };
      });
    },
    async disable(webhookId, reason, at) {
      await db
        .updateTable("webhooks")
        .set({ enabled: 0, disabled_reason: reason, updated_at: at })
        .where("id", "=", webhookId)
        .execute();
    },
    async releaseLeases() {
      const result = await db
        .updateTable("webhook_deliveries")
        .set({ lease_until: null })
        .where("status", "=", "pending")
        .where("lease_until", "is not", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    async nextDue(now) {
      const row = await heads(now)
        .select((eb) => eb.fn.min("d.next_attempt_at").as("due"))
        .executeTakeFirst();
      return row?.due == null ? null : codec.timestamp(row.due);
    },
    async backlog() {
      const row = await db
        .selectFrom("webhook_deliveries")
        .select((eb) => [eb.fn.countAll().as("pending"), eb.fn.min("created_at").as("oldest")])
        .where("status", "=", "pending")
        .executeTakeFirst();
      return {
        pending: Number(row?.pending ?? 0),
        oldestCreatedAt: row?.oldest == null ? null : codec.timestamp(row.oldest),
      };
    },
    onWritten: (listener) => outbox.onWritten(listener),
  };
}
