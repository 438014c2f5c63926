/**
 * Files as resources of their tenant: describe one, list them, hand back the uploaded bytes, delete one. Another
 * tenant's id, a malformed id and a deleted file all read as the same `not_found`.
 *
 * Deleting removes the rows (file, result, review tasks, and a split parent's sub-documents) in one transaction, then
 * the blobs. A job still running on the file is stopped when it runs in this process; wherever it runs, its writes
 * then find no row (foreign keys), so nothing of the file comes back (runner.ts). Waiting result requests are woken and
 * answer 404, and every process drops its cached answer (the completion signal reaches them all).
 */
import { DocsiftError } from "../domain/errors.js";
import type { FileCursor, FileFormat, FileRecord } from "../domain/files.js";
import type { FileStatus } from "../domain/result.js";
import { decodeTags } from "../domain/tags.js";
import type { WorkflowId } from "../domain/workflow-plan.js";
import type { CompletionSignal } from "../queue/completion.js";
import type { PageCache } from "../store/page-cache.js";
import type { BlobStore, Store } from "../store/types.js";
import { keysetPage } from "./page-cursor.js";
import type { RunningJobs } from "./running-jobs.js";
import { childFileId } from "./split-children.js";

export interface FileDeps {
  store: Store;
  blobs: BlobStore;
  completion: CompletionSignal;
  /** The jobs of this process, to stop a deleted file's job at once. */
  running?: RunningJobs;
  /** Rendered page images of this process, removed with their file. */
  pageCache?: Pick<PageCache, "forget">;
}

/** GET /files/:fileId and each item of GET /files. */
export interface FileInfo {
  fileId: string;
  fileName: string | null;
  status: FileStatus;
  uploadedAt: string;
  /** When processing ended (FINALISED or FAILED); null before. */
  finalisedAt: string | null;
  pages: number;
  tags: string[];
  workflowId: WorkflowId;
  /** The split parent of a sub-document. */
  parentId: string | null;
  /** The upload's parentDocId. */
  parentDocId: string | null;
  /** A split parent's sub-documents, in page order. */
  children: string[];
}

export interface FileListQuery {
  status: FileStatus | null;
  tag: string | null;
  since: string | null;
  /** The `next` of the previous page. */
  cursor: string | null;
  limit: number;
}

export interface FilePage {
  files: FileInfo[];
  /** Cursor of the next page; null on the last. */
  next: string | null;
}

export interface OriginalFile {
  bytes: Buffer;
  contentType: string;
  fileName: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const CONTENT_TYPES: Record<FileFormat, string> = {
  pdf: "application/pdf",
  png: "image/png",
  jpeg: "image/jpeg",
};
const EXTENSIONS: Record<FileFormat, string> = { pdf: "pdf", png: "png", jpeg: "jpg" };

function notFound(): DocsiftError {
  return new DocsiftError("not_found", "No file with this id.");
}

async function findFile(store: Store, tenantId: string, fileId: string): Promise<FileRecord> {
  const file = UUID.test(fileId) ? await store.files.get(tenantId, fileId.toLowerCase()) : undefined;
  if (!file) throw notFound();
  return file;
}

/** Children in page order: a child's id is derived from its parent's and its position (split-children.ts). */
function inPageOrder(parentId: string, childIds: readonly string[]): string[] {
  const position = new Map(childIds.map((_, i) => [childFileId(parentId, i), i]));
  return [...childIds].sort((a, b) => (position.get(a) ?? childIds.length) - (position.get(b) ?? childIds.length));
}

async function describe(store: Store, tenantId: string, files: readonly FileRecord[]): Promise<FileInfo[]> {
  const parents = files.filter((f) => f.workflow === "split").map((f) => f.id);
  const children = new Map<string, string[]>();
  for (const child of await store.files.listChildren(tenantId, parents)) {
    children.set(child.parentId, [...(children.get(child.parentId) ?? []), child.id]);
  }
  return files.map((file) => ({
    fileId: file.id,
    fileName: file.fileName,
    status: file.status,
    uploadedAt: file.uploadedAt,
    finalisedAt: file.status === "FINALISED" || file.status === "FAILED" ? file.finishedAt : null,
    pages: file.pageCount,
    tags: decodeTags(file.tags),
    workflowId: file.workflow,
    parentId: file.parentId,
    parentDocId: file.parentDocId,
    children: inPageOrder(file.id, children.get(file.id) ?? []),
  }));
}

export async function fileInfo(deps: Pick<FileDeps, "store">, tenantId: string, fileId: string): Promise<FileInfo> {
  const file = await findFile(deps.store, tenantId, fileId);
  const [info] = await describe(deps.store, tenantId, [file]);
  if (!info) throw notFound();
  return info;
}

function readFileCursor({ uploadedAt, id }: Record<string, unknown>): FileCursor | null {
  if (typeof uploadedAt !== "string" || Number.isNaN(Date.parse(uploadedAt)) || typeof id !== "string") return null;
  return { uploadedAt: new Date(uploadedAt).toISOString(), id };
}

export async function listFiles(
  deps: Pick<FileDeps, "store">,
  tenantId: string,
  query: FileListQuery,
): Promise<FilePage> {
  const { status, tag, since } = query;
  const { rows, next } = await keysetPage<FileRecord, FileCursor>(
    {
      read: readFileCursor,
      keyOf: (file) => ({ uploadedAt: file.uploadedAt, id: file.id }),
      rowsAfter: (after, limit) => deps.store.files.list(tenantId, { status, tag, since, after, limit }),
    },
    query.cursor,
    query.limit,
  );
  return { files: await describe(deps.store, tenantId, rows), next };
}

/** The uploaded bytes (a split sub-document: its own PDF or image) with their type and a file name to save them as. */
export async function originalFile(
  deps: Pick<FileDeps, "store" | "blobs">,
  tenantId: string,
  fileId: string,
): Promise<OriginalFile> {
  const file = await findFile(deps.store, tenantId, fileId);
  const bytes = await deps.blobs.get(file.id).catch(async (err: unknown) => {
    // Deleted between the read of the row and of the blob.
    if (!(await deps.store.files.get(tenantId, file.id))) throw notFound();
    throw err;
  });
  return {
    bytes,
    contentType: CONTENT_TYPES[file.type],
    fileName: file.fileName ?? `${file.id}.${EXTENSIONS[file.type]}`,
  };
}

/**
 * Deletes the tenant's file (see the module comment); false when there is no such file, so a repeated delete changes
 * nothing. Blobs that could not be removed (storage failing) are returned for the caller to report: their rows are
 * gone already, so nothing can reach them.
 */
export async function deleteFile(
  deps: FileDeps,
  tenantId: string,
  fileId: string,
): Promise<{ deleted: boolean; blobFailures: unknown[] }> {
  const removed = UUID.test(fileId) ? await deps.store.files.remove(tenantId, fileId.toLowerCase()) : [];
  for (const id of removed) {
    deps.running?.cancel(id);
    deps.completion.notify(id);
  }
  const settled = await Promise.allSettled(
    removed.flatMap((id) => [deps.blobs.delete(id), deps.pageCache?.forget(id) ?? Promise.resolve()]),
  );
  const blobFailures = settled.flatMap((s) => (s.status === "rejected" ? [s.reason] : []));
  return { deleted: removed.length > 0, blobFailures };
}
