/**
 * The store's side of webhooks: endpoints (tenant-scoped like everything else) and the outbox rows that are at once
 * the event log and the delivery queue. Types only; store/kysely/webhook-repository.ts implements them.
 */

export interface WebhookRecord {
  id: string;
  tenantId: string;
  url: string;
  events: string[];
  description: string | null;
  /** Sealed (webhooks/secret.ts), never shown again after creation or rotation. */
  sealedSecret: string;
  /** The secret before the last rotation, still signing until `previousSecretUntil`. */
  sealedPreviousSecret: string | null;
  previousSecretUntil: string | null;
  enabled: boolean;
  /** Why it was disabled (by the service after failing for longer than the retry window, or by its owner). */
  disabledReason: string | null;
  /** Start of the current run of failed attempts; null after a success. */
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

export type NewWebhook = Pick<WebhookRecord, "id" | "tenantId" | "url" | "events" | "description" | "sealedSecret"> & {
  createdAt: string;
};

export interface WebhookPatch {
  url?: string;
  events?: string[];
  description?: string | null;
  /** true also clears the failure record of an endpoint the service disabled. */
  enabled?: boolean;
}

export type DeliveryStatus = "pending" | "delivered" | "failed";

export interface DeliveryRecord {
  /** The outbox row's sequence number: orders the events of a file, and names the delivery. */
  seq: number;
  /** The event's id (the `webhook-id` header): the same for every endpoint and every attempt. */
  eventId: string;
  webhookId: string;
  tenantId: string;
  fileId: string;
  type: string;
  /** The body as sent. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  /** When the state change happened. */
  createdAt: string;
  nextAttemptAt: string;
  /** Start of the retry window (the event, or a manual retry). */
  windowStart: string;
  /** First attempt in the current retry window. */
  firstAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
}

export interface DeliverySuccess {
  seq: number;
  webhookId: string;
  statusCode: number;
  endsFailureRun: boolean;
}

/** A delivery claimed for one attempt, with what its endpoint needs to send it. */
export interface ClaimedDelivery {
  delivery: DeliveryRecord;
  webhook: WebhookRecord;
}

export interface DeliveryQuery {
  status: DeliveryStatus | null;
  /** Deliveries before this seq (newest first). */
  before: number | null;
  limit: number;
}

export interface WebhookRepository {
  create(hook: NewWebhook): Promise<WebhookRecord>;
  get(tenantId: string, id: string): Promise<WebhookRecord | undefined>;
  /** The tenant's endpoints, oldest first, after the cursor. */
  list(tenantId: string, after: { createdAt: string; id: string } | null, limit: number): Promise<WebhookRecord[]>;
  update(tenantId: string, id: string, patch: WebhookPatch, at: string): Promise<WebhookRecord | undefined>;
  /** The new sealed secret signs from now; the old one too until `previousUntil`. */
  rotateSecret(
    tenantId: string,
    id: string,
    sealedSecret: string,
    previousUntil: string,
    at: string,
  ): Promise<WebhookRecord | undefined>;
  /** Removes the endpoint and its deliveries; false when the tenant has no such endpoint. */
  remove(tenantId: string, id: string): Promise<boolean>;
  deliveries(tenantId: string, webhookId: string, query: DeliveryQuery): Promise<DeliveryRecord[]>;
  /** Back to pending, due now, with a new retry window; undefined when the tenant's endpoint has no such delivery. */
  retryDelivery(tenantId: string, webhookId: string, seq: number, at: string): Promise<DeliveryRecord | undefined>;
  /**
   * Up to `limit` pending deliveries due at `now` of enabled endpoints, each the oldest pending one of its endpoint and
   * file (events of a file go in order), leased until `leaseUntil`: of processes claiming at once, one gets each.
   */
  claimDue(now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]>;
  /**
   * 2xx answers, in one transaction (a burst of deliveries is recorded in a few): delivered at `at`; one with
   * `endsFailureRun` (its endpoint was failing when claimed) also clears the endpoint's failure record.
   */
  recordSuccesses(successes: readonly DeliverySuccess[], at: string): Promise<void>;
  /**
   * A failed attempt: pending again at `nextAttemptAt`, or failed when null; the endpoint's failure run starts (if it
   * had not). Returns when the endpoint's failure run started and when this delivery was first attempted.
   */
  recordFailure(
    seq: number,
    webhookId: string,
    attempt: { at: string; statusCode: number | null; error: string | null; nextAttemptAt: string | null },
  ): Promise<{ failingSince: string; firstAttemptAt: string }>;
  /** Disabled by the service: no new events, no attempts, until its owner enables it again. */
  disable(webhookId: string, reason: string, at: string): Promise<void>;
  /** Frees every lease (the embedded mode at start: the one process that held them is gone). */
  releaseLeases(): Promise<number>;
  /** When the earliest delivery `claimDue` could take at `now` is due, if any. */
  nextDue(now: string): Promise<string | null>;
  /** Pending deliveries and the time of the oldest one's event (metrics). */
  backlog(): Promise<{ pending: number; oldestCreatedAt: string | null }>;
  /** Calls `listener` after each commit that wrote outbox rows in this process; returns the unsubscribe. */
  onWritten(listener: () => void): () => void;
}
