/**
 * Files as resources: GET /files (the tenant's files, newest first), GET /files/:fileId, GET /files/:fileId/original
 * (the uploaded bytes) and DELETE /files/:fileId. Reading takes `result:all`, deleting `fileupload:all`; another
 * tenant's file is 404 like an unknown or deleted one.
 */
import type { FastifyInstance } from "fastify";
import { DocsiftError } from "../../domain/errors.js";
import type { FileStatus } from "../../domain/result.js";
import type { Workflows } from "../../workflows/facade.js";
import { principalOf, scoped } from "../auth-hook.js";
import { errorResponses, fileIdParams } from "../schemas.js";

const STATUSES: FileStatus[] = ["RECEIVED", "IN PROGRESS", "FINALISED", "FAILED"];
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

const fileInfoSchema = {
  type: "object",
  properties: {
    fileId: { type: "string" },
    fileName: { type: ["string", "null"] },
    status: { type: "string", enum: STATUSES },
    uploadedAt: { type: "string" },
    finalisedAt: { type: ["string", "null"], description: "When processing ended (FINALISED or FAILED)." },
    pages: { type: "integer" },
    tags: { type: "array", items: { type: "string" } },
    workflowId: { type: "string", enum: ["prediction", "split", "validate"] },
    parentId: { type: ["string", "null"], description: "The split parent of a sub-document." },
    parentDocId: { type: ["string", "null"], description: "The upload's parentDocId, as given." },
    children: { type: "array", items: { type: "string" }, description: "A split parent's sub-documents, in order." },
  },
  required: [
    "fileId",
    "fileName",
    "status",
    "uploadedAt",
    "finalisedAt",
    "pages",
    "tags",
    "workflowId",
    "parentId",
    "parentDocId",
    "children",
  ],
} as const;

/**
 * RFC 6266: an ASCII fallback for old clients and the exact name in UTF-8. Quotes, backslashes and anything outside
 * printable ASCII leave the fallback; the stored name has no control characters (upload-params.ts).
 */
function attachment(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

function parseSince(value: string | undefined): string | null {
  if (value === undefined || value === "") return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms))
    throw new DocsiftError("bad_request", `since must be an ISO 8601 date or time, not "${value}".`);
  return new Date(ms).toISOString();
}

export async function fileRoutes(app: FastifyInstance, deps: { workflows: Workflows }): Promise<void> {
  const { workflows } = deps;
  app.get<{
    Querystring: { status?: FileStatus; tag?: string; since?: string; limit?: number; cursor?: string };
  }>(
    "/files",
    scoped("result:all", {
      tags: ["files"],
      summary: "List the tenant's files, newest first",
      description:
        "Filters: `status`, `tag` (files carrying that tag), `since` (uploaded at or after, ISO 8601). Pages of " +
        `\`limit\` files (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}); pass \`next\` as \`cursor\` for the next page. ` +
        "Split sub-documents are listed too. Scope: `result:all`.",
      querystring: {
        type: "object",
        properties: {
          status: { type: "string", enum: STATUSES },
          tag: { type: "string", maxLength: 256 },
          since: { type: "string", maxLength: 64 },
          limit: { type: "integer", minimum: 1, maximum: MAX_LIMIT },
          cursor: { type: "string", maxLength: 512 },
        },
      },
      response: {
        200: {
          type: "object",
          properties: {
            files: { type: "array", items: fileInfoSchema },
            next: { type: ["string", "null"] },
          },
          required: ["files", "next"],
        },
        ...errorResponses(400, 401, 403, 429),
      },
    }),
    async (request) => {
      const { status, tag, since, limit, cursor } = request.query;
      return workflows.listFiles(principalOf(request).tenantId, {
        status: status ?? null,
        tag: tag ?? null,
        since: parseSince(since),
        cursor: cursor ?? null,
        limit: limit ?? DEFAULT_LIMIT,
      });
    },
  );

  app.get<{ Params: { fileId: string } }>(
    "/files/:fileId",
    scoped("result:all", {
      tags: ["files"],
      summary: "A file: name, status, times, pages, tags, workflow, split parent and children",
      description: "Scope: `result:all`. Another tenant's file, or a deleted one, is 404 like an unknown id.",
      params: fileIdParams,
      response: { 200: fileInfoSchema, ...errorResponses(400, 401, 403, 404, 429) },
    }),
    async (request) => workflows.fileInfo(principalOf(request).tenantId, request.params.fileId),
  );

  app.get<{ Params: { fileId: string } }>(
    "/files/:fileId/original",
    scoped("result:all", {
      tags: ["files"],
      summary: "The uploaded file itself",
      description:
        "The bytes as uploaded, with their content type and file name (Content-Disposition). A split " +
        "sub-document answers its own PDF (its pages of the parent) or image. Scope: `result:all`.",
      params: fileIdParams,
      produces: ["application/pdf", "image/png", "image/jpeg"],
      response: {
        200: {
          description: "The document",
          content: {
            "application/pdf": { schema: { type: "string", format: "binary" } },
            "image/png": { schema: { type: "string", format: "binary" } },
            "image/jpeg": { schema: { type: "string", format: "binary" } },
          },
        },
        ...errorResponses(400, 401, 403, 404, 429),
      },
    }),
    async (request, reply) => {
      const original = await workflows.originalFile(principalOf(request).tenantId, request.params.fileId);
      return reply
        .type(original.contentType)
        .header("content-disposition", attachment(original.fileName))
        .header("cache-control", "private, no-store")
        .send(original.bytes);
    },
  );

  app.delete<{ Params: { fileId: string } }>(
    "/files/:fileId",
    scoped("fileupload:all", {
      tags: ["files"],
      summary: "Delete a file, its result and review tasks (and a split parent's sub-documents)",
      description:
        "Removes the stored document, its result and review tasks, and for a split parent its sub-documents; a " +
        "job still running on it is stopped and writes nothing. Answers 204; afterwards every request for the id, " +
        "this one included, is 404 like an unknown id, so a repeated delete changes nothing. Scope: `fileupload:all`.",
      params: fileIdParams,
      response: {
        204: { description: "Deleted", type: "null" },
        ...errorResponses(400, 401, 403, 404, 429, 503),
      },
    }),
    async (request, reply) => {
      const { deleted, blobFailures } = await workflows.deleteFile(
        principalOf(request).tenantId,
        request.params.fileId,
      );
      if (!deleted) throw new DocsiftError("not_found", "No file with this id.");
      for (const err of blobFailures) {
        request.log.warn({ err, fileId: request.params.fileId }, "a deleted file's blob could not be removed");
      }
      return reply.status(204).send();
    },
  );
}
