/**
 * Validation tasks, in either dialect. Resolution is one transaction: the conditional task update, then the file's
 * result. Of two concurrent resolutions exactly one matches the update: SQLite runs one write transaction at a time,
 * and under PostgreSQL's READ COMMITTED the second update re-checks `status` once the first commits and matches
 * nothing.
 */
import type { Kysely, Selectable } from "kysely";
import type { Results } from "../../domain/result.js";
import type { Breach, Correction } from "../../domain/validation.js";
import { taskCreatedEvents, taskOpenedEvents, taskResolvedEvents } from "../../webhooks/events.js";
import type { TaskRecord, TaskRepository, TaskStatus } from "../types.js";
import { type DialectCodec, orNull } from "./codec.js";
import { type OutboxSignal, writeEvents } from "./outbox.js";
import type { StoreDatabase, TasksTable } from "./schema.js";

export function taskRepository(db: Kysely<StoreDatabase>, codec: DialectCodec, outbox: OutboxSignal): TaskRepository {
  const toTask = (row: Selectable<TasksTable>): TaskRecord => ({
    id: row.id,
    tenantId: row.tenant_id,
    fileId: row.file_id,
    fieldSet: row.field_set,
    status: row.status as TaskStatus,
    priority: row.priority,
    breaches: codec.json(row.breaches) as Breach[],
    predicted: codec.json(row.predicted) as Results,
    fileName: row.file_name,
    pageCount: row.page_count,
    createdAt: codec.timestamp(row.created_at),
    resolvedAt: orNull(row.resolved_at, codec.timestamp),
    resolvedBy: row.resolved_by,
    corrections: orNull(row.corrections, codec.json) as Correction[] | null,
  });

  return {
    async create(task) {
      const created = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto("tasks")
          .values({
            id: task.id,
            tenant_id: task.tenantId,
            file_id: task.fileId,
            field_set: task.fieldSet,
            status: task.status,
            priority: task.priority,
            breaches: JSON.stringify(task.breaches),
            predicted: JSON.stringify(task.predicted),
            file_name: task.fileName,
            page_count: task.pageCount,
            created_at: task.createdAt,
            resolved_at: null,
            resolved_by: null,
            corrections: null,
          })
          .onConflict((oc) => oc.columns(["file_id", "field_set"]).doNothing())
          .returning("id")
          .executeTakeFirst();
        if (!row) return undefined;
        const record = { ...task, resolvedAt: null, resolvedBy: null, corrections: null };
        return writeEvents(trx, taskCreatedEvents(record, task.createdAt), task.createdAt);
      });
      if (created) outbox.written();
      return created !== undefined;
    },
    async get(tenantId, id) {
      const mine = db.selectFrom("tasks").selectAll().where("tenant_id", "=", tenantId);
      const row = await mine.where("id", "=", id).executeTakeFirst();
      return row && toTask(row);
    },
    async getForFile(fileId) {
      const row = await db.selectFrom("tasks").selectAll().where("file_id", "=", fileId).executeTakeFirst();
      return row && toTask(row);
    },
    async list(tenantId, { status, after, limit }) {
      let query = db.selectFrom("tasks").selectAll().where("tenant_id", "=", tenantId);
      if (status !== null) query = query.where("status", "=", status);
      if (after !== null) {
        // The cursor's ISO text compares as text in SQLite (every timestamp is written in the same ISO form) and is
        // cast to timestamptz by PostgreSQL: the same order either way.
        query = query.where((eb) =>
          eb.or([
            eb("priority", "<", after.priority),
            eb.and([eb("priority", "=", after.priority), eb("created_at", ">", after.createdAt)]),
            eb.and([
              eb("priority", "=", after.priority),
              eb("created_at", "=", after.createdAt),
              eb("id", ">", after.id),
            ]),
          ]),
        );
      }
      const rows = await query.orderBy("priority", "desc").orderBy("created_at").orderBy("id").limit(limit).execute();
      return rows.map(toTask);
    },
    async submit(tenantId, id) {
      // Conditional on `draft`, like resolve: a task resolved or submitted meanwhile is left alone.
      const { task, events } = await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable("tasks")
          .set({ status: "open" })
          .where("id", "=", id)
          .where("tenant_id", "=", tenantId)
          .where("status", "=", "draft")
          .returningAll()
          .executeTakeFirst();
        if (!row) return { task: undefined, events: 0 };
        const opened = toTask(row);
        const at = new Date().toISOString();
        return { task: opened, events: await writeEvents(trx, taskOpenedEvents(opened, at), at) };
      });
      if (events > 0) outbox.written();
      return task;
    },
    async resolve(tenantId, id, resolution) {
      const { task, events } = await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable("tasks")
          .set({
            status: "resolved",
            resolved_at: resolution.at,
            resolved_by: resolution.by,
            corrections: JSON.stringify(resolution.corrections),
          })
          .where("id", "=", id)
          .where("tenant_id", "=", tenantId)
          .where("status", "!=", "resolved")
          .returningAll()
          .executeTakeFirst();
        if (!row) return { task: undefined, events: 0 };
        // The reviewed results replace whatever the file had: unlike a re-delivered job, a resolution is new content.
        const body = JSON.stringify(resolution.results);
        await trx
          .insertInto("results")
          .values({ file_id: row.file_id, body, created_at: resolution.at })
          .onConflict((oc) => oc.column("file_id").doUpdateSet({ body, created_at: resolution.at }))
          .execute();
        const file = await trx
          .updateTable("files")
          .set({ status: "FINALISED", finished_at: resolution.at, error: null })
          .where("id", "=", row.file_id)
          .returning("workflow")
          .executeTakeFirst();
        const resolved = toTask(row);
        const finalised = {
          tenantId,
          fileId: resolved.fileId,
          workflow: file?.workflow ?? "validate",
          results: resolution.results,
        };
        const at = resolution.at;
        return { task: resolved, events: await writeEvents(trx, taskResolvedEvents(resolved, finalised, at), at) };
      });
      if (events > 0) outbox.written();
      return task;
    },
  };
}
