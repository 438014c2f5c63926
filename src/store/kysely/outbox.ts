/**
 * The webhook outbox's write side. A state change that reports an event (a file finalised or failed, a task created,
 * opened or resolved) calls `writeEvents` inside its own transaction: one row per event and subscribed endpoint of
 * the tenant, so the event exists exactly when the change does, whatever crashes after. A tenant without endpoints
 * pays one indexed read. The rows are then the delivery queue (webhook-repository.ts).
 */
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { WebhookEvent } from "../../webhooks/events.js";
import type { StoreDatabase } from "./schema.js";

/** Tells this process's delivery loop that a commit wrote outbox rows (other processes find them by polling). */
export interface OutboxSignal {
  written(): void;
  onWritten(listener: () => void): () => void;
}

export function outboxSignal(): OutboxSignal {
  const listeners = new Set<() => void>();
  return {
    written: () => {
      for (const listener of listeners) listener();
    },
    onWritten(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The Standard Webhooks message id: the same for every endpoint and every attempt of one event. */
function eventId(): string {
  return `msg_${randomBytes(16).toString("hex")}`;
}

/** Writes the events' rows in `trx` (the state change's transaction); returns how many rows. */
export async function writeEvents(
  trx: Kysely<StoreDatabase>,
  events: readonly WebhookEvent[],
  at: string,
): Promise<number> {
  const first = events[0];
  if (!first) return 0;
  const hooks = await trx
    .selectFrom("webhooks")
    .select(["id", "events"])
    .where("tenant_id", "=", first.tenantId)
    .where("enabled", "=", 1)
    .execute();
  if (hooks.length === 0) return 0;
  const subscribed = hooks.map((h) => ({ id: h.id, events: new Set(JSON.parse(h.events) as string[]) }));
  const rows = events.flatMap((event) => {
    const targets = subscribed.filter((h) => h.events.has(event.type));
    if (targets.length === 0) return [];
    const id = eventId();
    const payload = JSON.stringify(event.body);
    return targets.map((hook) => ({
      event_id: id,
      webhook_id: hook.id,
      tenant_id: event.tenantId,
      file_id: event.fileId,
      type: event.type,
      payload,
      status: "pending",
      created_at: at,
      next_attempt_at: at,
      window_start: at,
    }));
  });
  if (rows.length > 0) await trx.insertInto("webhook_deliveries").values(rows).execute();
  return rows.length;
}
