/**
 * Webhooks, scope `webhooks:manage`, tenant-scoped: POST/GET /webhooks, GET/PATCH/DELETE /webhooks/:id,
 * POST /webhooks/:id/rotate-secret, GET /webhooks/:id/deliveries and POST /webhooks/:id/deliveries/:deliveryId/retry.
 * Another tenant's endpoint is 404 like an unknown one. Deliveries follow Standard Webhooks (README "Webhooks").
 */
import type { FastifyInstance } from "fastify";
import type { Workflows } from "../../workflows/facade.js";
import { EVENT_TYPES, type WebhookInput } from "../../workflows/webhooks.js";
import { principalOf, scoped } from "../auth-hook.js";
import { errorResponses } from "../schemas.js";

export interface WebhookRouteDeps {
  workflows: Workflows;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;
const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;

const eventsSchema = {
  type: "array",
  items: { type: "string", enum: [...EVENT_TYPES] },
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  description:
    "Event types: `file.finalised` (with the result as GET /result/final?verbose=true returns it), `file.failed` " +
    "(with the error), `file.in_progress` (a validation task opened: the file waits for review), `task.created`, " +
    "`task.resolved`, `split.completed` (with the children).",
} as const;

const webhookSchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    url: { type: "string" },
    events: { type: "array", items: { type: "string" } },
    description: { type: ["string", "null"] },
    enabled: { type: "boolean" },
    disabledReason: {
      type: ["string", "null"],
      description: "Why deliveries stopped: the service disables an endpoint failing for longer than the retry window.",
    },
    failingSince: { type: ["string", "null"], description: "Start of the current run of failed attempts." },
    createdAt: { type: "string" },
    updatedAt: { type: "string" },
  },
  required: ["id", "url", "events", "enabled", "createdAt"],
} as const;

const createdSchema = {
  ...webhookSchema,
  properties: {
    ...webhookSchema.properties,
    secret: { type: "string", description: "The signing secret (whsec_...), shown this once." },
  },
  required: [...webhookSchema.required, "secret"],
} as const;

const deliverySchema = {
  type: "object",
  properties: {
    id: { type: "string" },
    eventId: { type: "string", description: "The `webhook-id` header: the same for every attempt." },
    type: { type: "string" },
    fileId: { type: "string" },
    status: { type: "string", enum: [...DELIVERY_STATUSES] },
    attempts: { type: "integer" },
    lastStatusCode: { type: ["integer", "null"] },
    lastAttemptAt: { type: ["string", "null"] },
    lastError: { type: ["string", "null"] },
    nextAttemptAt: { type: ["string", "null"] },
    createdAt: { type: "string", description: "When the state change the event reports happened." },
    deliveredAt: { type: ["string", "null"] },
  },
  required: ["id", "eventId", "type", "fileId", "status", "attempts", "createdAt"],
} as const;

const idParams = {
  type: "object",
  properties: { id: { type: "string", maxLength: 64 } },
  required: ["id"],
} as const;

const pageQuery = {
  limit: { type: "integer", minimum: 1, maximum: MAX_LIMIT },
  cursor: { type: "string", maxLength: 512 },
} as const;

const SCOPE_NOTE = "Scope: `webhooks:manage`. Another tenant's webhook is 404 like an unknown one.";

