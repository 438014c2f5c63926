/**
 * Step 1 of the flow of one upload: check the bytes, store blob and row durably, queue the job, and only then hand
 * back the receipt. Bad input throws before anything is written.
 */
import { randomUUID } from "node:crypto";
import type { Principal } from "../auth/tokens.js";
import type { Selection } from "../catalog/lookup.js";
import type { UploadReceipt } from "../domain/result.js";
import { inspect } from "../ingest/index.js";
import type { JobQueue } from "../queue/job-queue.js";
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

export async function receiveUpload(deps: ReceiveDeps, who: Principal, upload: UploadRequest): Promise<UploadReceipt> {
  const { type, pageCount } = await inspect(upload.bytes);
  const fileId = randomUUID();
  const uploadedAt = new Date().toISOString();
  // Blob first: a crash between the two leaves an orphan blob, never a row without its bytes.
  await deps.blobs.put(fileId, upload.bytes);
  await deps.store.files.insert({
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
  });
  await deps.queue.enqueue(fileId);
  return { fileId, uploadedAt, status: "RECEIVED" };
}
