/**
 * Runs one queued file: dispatch on its workflow, write the outcome, signal completion. `prediction` extracts;
 * `split` stores and queues one child file per sub-document and finalises the parent with the children's list
 * (no timestamp); `validate` extracts, then either finalises or leaves the file IN PROGRESS under a review task
 * (src/workflows/validate.ts). Outcomes:
 * - DocsiftError from processing (corrupt, encrypted, OCR failure...): FAILED at once with that code. This includes
 *   the pool's own limits: a job over its time limit (`timeout`) or its thread's heap limit (`unusable_document`)
 *   would hit them again, so it is not retried.
 * - A crashed thread (or an unexpected error): retried until MAX_ATTEMPTS attempts have started, then FAILED `internal`.
 *   Attempts are counted in the store when a job starts, so a process killed mid-job also uses one up.
 * - A transient storage failure (disk full, SQLite busy, PostgreSQL restarting) is thrown on to the queue, which runs
 *   the job again later: the document is not at fault, so it must neither fail nor spend its attempts.
 */
import { availableParallelism } from "node:os";
import { DocsiftError, type ErrorBody, type ErrorCode } from "../domain/errors.js";
import type { Results } from "../domain/result.js";
import type { CompletionSignal } from "../queue/completion.js";
import type { JobOutcome } from "../queue/job-queue.js";
import { isTransient } from "../store/transient-errors.js";
import type { BlobStore, FileRecord, Store } from "../store/types.js";
import type { ProcessingPool } from "./processing-tasks.js";
import { storeChildren } from "./split-children.js";
import { validatePredictions } from "./validate.js";

export const MAX_ATTEMPTS = 3;

/** Hooks for metrics and logs; the runner itself knows nothing of Prometheus or pino. */
export interface JobObserver {
  finalised(file: FileRecord, ms: number): void;
  failed(file: FileRecord, code: ErrorCode): void;
  retried(file: FileRecord, attempt: number, err: unknown): void;
}

export interface RunnerDeps {
  store: Store;
  blobs: BlobStore;
  pool: ProcessingPool;
  completion: CompletionSignal;
  observer: JobObserver;
  /** Queues a file created by a job (the children of a split); a runner without it cannot run split parents. */
  enqueue?: (fileId: string) => Promise<void>;
}

export function createJobRunner(deps: RunnerDeps): (fileId: string) => Promise<JobOutcome> {
  const { store, completion, observer } = deps;

  const fail = async (file: FileRecord, error: ErrorBody): Promise<JobOutcome> => {
    await store.files.fail(file.id, error, new Date().toISOString());
    observer.failed(file, error.error);
    completion.notify(file.id);
    return "done";
  };

  return async (fileId) => {
    const file = await store.files.getForJob(fileId);
    if (!file || (file.status !== "RECEIVED" && file.status !== "IN PROGRESS")) return "done";
    if (file.attempts >= MAX_ATTEMPTS) {
      return fail(file, {
        error: "internal",
        message: `Processing stopped after ${file.attempts} failed attempts; the failure was logged.`,
      });
    }
    // A validated file waiting for its reviewer (re-queued after a restart): nothing left to run.
    if (file.workflow === "validate" && (await store.tasks.getForFile(file.id))) return "done";
    const started = Date.now();
    const attempt = await store.files.markStarted(file.id, new Date(started).toISOString());
    try {
      const results = await runWorkflow(deps, file);
      if (results === null) return "done";
      await store.files.finalise(file.id, results, new Date().toISOString());
      observer.finalised(file, Date.now() - started);
      completion.notify(file.id);
      return "done";
    } catch (err) {
      if (isTransient(err)) throw err;
      if (err instanceof DocsiftError && err.code !== "shutting_down") return fail(file, err.toJSON());
      observer.retried(file, attempt, err);
      if (attempt >= MAX_ATTEMPTS) {
        return fail(file, {
          error: "internal",
          message: `Processing failed ${attempt} times; the failure was logged.`,
        });
      }
      await store.files.markRetry(file.id);
      return "retry";
    }
  };
}

/** The file's results, or null when they await review (validate). */
async function runWorkflow(deps: RunnerDeps, file: FileRecord): Promise<Results | null> {
  const pageConcurrency = Math.max(1, Math.round(availableParallelism() / deps.pool.size));
  switch (file.workflow) {
    case "split": {
      const bytes = new Uint8Array(await deps.blobs.get(file.id));
      const result = await deps.pool.run({ kind: "split", bytes, pageConcurrency }, [bytes.buffer as ArrayBuffer]);
      if (result.kind !== "split") throw new Error("processing thread answered a different task");
      return { fields: [await storeChildren(deps, file, result.children)] };
    }
    case "prediction":
      return predict(deps, file, pageConcurrency);
    case "validate":
      return validatePredictions(deps.store, file, await predict(deps, file, pageConcurrency));
  }
}

async function predict(deps: RunnerDeps, file: FileRecord, pageConcurrency: number): Promise<Results> {
  const bytes = new Uint8Array(await deps.blobs.get(file.id));
  const result = await deps.pool.run(
    {
      kind: "predict",
      bytes,
      selection: file.selection,
      locale: file.locale,
      pageConcurrency,
    },
    [bytes.buffer as ArrayBuffer],
  );
  if (result.kind !== "predict") throw new Error("processing thread answered a different task");
  return { timestamp: new Date().toISOString(), fields: result.fields };
}
