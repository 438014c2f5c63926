/**
 * The events a tenant's webhooks receive, and their payloads. Each is built from what the state change itself writes
 * (the store calls these inside the transaction that makes the change, so the outbox row and the change commit
 * together). The body follows the Standard Webhooks envelope: `{type, timestamp, data}`; `data.fileId` is on every
 * event, since deliveries are ordered per file.
 */
import type { ErrorBody } from "../domain/errors.js";
import type { EventType } from "../domain/event-types.js";
import type { ChildReference, ChildrenField, Results } from "../domain/result.js";
import type { TaskRecord } from "../domain/tasks.js";

/** One event as the outbox stores it: the tenant whose endpoints get it, the file that orders it, and the body. */
export interface WebhookEvent {
  tenantId: string;
  fileId: string;
  type: EventType;
  /** The JSON body sent, `{type, timestamp, data}`. */
  body: { type: EventType; timestamp: string; data: Record<string, unknown> };
}

function event(
  tenantId: string,
  fileId: string,
  type: EventType,
  at: string,
  data: Record<string, unknown>,
): WebhookEvent {
  return { tenantId, fileId, type, body: { type, timestamp: at, data: { fileId, ...data } } };
}

/** The file's part of a finalisation: what GET /result/final?verbose=true answers, and the split's children. */
export interface FinalisedFile {
  tenantId: string;
  fileId: string;
  workflow: string;
  results: Results;
}

function children(results: Results): ChildReference[] | undefined {
  const field = results.fields.find((f): f is ChildrenField => f.name === "components.children");
  return field?.value;
}

/** `file.finalised`, and `split.completed` after it for a split parent (its result lists the children). */
export function finalisedEvents(file: FinalisedFile, at: string): WebhookEvent[] {
  const { tenantId, fileId, results } = file;
  const events = [event(tenantId, fileId, "file.finalised", at, { status: "FINALISED", results })];
  const refs = file.workflow === "split" ? children(results) : undefined;
  if (refs) events.push(event(tenantId, fileId, "split.completed", at, { children: refs }));
  return events;
}

export function failedEvents(tenantId: string, fileId: string, error: ErrorBody, at: string): WebhookEvent[] {
  return [event(tenantId, fileId, "file.failed", at, { status: "FAILED", error })];
}

/** What a task event tells: the task without the stored predictions (they are the file's result once resolved). */
function taskData(task: Omit<TaskRecord, "predicted">): Record<string, unknown> {
  return {
    task: {
      id: task.id,
      fieldSet: task.fieldSet,
      status: task.status,
      priority: task.priority,
      breaches: task.breaches,
      createdAt: task.createdAt,
      resolvedAt: task.resolvedAt,
      resolvedBy: task.resolvedBy,
      corrections: task.corrections,
    },
  };
}

/** A task was created: `task.created`, and `file.in_progress` when it opened straight into the review queue. */
export function taskCreatedEvents(task: Omit<TaskRecord, "predicted">, at: string): WebhookEvent[] {
  const created = event(task.tenantId, task.fileId, "task.created", at, taskData(task));
  return task.status === "open" ? [created, inReview(task, at)] : [created];
}

/** A draft was submitted: the file now waits in the review queue. */
export function taskOpenedEvents(task: Omit<TaskRecord, "predicted">, at: string): WebhookEvent[] {
  return [inReview(task, at)];
}

function inReview(task: Omit<TaskRecord, "predicted">, at: string): WebhookEvent {
  return event(task.tenantId, task.fileId, "file.in_progress", at, { status: "IN PROGRESS", taskId: task.id });
}

/** A task was resolved: `task.resolved`, then the file's `file.finalised` with the reviewed results. */
export function taskResolvedEvents(
  task: Omit<TaskRecord, "predicted">,
  file: FinalisedFile,
  at: string,
): WebhookEvent[] {
  return [event(task.tenantId, task.fileId, "task.resolved", at, taskData(task)), ...finalisedEvents(file, at)];
}
