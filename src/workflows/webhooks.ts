/**
 * Webhooks, tenant-scoped: endpoints (create, list, read, change, delete, rotate the secret), their delivery log and
 * manual retries; and one delivery attempt, as the delivery loop runs it (runtime/jobs.ts). The events themselves are
 * written by the store with the state changes they report (store/kysely/outbox.ts).
 */
import { randomBytes } from "node:crypto";
import { newSigningKey } from "../auth/signing-key.js";
import { DocsiftError } from "../domain/errors.js";
import { EVENT_TYPES, type EventType, isEventType } from "../domain/event-types.js";
import { groupCommit } from "../queue/group-commit.js";
import type { Store } from "../store/types.js";
import type {
  ClaimedDelivery,
  DeliveryRecord,
  DeliveryStatus,
  DeliverySuccess,
  WebhookRecord,
} from "../store/webhook-types.js";
import { checkTarget, parseWebhookUrl } from "../webhooks/address.js";
import { DELIVERY_TIMEOUT_MS, postSigned } from "../webhooks/http-send.js";
import { nextAttemptAt, retryPolicy, shouldDisable } from "../webhooks/schedule.js";
import { generateWebhookSecret, type SecretBox, secretBox, signatureHeaders } from "../webhooks/secret.js";
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from "../webhooks/settings.js";
import { keysetPage } from "./page-cursor.js";

export { DEFAULT_WEBHOOK_SETTINGS, EVENT_TYPES, type EventType, type WebhookSettings };

/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_GRACE_MS = 24 * 3_600_000;
/** Longer than an attempt may take: a lease that runs out means its process died mid-attempt. */
export const LEASE_MS = DELIVERY_TIMEOUT_MS * 3;
const MAX_DESCRIPTION = 500;
const WEBHOOK_ID = /^wh_[0-9a-f]{20}$/;
const DELIVERY_ID = /^[1-9][0-9]{0,14}$/;

export interface WebhookDeps {
  store: Store;
  box: SecretBox;
  settings: WebhookSettings;
}

