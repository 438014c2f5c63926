/** What the main thread asks a processing thread to do, and what comes back. Plain, structured-clone-able data. */
import type { Selection } from "../../catalog/lookup.js";
import type { FileFormat } from "../../document/model.js";
import type { ExtractedField, ResultWarning } from "../../domain/result.js";
import type { OcrSettings } from "../../ingest/ocr/factory.js";
import type { WorkerPool } from "./worker-pool.js";

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
  | { kind: "predict"; fields: ExtractedField[]; warnings: ResultWarning[] }
  | { kind: "render"; png: Uint8Array }
  | { kind: "split"; children: SplitChild[] }
  | { kind: "inspect"; type: FileFormat; pageCount: number };

/** Progress of one page of ingest, for the pages and OCR-seconds metrics. */
export interface PageEvent {
  source: "text" | "ocr";
  ms: number;
}

export type ProcessingPool = WorkerPool<ProcessingTask, ProcessingResult, PageEvent>;

/** What a processing pool starts each of its threads with (WorkerPool's workerData). */
export interface ProcessingThreadData {
  ocr: OcrSettings;
}

/** Time and V8 heap limit of one task in a pool's threads (runtime/config.ts: DOCSIFT_JOB_*, DOCSIFT_INSPECT_*). */
export interface TaskLimits {
  taskTimeoutMs: number;
  maxHeapMb: number;
}

/** The thread's module sits next to this one: .js in dist/, .ts under tsx. */
export const PROCESSING_THREAD_URL = new URL(
  `./processing-thread${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`,
  import.meta.url,
);
