/**
 * Runs one queued file: dispatch on its workflow, write the outcome, signal completion. `prediction` extracts;
 * `split` stores and queues one child file per sub-document and finalises the parent with the children's list
 * (no timestamp); `validate` extracts, then either finalises or leaves the file IN PROGRESS under a review task
 * (src/workflows/validate.ts). Outcomes:
 * - DocsiftError from processing (corrupt, encrypted, OCR failure...): FAILED at once with that code. This includes
 *   the pool's own limits: a job over its time limit (`timeout`) or its thread's heap limit (`unusable_document`)
 *   would hit them again, so it is not retried.
 * - A crashed thread (or an unexpected error): the file's own failure; counted when the attempt ends, and retried
 *   until MAX_ATTEMPTS such attempts, then FAILED `internal`.
 * - A process killed mid-job (kill -9, power cut) or shut down: not the file's fault, it spends no attempt. A job
 *   found IN PROGRESS when it runs again was cut by the end of its process: it counts as an interruption and simply
 *   resumes. Only a file interrupted MAX_INTERRUPTIONS times (one that takes the process down itself, e.g. a native
 *   abort in a parser) ends FAILED `internal`.
 * - A transient storage failure (disk full, SQLite busy, PostgreSQL restarting) is thrown on to the queue, which runs
 *   the job again later: the document is not at fault, so it must neither fail nor spend its attempts.
 */
import { availableParallelism } from "node:os";
import { MAX_ATTEMPTS, MAX_INTERRUPTIONS } from "../domain/attempts.js";
import { DocsiftError, type ErrorBody, type ErrorCode } from "../domain/errors.js";
import type { Results } from "../domain/result.js";
import type { CompletionSignal } from "../queue/completion.js";
import type { JobOutcome } from "../queue/job-queue.js";
import { isTransient } from "../store/transient-errors.js";
import type { BlobStore, FileRecord, Store } from "../store/types.js";
import type { RunningJobs } from "./running-jobs.js";
import { storeChildren } from "./split-children.js";
import type { ProcessingPool } from "./threads/processing-tasks.js";
import { validatePredictions } from "./validate.js";

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
  /** Where deleting a file finds its job in this process, to stop it (workflows/files.ts). */
  running?: RunningJobs;
}

export function createJobRunner(deps: RunnerDeps): (fileId: string) => Promise<JobOutcome> {
  const { store, completion, observer } = deps;

  const fail = async (file: FileRecord, error: ErrorBody): Promise<JobOutcome> => {
    await store.files.fail(file.id, error, new Date().toISOString());
    observer.failed(file, error.error);
    completion.notify(file.id);
    return "done";
  };

  /**
   * A file deleted while its job ran (DELETE /files/:id, retention) is simply gone: its row's absence makes every
   * write fail (foreign keys) or match nothing, so nothing of it comes back, and the job ends without a retry.
   */
  const gone = (fileId: string): Promise<boolean> =>
    store.files.getForJob(fileId).then(
      (file) => file === undefined,
      () => false,
    );

  /** Files whose last job in this process ended on a storage outage, still IN PROGRESS: resumed, not interrupted. */
  const cutByOutage = new Set<string>();

  const run = async (fileId: string): Promise<JobOutcome> => {
    let file = await store.files.getForJob(fileId);
    if (!file || (file.status !== "RECEIVED" && file.status !== "IN PROGRESS")) return "done";
    // A validated file waiting for its reviewer (re-queued after a restart): nothing left to run.
    if (file.workflow === "validate" && (await store.tasks.getForFile(file.id))) return "done";
    if (file.status === "IN PROGRESS" && !cutByOutage.delete(file.id)) {
      file = { ...file, interruptions: await store.files.markInterrupted(file.id) };
    }
    if (file.interruptions >= MAX_INTERRUPTIONS) {
      return fail(file, {
        error: "internal",
        message: `Processing was cut ${file.interruptions} times by the end of its process; the failure was logged.`,
      });
    }
    if (file.attempts >= MAX_ATTEMPTS) {
      return fail(file, {
        error: "internal",
        message: `Processing stopped after ${file.attempts} failed attempts; the failure was logged.`,
      });
    }
    const started = Date.now();
    await store.files.markStarted(file.id, new Date(started).toISOString());
    const signal = deps.running?.start(file.id);
    try {
      const results = await runWorkflow(deps, file, signal);
      if (results === null) return "done";
      await store.files.finalise(file.id, results, new Date().toISOString());
      observer.finalised(file, Date.now() - started);
      completion.notify(file.id);
      return "done";
    } catch (err) {
      if (await gone(file.id)) return "done";
      if (isTransient(err)) {
        cutByOutage.add(file.id);
        throw err;
      }
      if (err instanceof DocsiftError && err.code === "shutting_down") {
        // Cut by this process's shutdown: the next start resumes it, at no cost to the file.
        await store.files.markRetry(file.id);
        return "retry";
      }
      if (err instanceof DocsiftError) return fail(file, err.toJSON());
      const attempt = await store.files.markFailedAttempt(file.id);
      observer.retried(file, attempt, err);
      if (attempt >= MAX_ATTEMPTS) {
        return fail(file, {
          error: "internal",
          message: `Processing failed ${attempt} times; the failure was logged.`,
        });
      }
      return "retry";
    } finally {
      if (signal) deps.running?.end(file.id, signal);
    }
  };

  return async (fileId) => {
    try {
      return await run(fileId);
    } catch (err) {
      if (await gone(fileId)) return "done";
      throw err;
    }
  };
}

/** The file's results, or null when they await review (validate). */
async function runWorkflow(deps: RunnerDeps, file: FileRecord, signal?: AbortSignal): Promise<Results | null> {
  const pageConcurrency = Math.max(1, Math.round(availableParallelism() / deps.pool.size));
  switch (file.workflow) {
    case "split": {
      const bytes = new Uint8Array(await deps.blobs.get(file.id));
      const result = await deps.pool.run(
        { kind: "split", bytes, pageConcurrency },
        [bytes.buffer as ArrayBuffer],
        signal,
      );
      if (result.kind !== "split") throw new Error("processing thread answered a different task");
      return { fields: [await storeChildren(deps, file, result.children)] };
    }
    case "prediction":
      return predict(deps, file, pageConcurrency, signal);
    case "validate":
      return validatePredictions(deps.store, file, await predict(deps, file, pageConcurrency, signal));
  }
}

async function predict(
  deps: RunnerDeps,
  file: FileRecord,
  pageConcurrency: number,
  signal: AbortSignal | undefined,
): Promise<Results> {
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
    signal,
  );
  if (result.kind !== "predict") throw new Error("processing thread answered a different task");
  const warnings = result.warnings.length > 0 ? { warnings: result.warnings } : {};
  return { timestamp: new Date().toISOString(), fields: result.fields, ...warnings };
}