/** An endpoint as its owner sees it: never the secret (shown once, at creation and rotation). */
export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryView {
  id: string;
  eventId: string;
  type: string;
  fileId: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastAttemptAt: string | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export interface WebhookInput {
  url?: string;
  events?: string[];
  description?: string | null;
  enabled?: boolean;
}

function view(hook: WebhookRecord): WebhookView {
  return {
    id: hook.id,
    url: hook.url,
    events: hook.events,
    description: hook.description,
    enabled: hook.enabled,
    disabledReason: hook.disabledReason,
    failingSince: hook.failingSince,
    createdAt: hook.createdAt,
    updatedAt: hook.updatedAt,
  };
}

function deliveryView(d: DeliveryRecord): DeliveryView {
  return {
    id: String(d.seq),
    eventId: d.eventId,
    type: d.type,
    fileId: d.fileId,
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastAttemptAt: d.lastAttemptAt,
    lastError: d.lastError,
    nextAttemptAt: d.status === "pending" ? d.nextAttemptAt : null,
    createdAt: d.createdAt,
    deliveredAt: d.deliveredAt,
  };
}

/**
 * The box that seals signing secrets, keyed by the installation's first JWT signing key (created here if this process
 * is the installation's first, as `serve` would).
 */
export async function openSecretBox(store: Store): Promise<SecretBox> {
  let keys = await store.signingKeys.list();
  if (keys.length === 0) {
    await store.signingKeys.createFirst(await newSigningKey());
    keys = await store.signingKeys.list();
  }
  const first = keys[0];
  if (!first) throw new Error("the signing key set is empty");
  return secretBox(first.privateJwk);
}

async function checkedUrl(deps: WebhookDeps, url: unknown): Promise<string> {
  const parsed = parseWebhookUrl(url, deps.settings);
  await checkTarget(parsed, deps.settings);
  return parsed.href;
}

function checkedEvents(events: unknown): EventType[] {
  if (!Array.isArray(events) || events.length === 0) {
    throw new DocsiftError("bad_request", `events must be a non-empty array of: ${EVENT_TYPES.join(", ")}.`);
  }
  const unknown = events.find((e) => typeof e !== "string" || !isEventType(e));
  if (unknown !== undefined) {
    throw new DocsiftError(
      "bad_request",
      `events: ${JSON.stringify(unknown)} is not an event type (${EVENT_TYPES.join(", ")}).`,
    );
  }
  return [...new Set(events as EventType[])];
}

function checkedDescription(description: unknown): string | null {
  if (description === undefined || description === null) return null;
  if (typeof description !== "string" || description.length > MAX_DESCRIPTION) {
    throw new DocsiftError("bad_request", `description must be a string of at most ${MAX_DESCRIPTION} characters.`);
  }
  return description;
}

export async function createWebhook(
  deps: WebhookDeps,
  tenantId: string,
  input: WebhookInput,
): Promise<WebhookView & { secret: string }> {
  const events = checkedEvents(input.events);
  const description = checkedDescription(input.description);
  const url = await checkedUrl(deps, input.url);
  const secret = generateWebhookSecret();
  const hook = await deps.store.webhooks.create({
    id: `wh_${randomBytes(10).toString("hex")}`,
    tenantId,
    url,
    events,
    description,
    sealedSecret: deps.box.seal(secret),
    createdAt: new Date().toISOString(),
  });
  return { ...view(hook), secret };
}

async function found(deps: Pick<WebhookDeps, "store">, tenantId: string, id: string): Promise<WebhookRecord> {
  const hook = WEBHOOK_ID.test(id) ? await deps.store.webhooks.get(tenantId, id) : undefined;
  if (!hook) throw new DocsiftError("not_found", "No webhook with this id.");
  return hook;
}

export async function getWebhook(deps: Pick<WebhookDeps, "store">, tenantId: string, id: string): Promise<WebhookView> {
  return view(await found(deps, tenantId, id));
}

export async function listWebhooks(
  deps: Pick<WebhookDeps, "store">,
  tenantId: string,
  query: { cursor: string | null; limit: number },
): Promise<{ webhooks: WebhookView[]; next: string | null }> {
  const { rows, next } = await keysetPage<WebhookRecord, { createdAt: string; id: string }>(
    {
      read: ({ createdAt, id }) => (typeof createdAt === "string" && typeof id === "string" ? { createdAt, id } : null),
      keyOf: (hook) => ({ createdAt: hook.createdAt, id: hook.id }),
      rowsAfter: (after, limit) => deps.store.webhooks.list(tenantId, after, limit),
    },
    query.cursor,
    query.limit,
  );
  return { webhooks: rows.map(view), next };
}

export async function updateWebhook(
  deps: WebhookDeps,
  tenantId: string,
  id: string,
  input: WebhookInput,
): Promise<WebhookView> {
  await found(deps, tenantId, id);
  const patch = {
    ...(input.url === undefined ? {} : { url: await checkedUrl(deps, input.url) }),
    ...(input.events === undefined ? {} : { events: checkedEvents(input.events) }),
    ...(input.description === undefined ? {} : { description: checkedDescription(input.description) }),
    ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
  };
  const hook = await deps.store.webhooks.update(tenantId, id, patch, new Date().toISOString());
  if (!hook) throw new DocsiftError("not_found", "No webhook with this id.");
  return view(hook);
}

export async function deleteWebhook(deps: Pick<WebhookDeps, "store">, tenantId: string, id: string): Promise<void> {
  if (!WEBHOOK_ID.test(id) || !(await deps.store.webhooks.remove(tenantId, id))) {
    throw new DocsiftError("not_found", "No webhook with this id.");
  }
}

/** A new secret signs from now on; the old one signs beside it for ROTATION_GRACE_MS. */
export async function rotateWebhookSecret(
  deps: WebhookDeps,
  tenantId: string,
  id: string,
): Promise<{ id: string; secret: string; previousSecretExpiresAt: string }> {
  await found(deps, tenantId, id);
  const secret = generateWebhookSecret();
  const now = Date.now();
  const until = new Date(now + ROTATION_GRACE_MS).toISOString();
  const hook = await deps.store.webhooks.rotateSecret(
    tenantId,
    id,
    deps.box.seal(secret),
    until,
    new Date(now).toISOString(),
  );
  if (!hook) throw new DocsiftError("not_found", "No webhook with this id.");
  return { id, secret, previousSecretExpiresAt: until };
}

function readDeliveryCursor({ seq }: Record<string, unknown>): number | null {
  return typeof seq === "number" && Number.isSafeInteger(seq) ? seq : null;
}

export async function listDeliveries(
  deps: Pick<WebhookDeps, "store">,
  tenantId: string,
  webhookId: string,
  query: { status: DeliveryStatus | null; cursor: string | null; limit: number },
): Promise<{ deliveries: DeliveryView[]; next: string | null }> {
  await found(deps, tenantId, webhookId);
  const { rows, next } = await keysetPage<DeliveryRecord, { seq: number }>(
    {
      read: (decoded) => {
        const seq = readDeliveryCursor(decoded);
        return seq === null ? null : { seq };
      },
      keyOf: (d) => ({ seq: d.seq }),
      rowsAfter: (after, limit) =>
        deps.store.webhooks.deliveries(tenantId, webhookId, {
          status: query.status,
          before: after?.seq ?? null,
          limit,
        }),
    },
    query.cursor,
    query.limit,
  );
  return { deliveries: rows.map(deliveryView), next };
}

/** Sends the delivery again (whatever its state) with a fresh retry window. */
export async function retryDelivery(
  deps: Pick<WebhookDeps, "store">,
  tenantId: string,
  webhookId: string,
  deliveryId: string,
): Promise<DeliveryView> {
  await found(deps, tenantId, webhookId);
  const seq = DELIVERY_ID.test(deliveryId) ? Number(deliveryId) : undefined;
  const retried =
    seq === undefined
      ? undefined
      : await deps.store.webhooks.retryDelivery(tenantId, webhookId, seq, new Date().toISOString());
  if (!retried) throw new DocsiftError("not_found", "No delivery with this id.");
  return deliveryView(retried);
}

export type AttemptOutcome = "delivered" | "retry" | "failed";

/**
 * One attempt of a claimed delivery: signed with the endpoint's secret (and the previous one during a rotation's
 * grace period), sent, and its outcome recorded: delivered, due again after the backoff, or failed once its retry
 * window is spent. An endpoint that failed for a delivery's whole window is disabled.
 */
export interface DeliveryDeps extends WebhookDeps {
  /** Records a success; successes of attempts ending together share a transaction (see `successRecorder`). */
  recordSuccess(success: DeliverySuccess): Promise<void>;
}

/** Records successes group-committed: a burst of deliveries costs a few transactions, not one each. */
export function successRecorder(store: Store): (success: DeliverySuccess) => Promise<void> {
  return groupCommit((successes: DeliverySuccess[]) =>
    store.webhooks.recordSuccesses(successes, new Date().toISOString()),
  );
}

export async function attemptDelivery(deps: DeliveryDeps, claimed: ClaimedDelivery): Promise<AttemptOutcome> {
  const { delivery, webhook } = claimed;
  const sentAt = new Date();
  const secrets = [deps.box.open(webhook.sealedSecret)];
  if (
    webhook.sealedPreviousSecret !== null &&
    webhook.previousSecretUntil !== null &&
    Date.parse(webhook.previousSecretUntil) > sentAt.getTime()
  ) {
    secrets.push(deps.box.open(webhook.sealedPreviousSecret));
  }
  const headers = signatureHeaders(delivery.eventId, sentAt, delivery.payload, secrets);
  const result = await postSigned(webhook.url, delivery.payload, headers, {
    ...deps.settings,
    timeoutMs: DELIVERY_TIMEOUT_MS,
  });
  const now = Date.now();
  const at = new Date(now).toISOString();
  if (result.ok) {
    await deps.recordSuccess({
      seq: delivery.seq,
      webhookId: webhook.id,
      statusCode: result.statusCode ?? 200,
      endsFailureRun: webhook.failingSince !== null,
    });
    return "delivered";
  }
  const policy = retryPolicy(deps.settings.retryBaseMs, deps.settings.retryHours);
  const next = nextAttemptAt(policy, delivery.attempts + 1, now, Date.parse(delivery.windowStart) + policy.windowMs);
  const run = await deps.store.webhooks.recordFailure(delivery.seq, webhook.id, {
    at,
    statusCode: result.statusCode,
    error: result.error,
    nextAttemptAt: next === null ? null : new Date(next).toISOString(),
  });
  if (next === null && shouldDisable(Date.parse(run.failingSince), Date.parse(run.firstAttemptAt))) {
    const { failingSince } = run;
    await deps.store.webhooks.disable(
      webhook.id,
      `Disabled by the service: every delivery has failed since ${failingSince} (longer than the retry window of ${deps.settings.retryHours} h).`,
      at,
    );
  }
  return next === null ? "failed" : "retry";
}

/** Claims up to `limit` due deliveries for this process (see WebhookRepository.claimDue). */
export function claimDeliveries(deps: Pick<WebhookDeps, "store">, limit: number): Promise<ClaimedDelivery[]> {
  const now = Date.now();
  return deps.store.webhooks.claimDue(new Date(now).toISOString(), new Date(now + LEASE_MS).toISOString(), limit);
}
