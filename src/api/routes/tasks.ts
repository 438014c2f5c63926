/**
 * The review queue of the validate workflow (beta), scope `validate:annotation`, tenant-scoped:
 * GET /validate/tasks (status filter, highest priority first, cursor pages), GET /validate/tasks/:id,
 * POST /validate/tasks/:id/submit (a draft joins the review queue) and POST /validate/tasks/:id/resolve. Resolving finalises the file in the same transaction and wakes anyone blocked
 * on its result; of two reviewers resolving one task, the second gets 409.
 */
import type { FastifyInstance } from "fastify";
import { findFieldSet } from "../../catalog/lookup.js";
import type { ChildrenField, ExtractedField } from "../../domain/result.js";
import type { TaskRecord, TaskStatus } from "../../domain/tasks.js";
import type { Workflows } from "../../workflows/facade.js";
import { principalOf, scoped } from "../auth-hook.js";
import { errorResponses, fieldSchema, fieldValueSchema } from "../schemas.js";

export interface TaskRouteDeps {
  workflows: Workflows;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;
const STATUSES = ["open", "draft", "resolved", "all"] as const;

function isField(f: ExtractedField | ChildrenField): f is ExtractedField {
  return f.name !== "components.children";
}

/** The predictions of the validated field set: what the reviewer checks. */
function fieldSetFields(task: TaskRecord): ExtractedField[] {
  const names = new Set(findFieldSet(task.fieldSet)?.fields.map((f) => f.name) ?? []);
  return task.predicted.fields.filter(isField).filter((f) => names.has(f.name));
}

/** The public shape: the record without tenant and stored results, with the validated field set's predictions. */
export function taskView(task: TaskRecord) {
  return {
    id: task.id,
    fileId: task.fileId,
    fieldSet: task.fieldSet,
    status: task.status,
    priority: task.priority,
    breaches: task.breaches,
    fields: fieldSetFields(task),
    fileName: task.fileName,
    pageCount: task.pageCount,
    createdAt: task.createdAt,
    resolvedAt: task.resolvedAt,
    resolvedBy: task.resolvedBy,
    corrections: task.corrections,
  };
}

const breachSchema = {
  type: "object",
  properties: {
    field: { type: "string" },
    condition: { type: "object", additionalProperties: true },
    value: fieldValueSchema,
    confidence: { type: ["number", "null"] },
  },
} as const;

const taskSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    fileId: { type: "string" },
    fieldSet: { type: "string" },
    status: { type: "string", enum: ["draft", "open", "resolved"] },
    priority: { type: "integer", description: "0..100, higher is more urgent." },
    breaches: { type: "array", items: breachSchema },
    fields: { type: "array", items: fieldSchema, description: "The predicted fields, with boxes." },
    fileName: { type: ["string", "null"] },
    pageCount: { type: "integer" },
    createdAt: { type: "string" },
    resolvedAt: { type: ["string", "null"] },
    resolvedBy: { type: ["string", "null"] },
    corrections: {
      type: ["array", "null"],
      items: { type: "object", properties: { name: { type: "string" }, value: fieldValueSchema } },
    },
  },
} as const;

const taskIdParams = {
  type: "object",
  properties: { taskId: { type: "string", maxLength: 64 } },
  required: ["taskId"],
} as const;

export async function taskRoutes(app: FastifyInstance, deps: TaskRouteDeps): Promise<void> {
  const { workflows } = deps;

  app.get<{ Querystring: { status: (typeof STATUSES)[number]; cursor?: string; limit: number } }>(
    "/validate/tasks",
    scoped("validate:annotation", {
      tags: ["validate"],
      summary: "List validation tasks, highest priority first (beta)",
      description:
        "Tasks of the caller's tenant, by priority (highest first), oldest first among equals. `status` filters " +
        "(default `open`, the review queue; `draft` lists tasks created with createTask.submit=false; `all`). " +
        "Pass `next` back as `cursor` for the following page; `next` is null on the last one.",
      querystring: {
        type: "object",
        properties: {
          status: { type: "string", enum: [...STATUSES], default: "open" },
          cursor: { type: "string", maxLength: 512 },
          limit: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
        },
      },
      response: {
        200: {
          type: "object",
          properties: { tasks: { type: "array", items: taskSchema }, next: { type: ["string", "null"] } },
          required: ["tasks", "next"],
        },
        ...errorResponses(400, 401, 403, 429),
      },
    }),
    async (request) => {
      const { status, cursor, limit } = request.query;
      const page = await workflows.listTasks(principalOf(request).tenantId, {
        status: status === "all" ? null : (status as TaskStatus),
        cursor: cursor || null,
        limit,
      });
      return { tasks: page.tasks.map(taskView), next: page.next };
    },
  );

  app.get<{ Params: { taskId: string } }>(
    "/validate/tasks/:taskId",
    scoped("validate:annotation", {
      tags: ["validate"],
      summary: "One validation task (beta)",
      params: taskIdParams,
      response: { 200: taskSchema, ...errorResponses(401, 403, 404, 429) },
    }),
    async (request) => taskView(await workflows.getTask(principalOf(request).tenantId, request.params.taskId)),
  );

  app.post<{ Params: { taskId: string } }>(
    "/validate/tasks/:taskId/submit",
    scoped("validate:annotation", {
      tags: ["validate"],
      summary: "Submit a draft validation task to the review queue (beta)",
      description:
        "A task created with createTask.submit=false is a `draft`, outside the review queue. Submitting makes it " +
        "`open`: it joins the queue (and the console) at its priority, keeping its creation time. A task that is " +
        "not a draft (already open or resolved) is 409 conflict. No body.",
      params: taskIdParams,
      response: { 200: taskSchema, ...errorResponses(401, 403, 404, 409, 429) },
    }),
    async (request) => taskView(await workflows.submitTask(principalOf(request).tenantId, request.params.taskId)),
  );

  app.post<{ Params: { taskId: string }; Body: unknown }>(
    "/validate/tasks/:taskId/resolve",
    scoped("validate:annotation", {
      tags: ["validate"],
      summary: "Resolve a validation task (beta)",
      description:
        'Body `{"fields": [{"name", "value"}]}`: the listed fields are corrected (confidence 1, `reviewed: true`), ' +
        "a line-items field with its whole array of rows (cells in the catalogue's normal forms; `[]` or null: " +
        "no line items), " +
        "every other field is confirmed as predicted; the file becomes FINALISED with these values. A task already " +
        "resolved (by another reviewer) is 409 conflict.",
      params: taskIdParams,
      response: { 200: taskSchema, ...errorResponses(400, 401, 403, 404, 409, 429) },
    }),
    async (request) => taskView(await workflows.resolveTask(principalOf(request), request.params.taskId, request.body)),
  );
}
