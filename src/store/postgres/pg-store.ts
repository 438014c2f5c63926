/**
 * The scale-out store: Kysely over node-postgres, shared by any number of API and worker processes. Migrations run at
 * open. Pool connections that break (a PostgreSQL restart) are discarded by pg and replaced on the next query, so a
 * process recovers by itself once the server answers again; the calls made while it was down fail and are retried by
 * their callers (the queue re-delivers jobs, clients retry uploads).
 */
import { Kysely, Migrator, PostgresDialect, type Selectable, sql } from "kysely";
import pg from "pg";
import type { Selection } from "../../catalog/lookup.js";
import type { DocumentType } from "../../document/model.js";
import type { ErrorBody } from "../../domain/errors.js";
import type { FileStatus, Results } from "../../domain/result.js";
import type {
  ClientRecord,
  ClientRepository,
  FileRecord,
  FileRepository,
  NewClient,
  NewFile,
  Store,
  Tenant,
  TenantRepository,
  WorkflowId,
} from "../types.js";
import { pgMigrationProvider } from "./migrations.js";
import type { ClientsTable, FilesTable, PgDatabase } from "./schema.js";
import { taskRepository } from "./task-repository.js";

export interface PostgresHandle {
  store: Store;
  /** The Kysely instance, for the PostgreSQL blob store and the completion channel. */
  db: Kysely<PgDatabase>;
  pool: pg.Pool;
}

export interface PostgresOptions {
  /** Pool size per process (default 10). */
  maxConnections?: number;
  /** Called for errors of pooled connections (e.g. the server restarted); they are replaced, not fatal. */
  onIdleError?: (err: Error) => void;
}

export function createPgPool(url: string, options: PostgresOptions = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10 });
  const report = (err: Error): void => options.onIdleError?.(err);
  // Without a listener, an idle client's error (server restart) would be an uncaught exception.
  pool.on("error", report);
  // pg listens for errors only on idle clients: one that is checked out between two queries (a transaction) when the
  // server goes away would crash the process. The query in flight, if any, still fails on its own.
  pool.on("connect", (client) => client.on("error", report));
  return pool;
}

