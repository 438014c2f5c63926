/**
 * The embedded store: Kysely over better-sqlite3. WAL with synchronous=FULL, so a committed transaction has been
 * fsync'd and an upload receipt really means the row survives a power cut. WAL also lets `docsift clients` write
 * while the server runs.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, type Selectable, SqliteDialect } from "kysely";
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
import { migrationProvider } from "./migrations.js";
import type { ClientsTable, Database, FilesTable } from "./schema.js";
import { taskRepository } from "./task-repository.js";

export async function openSqliteStore(path: string): Promise<Store> {
  mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  // The CLI may write while the server runs: wait for the lock instead of failing at once.
  sqlite.pragma("busy_timeout = 5000");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) {
    await db.destroy();
    throw error;
  }
  return {
    tenants: tenantRepository(db),
    clients: clientRepository(db),
    files: fileRepository(db),
    tasks: taskRepository(db),
    close: () => db.destroy(),
  };
}

function tenantRepository(db: Kysely<Database>): TenantRepository {
  return {
    async create(tenant: Tenant) {
      await db
        .insertInto("tenants")
        .values({ id: tenant.id, name: tenant.name, created_at: tenant.createdAt })
        .execute();
    },
    async get(id) {
      const row = await db.selectFrom("tenants").selectAll().where("id", "=", id).executeTakeFirst();
      return row && { id: row.id, name: row.name, createdAt: row.created_at };
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
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

function clientRepository(db: Kysely<Database>): ClientRepository {
  return {
    async create(client: NewClient) {
      const row = {
        id: client.id,
        name: client.name,
        tenant_id: client.tenantId,
        secret_hash: client.secretHash,
        scopes: client.scopes.join(" "),
        created_at: new Date().toISOString(),
        revoked_at: null,
      };
      await db.insertInto("clients").values(row).execute();
      return toClient(row);
    },
    async get(id) {
      const row = await db.selectFrom("clients").selectAll().where("id", "=", id).executeTakeFirst();
      return row && toClient(row);
    },
    async list() {
      const rows = await db.selectFrom("clients").selectAll().orderBy("created_at").execute();
      return rows.map(toClient);
    },
    async count() {
      const row = await db
        .selectFrom("clients")
        .select((eb) => eb.fn.countAll<number>().as("n"))
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
    options: row.options === null ? null : (JSON.parse(row.options) as Record<string, unknown>),
    selection: JSON.parse(row.selection) as Selection,
    locale: row.locale,
    tags: row.tags,
    fileName: row.file_name,
    type: row.type as DocumentType,
    pageCount: row.page_count,
    size: row.size,
    parentId: row.parent_id,
    error: row.error === null ? null : (JSON.parse(row.error) as ErrorBody),
    uploadedAt: row.uploaded_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    attempts: row.attempts,
  };
}

function fileRepository(db: Kysely<Database>): FileRepository {
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
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("results")
          .values({ file_id: id, body: JSON.stringify(results), created_at: at })
          .onConflict((oc) => oc.column("file_id").doUpdateSet({ body: JSON.stringify(results), created_at: at }))
          .execute();
        await trx
          .updateTable("files")
          .set({ status: "FINALISED", finished_at: at, error: null })
          .where("id", "=", id)
          .execute();
      });
    },
    async fail(id, error, at) {
      await db
        .updateTable("files")
        .set({ status: "FAILED", finished_at: at, error: JSON.stringify(error) })
        .where("id", "=", id)
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
      return { file: toFile(file), results: results_body ? (JSON.parse(results_body) as Results) : undefined };
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
