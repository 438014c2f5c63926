/**
 * The review queue of the validate workflow, tenant-scoped: list tasks (highest priority first, cursor pages), read
 * one, submit a draft into the queue, and resolve one. Resolving is the workflow's last step: the corrections are
 * applied to the predictions, the task resolved and the file FINALISED in one transaction, and anyone blocked on the
 * file's result is woken. Of two reviewers resolving one task, the second gets 409 `conflict`.
 */
import type { Principal } from "../auth/tokens.js";
import { DocsiftError } from "../domain/errors.js";
import type { TaskCursor, TaskRecord, TaskStatus } from "../domain/tasks.js";
import type { CompletionSignal } from "../queue/completion.js";
import type { Store } from "../store/types.js";
import { applyCorrections, parseCorrections } from "../validate/review.js";
import { keysetPage } from "./page-cursor.js";

export interface TaskDeps {
  store: Store;
  completion: CompletionSignal;
}

export interface TaskListQuery {
  /** null: every status. */
  status: TaskStatus | null;
  /** The `next` of the previous page. */
  cursor: string | null;
  limit: number;
}

export interface TaskPage {
  tasks: TaskRecord[];
  /** Cursor of the next page; null on the last. */
  next: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function readTaskCursor({ priority, createdAt, id }: Record<string, unknown>): TaskCursor | null {
  if (typeof priority !== "number" || typeof createdAt !== "string" || typeof id !== "string") return null;
  return { priority, createdAt, id };
}

export async function listTasks(
  deps: Pick<TaskDeps, "store">,
  tenantId: string,
  query: TaskListQuery,
): Promise<TaskPage> {
  const { status } = query;
  const { rows, next } = await keysetPage<TaskRecord, TaskCursor>(
    {
      read: readTaskCursor,
      keyOf: (task) => ({ priority: task.priority, createdAt: task.createdAt, id: task.id }),
      rowsAfter: (after, limit) => deps.store.tasks.list(tenantId, { status, after, limit }),
    },
    query.cursor,
    query.limit,
  );
  return { tasks: rows, next };
}

/** The tenant's task; unknown, malformed and other tenants' ids all read as the same 404. */
export async function getTask(deps: Pick<TaskDeps, "store">, tenantId: string, taskId: string): Promise<TaskRecord> {
  const task = UUID.test(taskId) ? await deps.store.tasks.get(tenantId, taskId.toLowerCase()) : undefined;
  if (!task) throw new DocsiftError("not_found", "No task with this id.");
  return task;
}

/** draft -> open: the task joins the review queue; anything but a draft is 409. */
export async function submitTask(deps: Pick<TaskDeps, "store">, tenantId: string, taskId: string): Promise<TaskRecord> {
  const task = await getTask(deps, tenantId, taskId);
  if (task.status !== "draft") {
    throw new DocsiftError("conflict", `This task is ${task.status}, not a draft: only drafts are submitted.`);
  }
  // The conditional update matched nothing: it was submitted or resolved between our read and our write.
  const submitted = await deps.store.tasks.submit(tenantId, task.id);
  if (!submitted)
    throw new DocsiftError("conflict", "This task is no longer a draft (submitted or resolved meanwhile).");
  return submitted;
}

/**
 * Resolves the task with the reviewer's corrections (a resolve body, `{"fields": [{"name", "value"}]}`, checked
 * here against the task's field set), finalises its file and wakes whoever waits on the file's result.
 */
export async function resolveTask(deps: TaskDeps, who: Principal, taskId: string, body: unknown): Promise<TaskRecord> {
  const task = await getTask(deps, who.tenantId, taskId);
  const conflict = () => new DocsiftError("conflict", "This task is already resolved (by another reviewer).");
  if (task.status === "resolved") throw conflict();
  const corrections = parseCorrections(body, task.fieldSet);
  const resolved = await deps.store.tasks.resolve(who.tenantId, task.id, {
    corrections,
    results: applyCorrections(task.predicted, corrections),
    by: who.clientId,
    at: new Date().toISOString(),
  });
  // The conditional update matched nothing: someone resolved it between our read and our write.
  if (!resolved) throw conflict();
  deps.completion.notify(resolved.fileId);
  return resolved;
}