export async function webhookRoutes(app: FastifyInstance, deps: WebhookRouteDeps): Promise<void> {
  const hooks = deps.workflows.webhooks;
  const tenantOf = (request: Parameters<typeof principalOf>[0]) => principalOf(request).tenantId;

  app.post<{ Body: WebhookInput }>(
    "/webhooks",
    scoped("webhooks:manage", {
      tags: ["webhooks"],
      summary: "Register a webhook endpoint",
      description:
        "Events of the caller's tenant are POSTed to `url`, signed per Standard Webhooks (`webhook-id`, " +
        "`webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`) with the `secret` answered here, once. " +
        "The URL must be https and resolve to public addresses (the operator may allow http and private targets). " +
        "At least once, in order per file; retried with backoff for 24 h. " +
        SCOPE_NOTE,
      body: {
        type: "object",
        properties: {
          url: { type: "string", maxLength: 2048 },
          events: eventsSchema,
          description: { type: "string", maxLength: 500 },
        },
        required: ["url", "events"],
        additionalProperties: false,
      },
      response: { 201: createdSchema, ...errorResponses(400, 401, 403, 429) },
    }),
    async (request, reply) => reply.status(201).send(await hooks.create(tenantOf(request), request.body)),
  );

  app.get<{ Querystring: { limit?: number; cursor?: string } }>(
    "/webhooks",
    scoped("webhooks:manage", {
      tags: ["webhooks"],
      summary: "List the tenant's webhook endpoints",
      description: `Oldest first, \`limit\` per page (default ${DEFAULT_LIMIT}); pass \`next\` as \`cursor\`. ${SCOPE_NOTE}`,
      querystring: { type: "object", properties: pageQuery },
      response: {
        200: {
          type: "object",
          properties: { webhooks: { type: "array", items: webhookSchema }, next: { type: ["string", "null"] } },
          required: ["webhooks", "next"],
        },
        ...errorResponses(400, 401, 403, 429),
      },
    }),
    async (request) =>
      hooks.list(tenantOf(request), {
        cursor: request.query.cursor ?? null,
        limit: request.query.limit ?? DEFAULT_LIMIT,
      }),
  );

  app.get<{ Params: { id: string } }>(
    "/webhooks/:id",
    scoped("webhooks:manage", {
      tags: ["webhooks"],
      summary: "Read a webhook endpoint (enabled, or why it was disabled)",
      description: SCOPE_NOTE,
      params: idParams,
      response: { 200: webhookSchema, ...errorResponses(400, 401, 403, 404, 429) },
    }),
    async (request) => hooks.get(tenantOf(request), request.params.id),
  );

  app.patch<{ Params: { id: string }; Body: WebhookInput }>(
    "/webhooks/:id",
    scoped("webhooks:manage", {
      tags: ["webhooks"],
      summary: "Change a webhook's url, events, description, or enable/disable it",
      description:
        "`enabled: true` also clears the failure record of an endpoint the service disabled; its held-back " +
        `deliveries are attempted again. ${SCOPE_NOTE}`,
      params: idParams,
      body: {
        type: "object",
        properties: {
          url: { type: "string", maxLength: 2048 },
          events: eventsSchema,
          description: { type: ["string", "null"], maxLength: 500 },
          enabled: { type: "boolean" },
        },
        additionalProperties: false,
        minProperties: 1,
      },
      response: { 200: webhookSchema, ...errorResponses(400, 401, 403, 404, 429) },
    }),
    async (request) => hooks.update(tenantOf(request), request.params.id, request.body),
  );

  app.delete<{ Params: { id: string } }>(
    "/webhooks/:id",
    scoped("webhooks:manage", {
      tags: ["webhooks"],
      summary: "Delete a webhook endpoint and its delivery log",
      description: `Pending deliveries are dropped. ${SCOPE_NOTE}`,
      params: idParams,
      response: { 204: { description: "Deleted", type: "null" }, ...errorResponses(400, 401, 403, 404, 429) },
    }),
    async (request, reply) => {
      await hooks.delete(tenantOf(request), request.params.id);
      return reply.status(204).send();
    },
  );

  app.post<{ Params: { id: string } }>(
    "/webhooks/:id/rotate-secret",
    scoped("webhooks:manage", {
      tags: ["webhooks"],
      summary: "Replace the signing secret (the old one keeps signing for 24 h)",
      description:
        "Until `previousSecretExpiresAt` every delivery carries two `v1,` signatures, one per secret, so receivers " +
        `can switch at their own pace. ${SCOPE_NOTE}`,
      params: idParams,
      response: {
        200: {
          type: "object",
          properties: {
            id: { type: "string" },
            secret: { type: "string" },
            previousSecretExpiresAt: { type: "string" },
          },
          required: ["id", "secret", "previousSecretExpiresAt"],
        },
        ...errorResponses(400, 401, 403, 404, 429),
      },
    }),
    async (request) => hooks.rotateSecret(tenantOf(request), request.params.id),
  );

  app.get<{
    Params: { id: string };
    Querystring: { status?: (typeof DELIVERY_STATUSES)[number]; limit?: number; cursor?: string };
  }>(
    "/webhooks/:id/deliveries",
    scoped("webhooks:manage", {
      tags: ["webhooks"],
      summary: "The endpoint's deliveries: status, attempts, last response",
      description: `Newest first, \`limit\` per page (default ${DEFAULT_LIMIT}); pass \`next\` as \`cursor\`. ${SCOPE_NOTE}`,
      params: idParams,
      querystring: {
        type: "object",
        properties: { ...pageQuery, status: { type: "string", enum: [...DELIVERY_STATUSES] } },
      },
      response: {
        200: {
          type: "object",
          properties: { deliveries: { type: "array", items: deliverySchema }, next: { type: ["string", "null"] } },
          required: ["deliveries", "next"],
        },
        ...errorResponses(400, 401, 403, 404, 429),
      },
    }),
    async (request) =>
      hooks.deliveries(tenantOf(request), request.params.id, {
        status: request.query.status ?? null,
        cursor: request.query.cursor ?? null,
        limit: request.query.limit ?? DEFAULT_LIMIT,
      }),
  );

  app.post<{ Params: { id: string; deliveryId: string } }>(
    "/webhooks/:id/deliveries/:deliveryId/retry",
    scoped("webhooks:manage", {
      tags: ["webhooks"],
      summary: "Send a delivery again, now, with a fresh retry window",
      description: SCOPE_NOTE,
      params: {
        type: "object",
        properties: { id: { type: "string", maxLength: 64 }, deliveryId: { type: "string", maxLength: 20 } },
        required: ["id", "deliveryId"],
      },
      response: { 202: deliverySchema, ...errorResponses(400, 401, 403, 404, 429) },
    }),
    async (request, reply) =>
      reply.status(202).send(await hooks.retry(tenantOf(request), request.params.id, request.params.deliveryId)),
  );
}
