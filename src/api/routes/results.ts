/**
 * GET /result/final/:fileId (alias /results/:fileId) and GET /result/image/:fileId. The result blocks until the
 * file's workflows end, woken by the completion signal; `timeout` bounds the wait.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FileWithResults } from "../../domain/files.js";
import type { Workflows } from "../../workflows/facade.js";
import { isFinished } from "../../workflows/results.js";
import { principalOf, scoped } from "../auth-hook.js";
import { errorResponses, fieldSchema, fileIdParams, warningSchema } from "../schemas.js";

export interface ResultDeps {
  workflows: Workflows;
  /** Upper bound (and default) of a blocking wait, ms. */
  maxWaitMs: number;
}

const FINISHED_CACHE_LIMIT = 1000;
/** Longest block while a file may be waiting on a validation task (spec: 30 s), whatever the server's own bound. */
export const TASK_WAIT_MS = 30_000;
const JSON_TYPE = "application/json; charset=utf-8";

export async function resultRoutes(app: FastifyInstance, deps: ResultDeps): Promise<void> {
  const { workflows } = deps;
  // A finished file (FINALISED or FAILED) never changes again, so its serialised answer is kept, bounded, and
  // repeated fetches skip the store and the serialiser. The tenant check still applies to every hit.
  const finished = new Map<string, { tenantId: string; json: ReturnType<FastifyReply["serialize"]> }>();
  // A finished file is notified again only when it is deleted (by any process): its answer must go.
  const stopEvicting = workflows.onFileChanged((fileId) => finished.delete(fileId));
  app.addHook("onClose", async () => stopEvicting());
  const sendFinished = (found: FileWithResults, reply: FastifyReply, verbose: boolean): FastifyReply => {
    // Verbose answers carry what the schema leaves out (each field's raw text): sent as stored, never cached.
    if (verbose) return reply.type(JSON_TYPE).send(JSON.stringify(answer(found)));
    const json = reply.serialize(answer(found));
    if (finished.size >= FINISHED_CACHE_LIMIT) finished.delete(finished.keys().next().value ?? "");
    finished.set(found.file.id, { tenantId: found.file.tenantId, json });
    return reply.type(JSON_TYPE).send(json);
  };

  const answer = ({ file, results }: FileWithResults) => {
    if (file.status === "FINALISED" && results) return { fileId: file.id, status: file.status, results };
    if (file.status === "FAILED" && file.error) return { fileId: file.id, status: file.status, error: file.error };
    return { fileId: file.id, status: file.status };
  };

  const route = {
    ...scoped("result:all", {
      tags: ["results"],
      summary: "Get the result of a file (blocks until it is complete)",
      description:
        "Blocks until the file's workflows are complete, then answers FINALISED with results, or FAILED with an error. " +
        `\`timeout\` (milliseconds) bounds the wait: 0 answers at once; the default and the cap are ${deps.maxWaitMs} ms ` +
        "(server setting DOCSIFT_RESULT_WAIT_MS). When the bound passes the answer is `{fileId, status}` without " +
        "results (status RECEIVED or IN PROGRESS). A validate file whose review task is open blocks at most " +
        `${TASK_WAIT_MS / 1000} s, then answers IN PROGRESS. ` +
        "Scope: `result:all`. Another tenant's file is 404 like an unknown one.",
      params: fileIdParams,
      querystring: {
        type: "object",
        properties: {
          timeout: { type: "integer", minimum: 0, description: "Longest wait in ms; 0 = answer at once." },
          verbose: {
            type: "boolean",
            default: false,
            description:
              "true adds per-field detail: `raw`, the words of the value as read on the page before normalisation " +
              "(fields with a location), `source` where the value came from an embedded e-invoice; `results.warnings` " +
              "lists page-level warnings either way.",
          },
        },
      },
      response: {
        200: {
          type: "object",
          properties: {
            fileId: { type: "string" },
            status: { type: "string", enum: ["RECEIVED", "IN PROGRESS", "FINALISED", "FAILED"] },
            results: {
              type: "object",
              properties: {
                timestamp: { type: "string" },
                fields: { type: "array", items: fieldSchema },
                warnings: { type: "array", items: warningSchema, description: "Present when there are any." },
              },
              required: ["fields"],
            },
            error: errorResponses(400)[400],
          },
          required: ["fileId", "status"],
        },
        ...errorResponses(400, 401, 403, 404, 429),
      },
    }),
  };
  const handler = async (
    request: FastifyRequest<{ Params: { fileId: string }; Querystring: { timeout?: number; verbose?: boolean } }>,
    reply: FastifyReply,
  ) => {
    const tenantId = principalOf(request).tenantId;
    const fileId = request.params.fileId.toLowerCase();
    const verbose = request.query.verbose === true;
    const hit = verbose ? undefined : finished.get(fileId);
    if (hit && hit.tenantId === tenantId) return reply.type(JSON_TYPE).send(hit.json);
    const found = await workflows.readResult(tenantId, fileId);
    if (isFinished(found.file)) return sendFinished(found, reply, verbose);
    const cap = found.file.workflow === "validate" ? Math.min(deps.maxWaitMs, TASK_WAIT_MS) : deps.maxWaitMs;
    const waitMs = Math.min(request.query.timeout ?? cap, cap);
    if (waitMs === 0) return answer(found);
    // A client that hangs up ends its wait (the response closes before it finished).
    const abort = new AbortController();
    const onClose = (): void => abort.abort();
    reply.raw.once("close", onClose);
    try {
      const now = await workflows.awaitResult(tenantId, fileId, waitMs, abort.signal);
      return isFinished(now.file) ? sendFinished(now, reply, verbose) : answer(now);
    } finally {
      abort.abort();
      reply.raw.off("close", onClose);
    }
  };
  app.get("/result/final/:fileId", route, handler);
  app.get(
    "/results/:fileId",
    { ...route, schema: { ...route.schema, summary: "Alias of /result/final/{fileId}" } },
    handler,
  );

  app.get<{ Params: { fileId: string }; Querystring: { page: number } }>(
    "/result/image/:fileId",
    scoped("result:all", {
      tags: ["results"],
      summary: "A page of the file as PNG",
      description:
        "Renders page `page` (1-based, default 1) of the uploaded file. Scope: `result:all`. Rendered pages are " +
        "cached; when too many renders are waiting the answer is 503 `unavailable` with Retry-After.",
      params: fileIdParams,
      querystring: {
        type: "object",
        properties: { page: { type: "integer", minimum: 1, default: 1 } },
      },
      produces: ["image/png"],
      response: {
        200: { description: "PNG image", content: { "image/png": { schema: { type: "string", format: "binary" } } } },
        ...errorResponses(400, 401, 403, 404, 429, 503),
      },
    }),
    async (request, reply) => {
      // A client that hangs up before its image is sent cancels the render (unless another request waits on it).
      const gone = new AbortController();
      const onClose = (): void => gone.abort(new Error("the client closed the connection"));
      reply.raw.once("close", onClose);
      try {
        const tenantId = principalOf(request).tenantId;
        const png = await workflows.renderPage(tenantId, request.params.fileId, request.query.page, gone.signal);
        return reply.type("image/png").header("cache-control", "private, max-age=3600").send(png);
      } finally {
        reply.raw.off("close", onClose);
      }
    },
  );
}
