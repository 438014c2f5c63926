/**
 * Step 1 of the flow of one upload: check the bytes, store blob and row durably, queue the job, and only then hand
 * back the receipt. Bad input throws before anything is written; a storage failure on the way (disk full, database
 * busy or restarting) answers 503 `unavailable` and leaves no row that could become a job nobody holds a receipt for.
 */
import { randomUUID } from "node:crypto";
import type { Principal } from "../auth/tokens.js";
import type { Selection } from "../catalog/lookup.js";
import type { UploadReceipt } from "../domain/result.js";
import { inspect } from "../ingest/index.js";
import type { JobQueue } from "../queue/job-queue.js";
import { unavailableFor } from "../store/transient-errors.js";
import type { BlobStore, Store, WorkflowId } from "../store/types.js";

export interface UploadRequest {
  bytes: Buffer;
  fileName: string | null;
  selection: Selection;
  workflow: WorkflowId;
  options: Record<string, unknown> | null;
  locale: string | null;
  tags: string | null;
}

export interface ReceiveDeps {
  store: Store;
  blobs: BlobStore;
  queue: JobQueue;
}

const NOT_STORED = "The upload was not stored.";

export async function receiveUpload(deps: ReceiveDeps, who: Principal, upload: UploadRequest): Promise<UploadReceipt> {
  const { type, pageCount } = await inspect(upload.bytes);
  const fileId = randomUUID();
  const uploadedAt = new Date().toISOString();
  // Blob first: a crash between the two leaves an orphan blob, never a row without its bytes.
  await deps.blobs.put(fileId, upload.bytes).catch((err: unknown) => {
    throw asUnavailable(err);
  });
  await deps.store.files
    .insert({
      id: fileId,
      tenantId: who.tenantId,
      clientId: who.clientId,
      workflow: upload.workflow,
      options: upload.options,
      selection: upload.selection,
      locale: upload.locale,
      tags: upload.tags,
      fileName: upload.fileName,
      type,
      pageCount,
      size: upload.bytes.byteLength,
      parentId: null,
      uploadedAt,
    })
    .catch((err: unknown) => settleFailedInsert(deps, fileId, err));
  await deps.queue.enqueue(fileId).catch((err: unknown) => withdraw(deps, fileId, err));
  return { fileId, uploadedAt, status: "RECEIVED" };
}

function asUnavailable(err: unknown): unknown {
  return unavailableFor(err, NOT_STORED) ?? err;
}

/**
 * The insert failed (SQLite busy past its timeout, PostgreSQL gone, disk full). A dropped connection can hide a
 * commit, so the row is looked up before its blob is removed: present, the upload simply goes on; absent, the blob
 * goes and the error stands; unknown (the database is still down), the blob stays as an orphan rather than risk a
 * row without its bytes.
 */
async function settleFailedInsert(deps: ReceiveDeps, fileId: string, err: unknown): Promise<void> {
  const row = await deps.store.files.getForJob(fileId).then(
    (file) => (file ? "present" : "absent"),
    () => "unknown",
  );
  if (row === "present") return;
  if (row === "absent") await deps.blobs.delete(fileId).catch(() => undefined);
  throw asUnavailable(err);
}

/**
 * Stored but not queued (the PostgreSQL queue was unreachable): the client gets an error and no fileId, so the file
 * must not run later as a job nobody asked about; it is marked FAILED when the database allows. Otherwise it stays
 * RECEIVED and the next worker start's sweep processes it: wasted work, nothing lost.
 */
async function withdraw(deps: ReceiveDeps, fileId: string, err: unknown): Promise<never> {
  const error = { error: "unavailable", message: "The upload could not be queued; it was not accepted." } as const;
  await deps.store.files.fail(fileId, error, new Date().toISOString()).catch(() => undefined);
  throw asUnavailable(err);
}
