/** Health, readiness, metrics and the catalogue: the routes that do not touch files. */
import type { FastifyInstance } from "fastify";
import { FIELD_SETS, PRODUCTS } from "../../catalog/catalog.js";
import { scoped } from "../auth-hook.js";
import type { ServiceMetrics } from "../metrics.js";
import { errorResponses } from "../schemas.js";

export interface InfoDeps {
  metrics: ServiceMetrics;
  isDraining: () => boolean;
}

export async function serviceInfoRoutes(app: FastifyInstance, deps: InfoDeps): Promise<void> {
  app.get("/healthz", { schema: { tags: ["service"], summary: "Liveness: the process answers" } }, async () => ({
    status: "ok",
  }));
  app.get(
    "/readyz",
    {
      schema: {
        tags: ["service"],
        summary: "Readiness: 200 when accepting work, 503 `shutting_down` while draining",
        response: { ...errorResponses(503) },
      },
    },
    async (_request, reply) =>
      deps.isDraining()
        ? reply.status(503).send({ error: "shutting_down", message: "The server is draining." })
        : { status: "ready" },
  );
  app.get(
    "/metrics",
    {
      // The counts span every tenant: a scope of their own, granted to the operator's monitoring only.
      ...scoped("metrics:read", {
        tags: ["service"],
        summary: "Prometheus metrics (scope metrics:read)",
        description:
          "Request durations by route and status, queue depth, pages and OCR seconds, failures by code, across all " +
          "tenants. Needs a Bearer token with the scope `metrics:read`, which clients get only when it is named " +
          "(`docsift clients create --name prometheus --scopes metrics:read`; Prometheus: the scrape config's " +
          "`oauth2` block).",
        response: errorResponses(401, 403),
      }),
    },
    async (_request, reply) =>
      reply.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics()),
  );
  const catalog = {
    products: PRODUCTS,
    fieldSets: FIELD_SETS,
  };
  app.get(
    "/catalog",
    scoped("any", {
      tags: ["catalog"],
      summary: "Products, field sets and fields with their types (any valid token)",
      response: errorResponses(401, 429),
    }),
    async () => catalog,
  );
}