/** Applies pending migrations; returns the names applied now. */
export async function migratePostgres(db: Kysely<PgDatabase>): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one: name the connection's own, or a
  // second installation in another schema of the same database would look already migrated.
  const { rows } = await sql<{ schema: string | null }>`SELECT current_schema() AS schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error("the database connection has no current schema (check search_path)");
  const migrator = new Migrator({ db, provider: pgMigrationProvider, migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

export async function openPostgresStore(url: string, options: PostgresOptions = {}): Promise<PostgresHandle> {
  const pool = createPgPool(url, options);
  const db = new Kysely<PgDatabase>({ dialect: new PostgresDialect({ pool }) });
  try {
    await migratePostgres(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return {
    db,
    pool,
    store: {
      tenants: tenantRepository(db),
      clients: clientRepository(db),
      files: fileRepository(db),
      tasks: taskRepository(db),
      close: () => db.destroy(),
    },
  };
}

const iso = (d: Date): string => d.toISOString();
const isoOrNull = (d: Date | null): string | null => (d === null ? null : d.toISOString());

function tenantRepository(db: Kysely<PgDatabase>): TenantRepository {
  return {
    async create(tenant: Tenant) {
      await db
        .insertInto("tenants")
        .values({ id: tenant.id, name: tenant.name, created_at: tenant.createdAt })
        .execute();
    },
    async get(id) {
      const row = await db.selectFrom("tenants").selectAll().where("id", "=", id).executeTakeFirst();
      return row && { id: row.id, name: row.name, createdAt: iso(row.created_at) };
    },
  };
}

function toClient(row: Selectable<ClientsTable>): ClientRecord {
  return {
    id: row.id,
    name: row.name,
    tenantId: row.tenant_id,
    secretHash: row.secret_hash,
    scopes: row.scopes.split(" ").filter((s) => s.length > 0),
    createdAt: iso(row.created_at),
    revokedAt: isoOrNull(row.revoked_at),
  };
}

function clientRepository(db: Kysely<PgDatabase>): ClientRepository {
  return {
    async create(client: NewClient) {
      const row = await db
        .insertInto("clients")
        .values({
          id: client.id,
          name: client.name,
          tenant_id: client.tenantId,
          secret_hash: client.secretHash,
          scopes: client.scopes.join(" "),
          created_at: new Date().toISOString(),
          revoked_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toClient(row);
    },
    async get(id) {
      const row = await db.selectFrom("clients").selectAll().where("id", "=", id).executeTakeFirst();
      return row && toClient(row);
    },
    async list() {
      const rows = await db.selectFrom("clients").selectAll().orderBy("created_at").orderBy("id").execute();
      return rows.map(toClient);
    },
    async count() {
      const row = await db
        .selectFrom("clients")
        .select((eb) => eb.fn.countAll<string>().as("n"))
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
  };
}

function toFile(row: Selectable<FilesTable>): FileRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    clientId: row.client_id,
    status: row.status as FileStatus,
    workflow: row.workflow as WorkflowId,
    options: (row.options ?? null) as Record<string, unknown> | null,
    selection: row.selection as Selection,
    locale: row.locale,
    tags: row.tags,
    fileName: row.file_name,
    type: row.type as DocumentType,
    pageCount: row.page_count,
    size: row.size,
    parentId: row.parent_id,
    error: (row.error ?? null) as ErrorBody | null,
    uploadedAt: iso(row.uploaded_at),
    startedAt: isoOrNull(row.started_at),
    finishedAt: isoOrNull(row.finished_at),
    attempts: row.attempts,
  };
}

function fileRepository(db: Kysely<PgDatabase>): FileRepository {
  return {
    async insert(file: NewFile) {
      await db
        .insertInto("files")
        .values({
          id: file.id,
          tenant_id: file.tenantId,
          client_id: file.clientId,
          status: "RECEIVED",
          workflow: file.workflow,
          options: file.options === null ? null : JSON.stringify(file.options),
          selection: JSON.stringify(file.selection),
          locale: file.locale,
          tags: file.tags,
          file_name: file.fileName,
          type: file.type,
          page_count: file.pageCount,
          size: file.size,
          parent_id: file.parentId,
          error: null,
          uploaded_at: file.uploadedAt,
          started_at: null,
          finished_at: null,
        })
        .execute();
    },
    async get(tenantId, id) {
      const row = await db
        .selectFrom("files")
        .selectAll()
        .where("id", "=", id)
        .where("tenant_id", "=", tenantId)
        .executeTakeFirst();
      return row && toFile(row);
    },
    async getForJob(id) {
      const row = await db.selectFrom("files").selectAll().where("id", "=", id).executeTakeFirst();
      return row && toFile(row);
    },
    async markStarted(id, at) {
      const row = await db
        .updateTable("files")
        .set((eb) => ({ status: "IN PROGRESS", started_at: at, attempts: eb("attempts", "+", 1) }))
        .where("id", "=", id)
        .returning("attempts")
        .executeTakeFirstOrThrow();
      return row.attempts;
    },
    async markRetry(id) {
      await db.updateTable("files").set({ status: "RECEIVED" }).where("id", "=", id).execute();
    },
    async finalise(id, results: Results, at) {
      const body = JSON.stringify(results);
      await db.transaction().execute(async (trx) => {
        // First result wins: a job re-delivered after its worker was presumed dead must not replace a result
        // clients may already have read.
        const inserted = await trx
          .insertInto("results")
          .values({ file_id: id, body, created_at: at })
          .onConflict((oc) => oc.column("file_id").doNothing())
          .returning("file_id")
          .executeTakeFirst();
        if (!inserted) return;
        await trx
          .updateTable("files")
          .set({ status: "FINALISED", finished_at: at, error: null })
          .where("id", "=", id)
          .execute();
      });
    },
    async fail(id, error, at) {
      // Never turn a finalised file into a failed one (a late duplicate of its job).
      await db
        .updateTable("files")
        .set({ status: "FAILED", finished_at: at, error: JSON.stringify(error) })
        .where("id", "=", id)
        .where("status", "!=", "FINALISED")
        .execute();
    },
    async getWithResults(tenantId, id) {
      const row = await db
        .selectFrom("files")
        .leftJoin("results", "results.file_id", "files.id")
        .selectAll("files")
        .select("results.body as results_body")
        .where("files.id", "=", id)
        .where("files.tenant_id", "=", tenantId)
        .executeTakeFirst();
      if (!row) return undefined;
      const { results_body, ...file } = row;
      return { file: toFile(file), results: results_body ? (results_body as Results) : undefined };
    },
    async listUnfinished() {
      const rows = await db
        .selectFrom("files")
        .select("id")
        .where("status", "in", ["RECEIVED", "IN PROGRESS"])
        .orderBy("uploaded_at")
        .execute();
      return rows.map((r) => r.id);
    },
  };
}
