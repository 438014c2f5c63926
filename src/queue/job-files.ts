/**
 * What the PostgreSQL queue asks the store about the files its jobs are for. pg-boss keeps the jobs; the files table
 * keeps the truth about the files, and only the store reads or writes it. The store's file repository provides these
 * (store/kysely/file-repository.ts), handed in when the queue is started.
 */
import type { ErrorBody } from "../domain/errors.js";
import type { FileStatus } from "../domain/result.js";

/** A file as the dead-letter handler weighs it: finished, or how much of its bounds its jobs used. */
export interface JobFile {
  id: string;
  status: FileStatus;
  attempts: number;
  interruptions: number;
}

export interface JobFiles {
  /** Unscoped read: the job acts on behalf of whichever tenant owns the file. */
  getForJob(id: string): Promise<JobFile | undefined>;
  /** FAILED with `error`, unless the file is already FINALISED. */
  fail(id: string, error: ErrorBody, at: string): Promise<void>;
  /** Those of `ids` that are FINALISED or FAILED: completions the LISTEN session may have missed while it was down. */
  finishedIds(ids: readonly string[]): Promise<string[]>;
  /** RECEIVED files never started, oldest first: files whose job may never have been sent. */
  listNeverStarted(): Promise<string[]>;
}

/** The part of the Store the queue uses. */
export interface JobStore {
  files: JobFiles;
}
