/**
 * The Fastify app: logging, request ids, auth, error mapping, metrics, OpenAPI and the routes. Everything stateful
 * comes in as dependencies, so tests and benchmarks build the same app the server runs.
 */
import { randomUUID } from "node:crypto";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { SigningKey } from "../auth/signing-key.js";
import { DocsiftError } from "../domain/errors.js";
import type { CompletionSignal } from "../queue/completion.js";
import type { JobQueue } from "../queue/job-queue.js";
import type { BlobStore, Store } from "../store/types.js";
import type { ProcessingPool } from "../workflows/processing-tasks.js";
import { registerAuth } from "./auth-hook.js";
import { registerConsole } from "./console.js";
import { errorHandler, sendError } from "./error-handler.js";
import type { ServiceMetrics } from "./metrics.js";
import { resultRoutes } from "./routes/results.js";
import { serviceInfoRoutes } from "./routes/service-info.js";
import { taskRoutes } from "./routes/tasks.js";
import { tokenRoutes } from "./routes/token.js";
import { uploadRoutes } from "./routes/upload.js";

export interface AppDeps {
  store: Store;
  blobs: BlobStore;
  queue: JobQueue;
  completion: CompletionSignal;
  pool: ProcessingPool;
  key: SigningKey;
  metrics: ServiceMetrics;
  maxWaitMs: number;
  isDraining: () => boolean;
  logger: FastifyBaseLogger;
}

/** Routes that stay open while draining, so orchestrators can watch the drain. */
const OPEN_WHILE_DRAINING = new Set(["/healthz", "/readyz", "/metrics"]);

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger,
    genReqId: () => randomUUID(),
    // Multipart bodies stream past this; JSON uploads set their own limit.
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
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

  registerAuth(app, deps.key, deps.store);
  await app.register(tokenRoutes, { store: deps.store, key: deps.key });
  await app.register(uploadRoutes, { store: deps.store, blobs: deps.blobs, queue: deps.queue });
  await app.register(resultRoutes, {
    store: deps.store,
    blobs: deps.blobs,
    completion: deps.completion,
    pool: deps.pool,
    maxWaitMs: deps.maxWaitMs,
  });
  await app.register(taskRoutes, { store: deps.store, completion: deps.completion });
  await registerConsole(app);
  await app.register(serviceInfoRoutes, { metrics: deps.metrics, isDraining: deps.isDraining });
  return app;
}
