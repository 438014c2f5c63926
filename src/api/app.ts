/**
 * The Fastify app: logging, request ids, auth, error mapping, metrics, OpenAPI and the routes. Everything stateful
 * comes in as dependencies, so tests and benchmarks build the same app the server runs.
 */
import { randomUUID } from "node:crypto";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { KeySet } from "../auth/signing-key.js";
import { DocsiftError } from "../domain/errors.js";
import type { Workflows } from "../workflows/facade.js";
import { registerAuth } from "./auth-hook.js";
import { answerClientError } from "./client-error.js";
import { registerConsole } from "./console.js";
import { errorHandler, sendError } from "./error-handler.js";
import type { ServiceMetrics } from "./metrics.js";
import { DEFAULT_MAX_QUEUE, queueAdmission } from "./queue-bound.js";
import { DEFAULT_RATE_LIMITS, type RateLimitSettings, registerRateLimits } from "./rate-limit-hook.js";
import { fileRoutes } from "./routes/files.js";
import { resultRoutes } from "./routes/results.js";
import { serviceInfoRoutes } from "./routes/service-info.js";
import { taskRoutes } from "./routes/tasks.js";
import { tokenRoutes } from "./routes/token.js";
import { uploadRoutes } from "./routes/upload.js";
import { webhookRoutes } from "./routes/webhooks.js";

export interface AppDeps {
  /** Everything the routes do beyond HTTP: uploads, results, page images, files, review tasks, client checks. */
  workflows: Workflows;
  keys: KeySet;
  metrics: ServiceMetrics;
  maxWaitMs: number;
  isDraining: () => boolean;
  logger: FastifyBaseLogger;
  /** Per-client (and, for tokens, per-address) rate limits; default DEFAULT_RATE_LIMITS. */
  rateLimits?: RateLimitSettings;
  /** Jobs waiting or running past which uploads get 503; 0 = no bound; default DEFAULT_MAX_QUEUE. */
  maxQueue?: number;
  /** Fastify's trustProxy: whose X-Forwarded-For to believe for the client address (token rate limit). */
  trustProxy?: boolean | string;
}

/**
 * Longest request head (request line plus headers) accepted; longer is refused with 431 and the connection closed.
 * Node's own default, stated so it is a documented bound: tokens are well under 1 KiB.
 */
export const MAX_HEADER_BYTES = 16 * 1024;

/** Routes that stay open while draining, so orchestrators can watch the drain. */
const OPEN_WHILE_DRAINING = new Set(["/healthz", "/readyz", "/metrics"]);

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger,
    genReqId: () => randomUUID(),
    // Multipart bodies stream past this; JSON uploads set their own limit.
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    trustProxy: deps.trustProxy ?? false,
    clientErrorHandler: answerClientError,
    // Malformed URLs and over-long ids answer in the service's error shape.
    frameworkErrors: (err, request, reply) => errorHandler(err, request, reply),
  });

  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, { error: "not_found", message: `No route ${request.method} ${request.url.split("?")[0]}.` }),
  );

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
    const url = request.routeOptions.url;
    if (deps.isDraining() && !(url && OPEN_WHILE_DRAINING.has(url))) {
      throw new DocsiftError("shutting_down", "The server is shutting down; retry on another instance or shortly.");
    }
  });
  app.addHook("onResponse", async (request, reply) => {
    deps.metrics.requestDuration
      .labels(request.method, request.routeOptions.url ?? "unmatched", String(reply.statusCode))
      .observe(reply.elapsedTime / 1000);
  });

  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "docsift",
        version: "0.1.0",
        description:
          "Self-hosted document field extraction. Get a token at POST /oauth2/token (client credentials), upload a " +
          "PDF, PNG or JPG, fetch the result (blocking). Errors are `{error, message}` with a stable code.",
      },
      components: {
        securitySchemes: {
          oauth2: {
            type: "oauth2",
            flows: {
              clientCredentials: {
                tokenUrl: "/oauth2/token",
                scopes: {
                  "fileupload:all": "Upload files",
                  "result:all": "Read results and page images",
                  "validate:annotation": "Work on validation tasks",
                  "metrics:read": "Read GET /metrics (every tenant's activity, as counts)",
                  "webhooks:manage": "Manage the tenant's webhook endpoints and see their deliveries",
                },
              },
            },
          },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  const { workflows } = deps;
  registerAuth(app, deps.keys, workflows.clients);
  registerRateLimits(app, deps.rateLimits ?? DEFAULT_RATE_LIMITS);
  await app.register(tokenRoutes, { clients: workflows.clients, keys: deps.keys });
  await app.register(uploadRoutes, {
    workflows,
    admission: queueAdmission(workflows, deps.maxQueue ?? DEFAULT_MAX_QUEUE),
  });
  await app.register(resultRoutes, { workflows, maxWaitMs: deps.maxWaitMs });
  await app.register(taskRoutes, { workflows });
  await app.register(fileRoutes, { workflows });
  await app.register(webhookRoutes, { workflows });
  await registerConsole(app);
  await app.register(serviceInfoRoutes, { metrics: deps.metrics, isDraining: deps.isDraining });
  return app;
}
