/**
 * Step 1 of the flow of one upload: check the bytes, store blob and row durably, queue the job, and only then hand
 * back the receipt. The bytes are checked in the API's inspect pool, never on its event loop: a parser attack costs
 * one inspect thread up to its time and heap limit, and the upload is refused with a 4xx. Bad input throws before
 * anything is written; a storage failure on the way (disk full, database busy or restarting) answers 503
 * `unavailable` and leaves no row that could become a job nobody holds a receipt for.
 *
 * With an Idempotency-Key, an upload the client already made with that key (and the same content) is answered with
 * its original receipt and nothing is stored or queued again; the same key with other content is 409. Two requests
 * racing with one key are decided by the unique index on (client, key): the loser removes its blob and answers with
 * the winner's receipt.
 */
import { randomUUID } from "node:crypto";
import type { Principal } from "../auth/tokens.js";
import type { Selection } from "../catalog/lookup.js";
import type { FileFormat } from "../document/model.js";
import { DocsiftError } from "../domain/errors.js";
import type { UploadReceipt } from "../domain/result.js";
import type { WorkflowPlan } from "../domain/workflow-plan.js";
import type { JobQueue } from "../queue/job-queue.js";
import { unavailableFor } from "../store/transient-errors.js";
import type { BlobStore, KeyedUpload, Store, UploadKey } from "../store/types.js";
import { concatInSlices } from "./copy-in-slices.js";
import type { ProcessingPool } from "./threads/processing-tasks.js";
import { keyExpired, uploadFingerprint } from "./upload-fingerprint.js";

export interface UploadRequest {
  bytes: Buffer;
  fileName: string | null;
  selection: Selection;
  /** The workflow with its options, checked at upload (api/upload-params.ts). */
  plan: WorkflowPlan;
  locale: string | null;
  tags: string | null;
  /** The client's reference to another document (form field parentDocId), stored as given. */
  parentDocId: string | null;
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
  /** The small pool that runs upload inspections (not the extraction pool: uploads must not wait behind OCR). */
  inspectPool: ProcessingPool;
}

const NOT_STORED = "The upload was not stored.";

export async function receiveUpload(deps: ReceiveDeps, who: Principal, upload: UploadRequest): Promise<ReceivedUpload> {
  const key: UploadKey | undefined =
    upload.idempotencyKey === null ? undefined : { key: upload.idempotencyKey, contentHash: uploadFingerprint(upload) };
  const earlier = key && (await earlierUpload(deps, who, key));
  if (earlier) return { receipt: earlier, replayed: true };
  const { type, pageCount } = await inspectOffThread(deps.inspectPool, upload.bytes);
  const fileId = randomUUID();
  const uploadedAt = new Date().toISOString();
  // Blob first: a crash between the two leaves an orphan blob, never a row without its bytes.
  await orUnavailable(deps.blobs.put(fileId, upload.bytes));
  const inserted = await deps.store.files
    .insert({
      id: fileId,
      tenantId: who.tenantId,
      clientId: who.clientId,
      ...upload.plan,
      selection: upload.selection,
      locale: upload.locale,
      tags: upload.tags,
      fileName: upload.fileName,
      type,
      pageCount,
      size: upload.bytes.byteLength,
      parentId: null,
      parentDocId: upload.parentDocId,
      uploadedAt,
      idempotency: key,
    })
    .catch((err: unknown) => settleFailedInsert(deps, fileId, err));
  if (!inserted && key) return { receipt: await concurrentUpload(deps, who, key, fileId), replayed: true };
  await deps.queue.enqueue(fileId).catch((err: unknown) => withdraw(deps, fileId, err));
  return { receipt: { fileId, uploadedAt, status: "RECEIVED" }, replayed: false };
}

/**
 * Runs the upload-time inspection in the inspect pool, on a copy (the bytes are stored afterwards, and a transfer
 * would detach them) made a slice at a time, so that a large upload does not hold the event loop. A thread cut at
 * the inspection time limit answers 422 `corrupt_file`, one over its heap limit 413 `file_too_large`, one that died
 * or failed untyped 422 `corrupt_file`: each is the file's doing, so a 4xx, never a 5xx.
 */
async function inspectOffThread(
  pool: ProcessingPool,
  bytes: Uint8Array,
): Promise<{ type: FileFormat; pageCount: number }> {
  const copy = await concatInSlices([bytes]);
  const result = await pool.run({ kind: "inspect", bytes: copy }, [copy.buffer]).catch((err: unknown) => {
    throw inspectionError(err);
  });
  if (result.kind !== "inspect") throw new Error(`inspect task answered with a ${result.kind} result`);
  return { type: result.type, pageCount: result.pageCount };
}

function inspectionError(err: unknown): unknown {
  // A thread that died, or anything untyped: pdf.js or a decoder meeting what it cannot read, the file's doing.
  if (!(err instanceof DocsiftError))
    return new DocsiftError("corrupt_file", "The file could not be read.", { cause: err });
  if (err.code === "timeout")
    return new DocsiftError("corrupt_file", "The file could not be checked in reasonable time; it is not read.", {
      cause: err,
    });
  // The pool's heap limit; inspection itself never answers unusable_document.
  if (err.code === "unusable_document")
    return new DocsiftError(
      "file_too_large",
      "Checking the file needed more memory than an upload check may use; it is not read.",
      { cause: err },
    );
  return err;
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
