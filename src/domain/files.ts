/**
 * A stored file as every layer sees it: the store keeps it, the workflows run on it, the API answers from it. Types
 * only; the store's repositories (store/types.ts) read and write these.
 */
import type { ErrorBody } from "./errors.js";
import type { FileStatus, Results } from "./result.js";
import type { Selection } from "./selection.js";
import type { WorkflowPlan } from "./workflow-plan.js";

/** The format of the uploaded bytes, judged by content (ingest/sniff.ts). */
export type FileFormat = "pdf" | "png" | "jpeg";

/** A file: its facts and its workflow plan (`workflow` with its typed `options`, checked once at upload). */
export type FileRecord = FileFacts & WorkflowPlan;

export interface FileFacts {
  id: string;
  tenantId: string;
  clientId: string;
  status: FileStatus;
  selection: Selection;
  locale: string | null;
  tags: string | null;
  fileName: string | null;
  type: FileFormat;
  pageCount: number;
  size: number;
  /** Set on sub-documents of a split. */
  parentId: string | null;
  /** The upload's `parentDocId`: the client's reference to another document, kept as given. */
  parentDocId: string | null;
  error: ErrorBody | null;
  uploadedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Processing attempts the file's own processing ended in failure (its thread crashed or threw). */
  attempts: number;
  /** Jobs of the file cut by the end of their process (kill -9, crash): not the file's fault, counted apart. */
  interruptions: number;
}

export interface FileWithResults {
  file: FileRecord;
  /** Present once FINALISED. */
  results: Results | undefined;
}

/** Position after the last file of a page, in the list order (uploadedAt desc, id desc). */
export interface FileCursor {
  uploadedAt: string;
  id: string;
}
