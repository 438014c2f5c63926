/**
 * The tables the repositories use, as one Kysely schema for both dialects. Where the dialects store a column
 * differently (timestamps: ISO text in SQLite, timestamptz in PostgreSQL; JSON: text, or jsonb/json) it is written as
 * text in both and read back as `unknown`: what the driver returns is the dialect codec's business (codec.ts), so
 * nothing reads such a column without decoding it.
 */
import type { ColumnType, Generated } from "kysely";

/** ISO 8601 UTC text on the way in; decoded with `codec.timestamp` on the way out. */
type Timestamp = ColumnType<unknown, string, string>;
type NullableTimestamp = ColumnType<unknown, string | null, string | null>;
/** JSON text on the way in; decoded with `codec.json` on the way out. */
type Json = ColumnType<unknown, string, string>;
type NullableJson = ColumnType<unknown, string | null, string | null>;

export interface TenantsTable {
  id: string;
  name: string;
  created_at: Timestamp;
}

export interface ClientsTable {
  id: string;
  name: string;
  tenant_id: string;
  secret_hash: string;
  /** Space-separated, as in OAuth2's `scope`. */
  scopes: string;
  created_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface FilesTable {
  id: string;
  tenant_id: string;
  client_id: string;
  status: string;
  workflow: string;
  options: NullableJson;
  selection: Json;
  locale: string | null;
  tags: string | null;
  file_name: string | null;
  type: string;
  page_count: number;
  size: number;
  parent_id: string | null;
  error: NullableJson;
  uploaded_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  attempts: Generated<number>;
  interruptions: Generated<number>;
  /** The client's Idempotency-Key; unique per client where set (migration 0003). */
  idempotency_key: string | null;
  /** sha256 hex of the bytes and normalised parameters sent with the key. */
  content_hash: string | null;
  /** The upload's parentDocId (migration 0006). */
  parent_doc_id: string | null;
}

export interface ResultsTable {
  file_id: string;
  body: Json;
  created_at: Timestamp;
}

/** Validation tasks (task-repository.ts). */
export interface TasksTable {
  id: string;
  tenant_id: string;
  file_id: string;
  field_set: string;
  status: string;
  priority: number;
  breaches: Json;
  predicted: Json;
  file_name: string | null;
  page_count: number;
  created_at: Timestamp;
  resolved_at: NullableTimestamp;
  resolved_by: string | null;
  corrections: NullableJson;
}

/** One row per claim: `client` once the first start has created its generated client (migration 0004). */
export interface BootstrapTable {
  name: string;
  client_id: string;
  created_at: Timestamp;
}

/** The JWT signing key set (migration 0008; signing-key-repository.ts). The private JWK is secret. */
export interface SigningKeysTable {
  kid: string;
  /** 1 for the first key, +1 per rotation; unique: the newest signs. */
  seq: number;
  private_jwk: string;
  public_jwk: string;
  created_at: Timestamp;
  retired_at: NullableTimestamp;
}

/** A tenant's webhook endpoints (migration 0009; webhook-repository.ts). The secrets are sealed. */
export interface WebhooksTable {
  id: string;
  tenant_id: string;
  url: string;
  /** JSON array of event types. */
  events: string;
  description: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: NullableTimestamp;
  /** 1 or 0 (an integer in both dialects). */
  enabled: number;
  disabled_reason: string | null;
  failing_since: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The outbox and delivery queue: one row per event and endpoint (migration 0009; outbox.ts). */
export interface WebhookDeliveriesTable {
  seq: Generated<number>;
  event_id: string;
  webhook_id: string;
  tenant_id: string;
  file_id: string;
  type: string;
  /** The JSON body as sent, byte for byte (signatures cover it). */
  payload: string;
  status: string;
  attempts: Generated<number>;
  created_at: Timestamp;
  next_attempt_at: Timestamp;
  /** Start of the retry window: the event's time, or a manual retry's. */
  window_start: Timestamp;
  lease_until: NullableTimestamp;
  /** First attempt of the current retry window. */
  first_attempt_at: NullableTimestamp;
  last_attempt_at: NullableTimestamp;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: NullableTimestamp;
}

export interface StoreDatabase {
  tenants: TenantsTable;
  clients: ClientsTable;
  files: FilesTable;
  results: ResultsTable;
  tasks: TasksTable;
  bootstrap: BootstrapTable;
  signing_keys: SigningKeysTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
