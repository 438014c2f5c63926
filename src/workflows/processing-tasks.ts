/** What the main thread asks a processing thread to do, and what comes back. Plain, structured-clone-able data. */
import type { Selection } from "../catalog/lookup.js";
import type { DocumentType } from "../document/model.js";
import type { Field, ResultWarning } from "../domain/result.js";
import type { WorkerPool } from "../queue/worker-pool.js";

export type ProcessingTask =
  | {
      kind: "predict";
      bytes: Uint8Array;
      selection: Selection;
      locale: string | null;
      /** Pages of this file processed at once: cores / pool size, so the pool as a whole does not oversubscribe. */
      pageConcurrency: number;
    }
  | { kind: "render"; bytes: Uint8Array; pageNum: number; dpi?: number }
  /** Split: ingest, find the sub-documents, cut each out (a PDF of its pages, or the image itself). */
  | { kind: "split"; bytes: Uint8Array; pageConcurrency: number }
  /** The upload-time checks (type, size, page count, bombs), run by the API's own small inspect pool. */
  | { kind: "inspect"; bytes: Uint8Array };

/** One sub-document found by a split: its pages in the parent (1-based) and its own file. */
export interface SplitChild {
  pages: number[];
  bytes: Uint8Array;
  type: "pdf" | "png" | "jpeg";
}

export type ProcessingResult =
  | { kind: "predict"; fields: Field[]; warnings: ResultWarning[] }
  | { kind: "render"; png: Uint8Array }
  | { kind: "split"; children: SplitChild[] }
  | { kind: "inspect"; type: DocumentType; pageCount: number };

/** Progress of one page of ingest, for the pages and OCR-seconds metrics. */
export interface PageEvent {
  source: "text" | "ocr";
  ms: number;
}

export type ProcessingPool = WorkerPool<ProcessingTask, ProcessingResult, PageEvent>;

const DEFAULT_JOB_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_JOB_HEAP_MB = 1024;

function positiveNumber(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!(Number.isFinite(value) && value > 0)) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

/**
 * Limits of one processing task, from the environment: `DOCSIFT_JOB_TIMEOUT_MS` (default 5 min; sixteen OCR pages
 * take well under one, so a job past it hangs and would hang again) and `DOCSIFT_JOB_MEMORY_MB`, the V8 heap of a
 * processing thread (default 1024; the dev corpora and bench:hostile run within it, while a page of millions of
 * operators does not). Spread into the pool's options.
 */
export function processingLimits(env: NodeJS.ProcessEnv): { taskTimeoutMs: number; maxHeapMb: number } {
  return {
    taskTimeoutMs: positiveNumber(env.DOCSIFT_JOB_TIMEOUT_MS, DEFAULT_JOB_TIMEOUT_MS, "DOCSIFT_JOB_TIMEOUT_MS"),
    maxHeapMb: positiveNumber(env.DOCSIFT_JOB_MEMORY_MB, DEFAULT_JOB_HEAP_MB, "DOCSIFT_JOB_MEMORY_MB"),
  };
}

const DEFAULT_INSPECT_TIMEOUT_MS = 20_000;
const DEFAULT_INSPECT_HEAP_MB = 256;

/**
 * Limits of one upload inspection, from the environment: `DOCSIFT_INSPECT_TIMEOUT_MS` (default 20 s; an honest
 * 20 MB PDF is inspected in well under a second, a file still being parsed after 20 s is a parser attack) and
 * `DOCSIFT_INSPECT_MEMORY_MB`, the V8 heap of an inspect thread (default 256: inspection reads the object
 * structure, never a page's content). Spread into the inspect pool's options.
 */
export function inspectLimits(env: NodeJS.ProcessEnv): { taskTimeoutMs: number; maxHeapMb: number } {
  return {
    taskTimeoutMs: positiveNumber(
      env.DOCSIFT_INSPECT_TIMEOUT_MS,
      DEFAULT_INSPECT_TIMEOUT_MS,
      "DOCSIFT_INSPECT_TIMEOUT_MS",
    ),
    maxHeapMb: positiveNumber(env.DOCSIFT_INSPECT_MEMORY_MB, DEFAULT_INSPECT_HEAP_MB, "DOCSIFT_INSPECT_MEMORY_MB"),
  };
}

/** The thread's module sits next to this one: .js in dist/, .ts under tsx. */
export const PROCESSING_THREAD_URL = new URL(
  `./processing-thread${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`,
  import.meta.url,
);
