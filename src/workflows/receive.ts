/**
 * Step 1 of the flow of one upload: check the bytes, store blob and row durably, queue the job, and only then hand
 * back the receipt. Bad input throws before anything is written; a storage failure on the way (disk full, database
 * busy or restarting) answers 503 `unavailable` and leaves no row that could become a job nobody holds a receipt for.
 *
 * With an Idempotency-Key, an upload the client already made with that key (and the same content) is answered with
 * its original receipt and nothing is stored or queued again; the same key with other content is 409. Two requests
 * racing with one key are decided by the unique index on (client, key): the loser removes its blob and answers with
 * the winner's receipt.
 */
import { randomUUID } from "node:crypto";
import type { Principal } from "../auth/tokens.js";
import type { Selection } from "../catalog/lookup.js";
import { DocsiftError } from "../domain/errors.js";
import type { UploadReceipt } from "../domain/result.js";
import { inspect } from "../ingest/index.js";
import type { JobQueue } from "../queue/job-queue.js";
import { unavailableFor } from "../store/transient-errors.js";
import type { BlobStore, KeyedUpload, Store, UploadKey, WorkflowId } from "../store/types.js";
import { keyExpired, uploadFingerprint } from "./upload-fingerprint.js";

export interface UploadRequest {
  bytes: Buffer;
  fileName: string | null;
  selection: Selection;
  workflow: WorkflowId;
  options: Record<string, unknown> | null;
  locale: string | null;
  tags: string | null;
  /** The Idempotency-Key header (checked by the route), or null. */
  idempotencyKey: string | null;
}

export interface ReceivedUpload {
  receipt: UploadReceipt;
  /** True when the receipt is that of the key's earlier upload: nothing was stored or queued now. */
  replayed: boolean;
}

export interface ReceiveDeps {
  store: Store;
  blobs: BlobStore;
  queue: JobQueue;
}

const NOT_STORED = "The upload was not stored.";

export async function receiveUpload(deps: ReceiveDeps, who: Principal, upload: UploadRequest): Promise<ReceivedUpload> {
  const key: UploadKey | undefined =
    upload.idempotencyKey === null ? undefined : { key: upload.idempotencyKey, contentHash: uploadFingerprint(upload) };
  const earlier = key && (await earlierUpload(deps, who, key));
  if (earlier) return { receipt: earlier, replayed: true };
  const { type, pageCount } = await inspect(upload.bytes);
  const fileId = randomUUID();
  const uploadedAt = new Date().toISOString();
  // Blob first: a crash between the two leaves an orphan blob, never a row without its bytes.
  await orUnavailable(deps.blobs.put(fileId, upload.bytes));
  const inserted = await deps.store.files
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
      idempotency: key,
    })
    .catch((err: unknown) => settleFailedInsert(deps, fileId, err));
  if (!inserted && key) return { receipt: await concurrentUpload(deps, who, key, fileId), replayed: true };
  await deps.queue.enqueue(fileId).catch((err: unknown) => withdraw(deps, fileId, err));
  return { receipt: { fileId, uploadedAt, status: "RECEIVED" }, replayed: false };
}

/**
 * The receipt of the client's earlier upload with this key and the same content, undefined when the key is new (or
 * its retention has passed: the key is then freed for this upload), 409 when it was used for other content.
 */
async function earlierUpload(deps: ReceiveDeps, who: Principal, key: UploadKey): Promise<UploadReceipt | undefined> {
  const found = await orUnavailable(deps.store.files.findByIdempotencyKey(who.clientId, key.key));
  if (!found) return undefined;
  if (keyExpired(found.uploadedAt, Date.now())) {
    // By file id, so a newer upload that took the key meanwhile keeps it.
    await orUnavailable(deps.store.files.releaseIdempotencyKey(found.fileId));
    return undefined;
  }
  return replay(found, key);
}

/** The original receipt, as first sent: the file's progress since is for GET /result to tell. */
function replay(found: KeyedUpload, key: UploadKey): UploadReceipt {
  if (found.contentHash !== key.contentHash) {
    throw new DocsiftError(
      "conflict",
      `Idempotency-Key "${key.key}" was already used for a different upload (other bytes or parameters); ` +
        "send new content with a new key.",
    );
  }
  return { fileId: found.fileId, uploadedAt: found.uploadedAt, status: "RECEIVED" };
}

/** Another request with the same key inserted first: this one's blob goes, and the winner's receipt answers. */
async function concurrentUpload(
  deps: ReceiveDeps,
  who: Principal,
  key: UploadKey,
  fileId: string,
): Promise<UploadReceipt> {
  await deps.blobs.delete(fileId).catch(() => undefined);
  const winner = await orUnavailable(deps.store.files.findByIdempotencyKey(who.clientId, key.key));
  // The winner was withdrawn (its queueing failed) between its insert and this read: a retry finds the key free.
  if (!winner) {
    throw new DocsiftError("unavailable", `${NOT_STORED} Another upload with this Idempotency-Key was withdrawn.`, {
      retryAfterSeconds: 1,
    });
  }
  return replay(winner, key);
}

function asUnavailable(err: unknown): unknown {
  return unavailableFor(err, NOT_STORED) ?? err;
}

/** The storage step, its transient failures turned into 503 `unavailable`. */
function orUnavailable<T>(step: Promise<T>): Promise<T> {
  return step.catch((err: unknown) => {
    throw asUnavailable(err);
  });
}

/**
 * The insert failed (SQLite busy past its timeout, PostgreSQL gone, disk full). A dropped connection can hide a
 * commit, so the row is looked up before its blob is removed: present, the upload simply goes on; absent, the blob
 * goes and the error stands; unknown (the database is still down), the blob stays as an orphan rather than risk a
 * row without its bytes.
 */
async function settleFailedInsert(deps: ReceiveDeps, fileId: string, err: unknown): Promise<true> {
  const row = await deps.store.files.getForJob(fileId).then(
    (file) => (file ? "present" : "absent"),
    () => "unknown",
  );
  if (row === "present") return true;
  if (row === "absent") await deps.blobs.delete(fileId).catch(() => undefined);
  throw asUnavailable(err);
}

/**
 * Stored but not queued (the PostgreSQL queue was unreachable): the client gets an error and no fileId, so the file
 * must not run later as a job nobody asked about; it is marked FAILED and its idempotency key freed (the client's
 * retry with that key is a new upload, not a replay of this failure) when the database allows. Otherwise it stays
 * RECEIVED and the next worker start's sweep processes it: wasted work, nothing lost.
 */
async function withdraw(deps: ReceiveDeps, fileId: string, err: unknown): Promise<never> {
  const error = { error: "unavailable", message: "The upload could not be queued; it was not accepted." } as const;
  await deps.store.files.fail(fileId, error, new Date().toISOString()).catch(() => undefined);
  await deps.store.files.releaseIdempotencyKey(fileId).catch(() => undefined);
  throw asUnavailable(err);
}
