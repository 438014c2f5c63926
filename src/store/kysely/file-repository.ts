/**
 * Files and their results, in either dialect. A result is written once: the first to finalise a file wins, because a
 * job re-delivered after its worker was presumed dead (or run twice in any other way) must not replace a result
 * clients may already have read, nor turn a finalised file into a failed one.
 */
import { type Kysely, type Selectable, sql } from "kysely";
import type { Selection } from "../../catalog/lookup.js";
import type { FileFormat } from "../../document/model.js";
import type { ErrorBody } from "../../domain/errors.js";
import type { FileStatus, Results } from "../../domain/result.js";
import { planFromStored, storedOptions } from "../../domain/stored-workflow-plan.js";
import { decodeTags } from "../../domain/tags.js";
import { failedEvents, finalisedEvents } from "../../webhooks/events.js";
import type { FileRecord, FileRepository } from "../types.js";
import { type DialectCodec, orNull } from "./codec.js";
import { type OutboxSignal, writeEvents } from "./outbox.js";
import type { FilesTable, StoreDatabase } from "./schema.js";

export function fileRepository(db: Kysely<StoreDatabase>, codec: DialectCodec, outbox: OutboxSignal): FileRepository {
  const toFile = (row: Selectable<FilesTable>): FileRecord => ({
    id: row.id,
    tenantId: row.tenant_id,
    clientId: row.client_id,
    status: row.status as FileStatus,
    ...planFromStored(row.workflow, orNull(row.options, codec.json)),
    selection: codec.json(row.selection) as Selection,
    locale: row.locale,
    tags: row.tags,
    fileName: row.file_name,
    type: row.type as FileFormat,
    pageCount: row.page_count,
    size: row.size,
    parentId: row.parent_id,
    parentDocId: row.parent_doc_id,
    error: orNull(row.error, codec.json) as ErrorBody | null,
    uploadedAt: codec.timestamp(row.uploaded_at),
    startedAt: orNull(row.started_at, codec.timestamp),
    finishedAt: orNull(row.finished_at, codec.timestamp),
    attempts: row.attempts,
    interruptions: row.interruptions,
  });
  const fileById = (id: string) => db.selectFrom("files").selectAll().where("id", "=", id);
  /** File ids in upload order, for the sweeps that replay or re-dispatch work. */
  const idsOldestFirst = () => db.selectFrom("files").select("id").orderBy("uploaded_at");

  return {
    async insert(file) {
      const options = storedOptions(file);
      const inserted = await db
        .insertInto("files")
        .values({
          id: file.id,
          tenant_id: file.tenantId,
          client_id: file.clientId,
          status: "RECEIVED",
          workflow: file.workflow,
          options: options === null ? null : JSON.stringify(options),
          selection: JSON.stringify(file.selection),
          locale: file.locale,
          tags: file.tags,
          file_name: file.fileName,
          type: file.type,
          page_count: file.pageCount,
          size: file.size,
          parent_id: file.parentId,
          parent_doc_id: file.parentDocId ?? null,
          error: null,
          uploaded_at: file.uploadedAt,
          started_at: null,
          finished_at: null,
          idempotency_key: file.idempotency?.key ?? null,
          content_hash: file.idempotency?.contentHash ?? null,
        })
        // Only the key's partial unique index is a target: any other conflict (a duplicate id) still throws.
        .onConflict((oc) =>
          oc.columns(["client_id", "idempotency_key"]).where("idempotency_key", "is not", null).doNothing(),
        )
        .returning("id")
        .executeTakeFirst();
      return inserted !== undefined;
    },
    async findByIdempotencyKey(clientId, key) {
      const row = await db
        .selectFrom("files")
        .select(["id", "uploaded_at", "content_hash"])
        .where("client_id", "=", clientId)
        .where("idempotency_key", "=", key)
        .executeTakeFirst();
      return (
        row && { fileId: row.id, uploadedAt: codec.timestamp(row.uploaded_at), contentHash: row.content_hash ?? "" }
      );
    },
    async releaseIdempotencyKey(fileId) {
      await db.updateTable("files").set({ idempotency_key: null }).where("id", "=", fileId).execute();
    },
    async get(tenantId, id) {
      const row = await fileById(id).where("tenant_id", "=", tenantId).executeTakeFirst();
      return row && toFile(row);
    },
    async getForJob(id) {
      const row = await fileById(id).executeTakeFirst();
      return row && toFile(row);
    },
    async markStarted(id, at) {
      await db.updateTable("files").set({ status: "IN PROGRESS", started_at: at }).where("id", "=", id).execute();
    },
    async markRetry(id) {
      await db.updateTable("files").set({ status: "RECEIVED" }).where("id", "=", id).execute();
    },
    async markFailedAttempt(id) {
      const row = await db
        .updateTable("files")
        .set((eb) => ({ status: "RECEIVED", attempts: eb("attempts", "+", 1) }))
        .where("id", "=", id)
        .returning("attempts")
        .executeTakeFirstOrThrow();
      return row.attempts;
    },
    async markInterrupted(id) {
      const row = await db
        .updateTable("files")
        .set((eb) => ({ interruptions: eb("interruptions", "+", 1) }))
        .where("id", "=", id)
        .returning("interruptions")
        .executeTakeFirstOrThrow();
      return row.interruptions;
    },
    async existingIds(ids) {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom("files").select("id").where("id", "in", ids).execute();
      return rows.map((r) => r.id);
    },
    async finalise(id, results, at) {
      const events = await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto("results")
          .values({ file_id: id, body: JSON.stringify(results), created_at: at })
          .onConflict((oc) => oc.column("file_id").doNothing())
          .returning("file_id")
          .executeTakeFirst();
        if (!inserted) return 0;
        const file = await trx
          .updateTable("files")
          .set({ status: "FINALISED", finished_at: at, error: null })
          .where("id", "=", id)
          .returning(["tenant_id", "workflow"])
          .executeTakeFirst();
        if (!file) return 0;
        // The webhook events commit with the result, or not at all.
        const finalised = { tenantId: file.tenant_id, fileId: id, workflow: file.workflow, results };
        return writeEvents(trx, finalisedEvents(finalised, at), at);
      });
      if (events > 0) outbox.written();
    },
    async fail(id, error, at) {
      const events = await db.transaction().execute(async (trx) => {
        const file = await trx
          .updateTable("files")
          .set({ status: "FAILED", finished_at: at, error: JSON.stringify(error) })
          .where("id", "=", id)
          .where("status", "!=", "FINALISED")
          .returning("tenant_id")
          .executeTakeFirst();
        return file ? writeEvents(trx, failedEvents(file.tenant_id, id, error, at), at) : 0;
      });
      if (events > 0) outbox.written();
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
      const results = orNull(results_body, codec.json) as Results | null;
      return { file: toFile(file), results: results ?? undefined };
    },
    async finishedIds(ids) {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom("files")
        .select("id")
        .where("id", "in", ids)
        .where("status", "in", ["FINALISED", "FAILED"])
        .execute();
      return rows.map((r) => r.id);
    },
    async listNeverStarted() {
      const rows = await idsOldestFirst().where("status", "=", "RECEIVED").where("started_at", "is", null).execute();
      return rows.map((r) => r.id);
    },
    async listUnfinished() {
      const rows = await idsOldestFirst().where("status", "in", ["RECEIVED", "IN PROGRESS"]).execute();
      return rows.map((r) => r.id);
    },
    async list(tenantId, { status, tag, since, after, limit }) {
      let query = db.selectFrom("files").selectAll().where("tenant_id", "=", tenantId);
      if (status !== null) query = query.where("status", "=", status);
      if (since !== null) query = query.where("uploaded_at", ">=", since);
      if (tag !== null) {
        // One tag is stored as itself, several as a JSON array text (domain/tags.ts): the LIKE narrows to rows holding
        // the tag's JSON text, and decoding below keeps exact matches only.
        const pattern = `%${JSON.stringify(tag).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where((eb) =>
          eb.or([eb("tags", "=", tag), sql<boolean>`${eb.ref("tags")} LIKE ${pattern} ESCAPE '\\'`]),
        );
      }
      if (after !== null) {
        // ISO text compares as text in SQLite and is cast to timestamptz by PostgreSQL: the same order either way.
        query = query.where((eb) =>
          eb.or([
            eb("uploaded_at", "<", after.uploadedAt),
            eb.and([eb("uploaded_at", "=", after.uploadedAt), eb("id", "<", after.id)]),
          ]),
        );
      }
      const rows = await query.orderBy("uploaded_at", "desc").orderBy("id", "desc").limit(limit).execute();
      const files = rows.map(toFile);
      return tag === null ? files : files.filter((f) => decodeTags(f.tags).includes(tag));
    },
    async remove(tenantId, id) {
      return db.transaction().execute(async (trx) => {
        const found = await trx
          .selectFrom("files")
          .select("id")
          .where("tenant_id", "=", tenantId)
          .where((eb) => eb.or([eb("id", "=", id), eb("parent_id", "=", id)]))
          .execute();
        const ids = found.map((r) => r.id);
        if (!ids.includes(id)) return [];
        // Rows referring to a file first (foreign keys), the sub-documents before their parent.
        await trx.deleteFrom("tasks").where("file_id", "in", ids).execute();
        await trx.deleteFrom("results").where("file_id", "in", ids).execute();
        await trx.deleteFrom("files").where("parent_id", "=", id).execute();
        const deleted = await trx.deleteFrom("files").where("id", "=", id).executeTakeFirst();
        // Removed meanwhile by another process (two retention sweeps): it counts as that one's removal.
        return Number(deleted.numDeletedRows) > 0 ? ids : [];
      });
    },
    async listChildren(tenantId, parentIds) {
      if (parentIds.length === 0) return [];
      const rows = await db
        .selectFrom("files")
        .select(["id", "parent_id"])
        .where("tenant_id", "=", tenantId)
        .where("parent_id", "in", parentIds)
        .execute();
      return rows.flatMap((r) => (r.parent_id === null ? [] : [{ id: r.id, parentId: r.parent_id }]));
    },
    async listExpired(before, limit) {
      const rows = await db
        .selectFrom("files")
        .select(["id", "tenant_id"])
        .where("uploaded_at", "<", before)
        .where("parent_id", "is", null)
        .orderBy("uploaded_at")
        .limit(limit)
        .execute();
      return rows.map((r) => ({ id: r.id, tenantId: r.tenant_id }));
    },
  };
}
