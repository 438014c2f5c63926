/**
 * Versioned PostgreSQL migrations, kept in code so the binary carries them. They run at every start (Kysely's
 * Migrator takes an advisory lock, so many processes starting at once apply each migration exactly once) and on
 * `docsift migrate`. Append new entries; never edit one that has shipped.
 */
import { type Kysely, type Migration, type MigrationProvider, sql } from "kysely";

const migrations: Record<string, Migration> = {
  "0001_initial": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("tenants")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("clients")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id"))
        .addColumn("secret_hash", "text", (c) => c.notNull())
        .addColumn("scopes", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull())
        .addColumn("revoked_at", "timestamptz")
        .execute();
      await db.schema
        .createTable("files")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id"))
        .addColumn("client_id", "text", (c) => c.notNull().references("clients.id"))
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("workflow", "text", (c) => c.notNull())
        .addColumn("options", "jsonb")
        .addColumn("selection", "jsonb", (c) => c.notNull())
        .addColumn("locale", "text")
        .addColumn("tags", "text")
        .addColumn("file_name", "text")
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("page_count", "integer", (c) => c.notNull())
        .addColumn("size", "integer", (c) => c.notNull())
        .addColumn("parent_id", "text", (c) => c.references("files.id"))
        .addColumn("error", "jsonb")
        .addColumn("uploaded_at", "timestamptz", (c) => c.notNull())
        .addColumn("started_at", "timestamptz")
        .addColumn("finished_at", "timestamptz")
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex("files_tenant").on("files").columns(["tenant_id", "uploaded_at"]).execute();
      await db.schema.createIndex("files_parent").on("files").column("parent_id").execute();
      // Workers sweep unfinished files at start (uploads whose job was never queued): keep that scan cheap.
      await sql`CREATE INDEX files_unfinished ON files (uploaded_at) WHERE status IN ('RECEIVED', 'IN PROGRESS')`.execute(
        db,
      );
      await db.schema
        .createTable("results")
        .addColumn("file_id", "text", (c) => c.primaryKey().references("files.id"))
        // json, not jsonb: keeps the result text (key order included) exactly as written.
        .addColumn("body", "json", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull())
        .execute();
      // Document bytes when BLOB_URL does not point elsewhere. No foreign key: a blob is written before its file row.
      await db.schema
        .createTable("blobs")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("bytes", "bytea", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  "0002_tasks": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("tasks")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id"))
        .addColumn("file_id", "text", (c) => c.notNull().references("files.id"))
        .addColumn("field_set", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("priority", "integer", (c) => c.notNull())
        .addColumn("breaches", "jsonb", (c) => c.notNull())
        // json, not jsonb: the predicted results become the file's result text on resolution.
        .addColumn("predicted", "json", (c) => c.notNull())
        .addColumn("file_name", "text")
        .addColumn("page_count", "integer", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull())
        .addColumn("resolved_at", "timestamptz")
        .addColumn("resolved_by", "text")
        .addColumn("corrections", "jsonb")
        .execute();
      // One task per file and field set: a job re-run after a crash finds the task instead of adding another.
      await db.schema.createIndex("tasks_file").on("tasks").columns(["file_id", "field_set"]).unique().execute();
      // The review queue's order within a tenant and status.
      await sql`CREATE INDEX tasks_queue ON tasks (tenant_id, status, priority DESC, created_at, id)`.execute(db);
    },
  },
  "0003_upload_idempotency": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("files").addColumn("idempotency_key", "text").execute();
      await db.schema.alterTable("files").addColumn("content_hash", "text").execute();
      // One upload per client and key: of two concurrent requests with one key, the second insert finds the first.
      await sql`CREATE UNIQUE INDEX files_idempotency ON files (client_id, idempotency_key) WHERE idempotency_key IS NOT NULL`.execute(
        db,
      );
    },
  },
  "0004_bootstrap_claim": {
    async up(db: Kysely<unknown>) {
      // The first start's generated client is created by whichever process inserts the row named `client`.
      await db.schema
        .createTable("bootstrap")
        .addColumn("name", "text", (c) => c.primaryKey())
        .addColumn("client_id", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull())
        .execute();
    },
  },
  "0006_files_as_resources": {
    async up(db: Kysely<unknown>) {
      // The parentDocId an upload may name (a client's reference to an earlier document; not a split parent).
      await db.schema.alterTable("files").addColumn("parent_doc_id", "text").execute();
      // The retention sweep looks for the oldest files of every tenant.
      await db.schema.createIndex("files_uploaded").on("files").column("uploaded_at").execute();
    },
  },
  "0007_interruptions": {
    async up(db: Kysely<unknown>) {
      // Jobs of the file cut by a process crash or kill: counted apart from the attempts its processing failed.
      await db.schema
        .alterTable("files")
        .addColumn("interruptions", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  "0008_signing_keys": {
    async up(db: Kysely<unknown>) {
      // The JWT signing key set every process of an installation shares. `seq` is unique so that of two processes
      // adding a key at once (two first starts, two rotations) exactly one does.
      await db.schema
        .createTable("signing_keys")
        .addColumn("kid", "text", (c) => c.primaryKey())
        .addColumn("seq", "integer", (c) => c.notNull().unique())
        .addColumn("private_jwk", "text", (c) => c.notNull())
        .addColumn("public_jwk", "text", (c) => c.notNull())
        .addColumn("created_at", "timestamptz", (c) => c.notNull())
        .addColumn("retired_at", "timestamptz")
        .execute();
    },
  },
  "0009_webhooks": {
    async up(db: Kysely<unknown>) {
      // A tenant's webhook endpoints. The signing secrets are sealed (webhooks/secret.ts); during a rotation's grace
      // period the previous one signs too. `events` is the JSON array of the event types subscribed.
      await db.schema
        .createTable("webhooks")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id"))
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("events", "text", (c) => c.notNull())
        .addColumn("description", "text")
        .addColumn("secret", "text", (c) => c.notNull())
        .addColumn("previous_secret", "text")
        .addColumn("previous_secret_until", "timestamptz")
        .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("disabled_reason", "text")
        .addColumn("failing_since", "timestamptz")
        .addColumn("created_at", "timestamptz", (c) => c.notNull())
        .addColumn("updated_at", "timestamptz", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("webhooks_tenant").on("webhooks").columns(["tenant_id", "created_at"]).execute();
      // The outbox: one row per event and endpoint, written in the transaction of the state change it reports, and
      // the delivery queue itself (claimed with a lease, retried on a schedule). `seq` orders the events of a file.
      // No foreign key to files: an event outlives the file it reports (a deleted file's last events still go).
      await db.schema
        .createTable("webhook_deliveries")
        .addColumn("seq", "serial", (c) => c.primaryKey())
        .addColumn("event_id", "text", (c) => c.notNull())
        .addColumn("webhook_id", "text", (c) => c.notNull().references("webhooks.id"))
        .addColumn("tenant_id", "text", (c) => c.notNull())
        .addColumn("file_id", "text", (c) => c.notNull())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("payload", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "timestamptz", (c) => c.notNull())
        .addColumn("next_attempt_at", "timestamptz", (c) => c.notNull())
        .addColumn("window_start", "timestamptz", (c) => c.notNull())
        .addColumn("lease_until", "timestamptz")
        .addColumn("first_attempt_at", "timestamptz")
        .addColumn("last_attempt_at", "timestamptz")
        .addColumn("last_status_code", "integer")
        .addColumn("last_error", "text")
        .addColumn("delivered_at", "timestamptz")
        .execute();
      // What is due, and the head of each endpoint's per-file order: partial, so delivered rows cost nothing.
      await sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`.execute(
        db,
      );
      await sql`CREATE INDEX webhook_deliveries_order ON webhook_deliveries (webhook_id, file_id, seq) WHERE status = 'pending'`.execute(
        db,
      );
      await db.schema
        .createIndex("webhook_deliveries_log")
        .on("webhook_deliveries")
        .columns(["webhook_id", "seq"])
        .execute();
    },
  },
};

export const pgMigrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
