/**
 * Body of a processing thread: ingest + extract (and page rendering, and the upload-time inspection) off the main
 * event loop. Errors travel back as
 * `{code, message}`; a DocsiftError keeps its code, anything else is reported without internals. The OCR processes
 * a task starts are reported to the pool as they start and end, and POOL_ABORT stops the task in flight (its OCR
 * processes are killed by ingest) so the pool can cut a job without leaving a process behind.
 */
import { parentPort, workerData } from "node:worker_threads";
import { resolveFields } from "../../catalog/lookup.js";
import { DocsiftError } from "../../domain/errors.js";
import { applyEInvoice } from "../../einvoice/index.js";
import { boxesAsUploaded } from "../../extract/boxes-as-uploaded.js";
import { extractResult } from "../../extract/index.js";
import { ingest, inspect, onChildProcess, readAttachments, renderPage } from "../../ingest/index.js";
import type { OcrEngine } from "../../ingest/ocr/engine.js";
import { createDefaultOcrEngine, defaultOcrEngine } from "../../ingest/ocr/factory.js";
import { detectDocuments, sliceFile } from "../../split/index.js";
import { withRawText } from "../field-detail.js";
import type {
  PageEvent,
  ProcessingResult,
  ProcessingTask,
  ProcessingThreadData,
  SplitChild,
} from "./processing-tasks.js";
import { POOL_ABORT, type WorkerReply } from "./worker-pool.js";

type Reply = WorkerReply<ProcessingResult, PageEvent>;

/** This thread's OCR engine, made on first use from the settings its pool started it with (else the default). */
let engine: OcrEngine | undefined;
function ocrEngine(): OcrEngine {
  const data: ProcessingThreadData | undefined = workerData ?? undefined;
  engine ??= data ? createDefaultOcrEngine(data.ocr) : defaultOcrEngine();
  return engine;
}

async function perform(
  task: ProcessingTask,
  post: (reply: Reply) => void,
  signal: AbortSignal,
): Promise<ProcessingResult> {
  if (task.kind === "inspect") return { kind: "inspect", ...(await inspect(task.bytes)) };
  if (task.kind === "render") {
    const png = await renderPage(task.bytes, task.pageNum, { dpi: task.dpi });
    return { kind: "render", png: new Uint8Array(png) };
  }
  const options = {
    ocr: ocrEngine(),
    concurrency: task.pageConcurrency,
    onPage: ({ source, ms }: PageEvent) => post({ kind: "event", event: { source, ms } }),
    signal,
  };
  if (task.kind === "split") {
    const document = await ingest(task.bytes, options);
    const children: SplitChild[] = [];
    for (const segment of detectDocuments(document)) {
      signal.throwIfAborted();
      const slice = await sliceFile(task.bytes, segment.pages);
      children.push({ pages: segment.pages, bytes: slice.bytes, type: slice.type });
    }
    return { kind: "split", children };
  }
  const fields = resolveFields(task.selection);
  const document = await ingest(task.bytes, options);
  const locale = task.locale ?? undefined;
  const attachments = await readAttachments(task.bytes);
  const extracted = applyEInvoice(document, attachments, extractResult(document, fields, { locale }), { locale });
  // Pages ingest could not read come first: they are why fields may be missing.
  const warnings = [...(document.warnings ?? []), ...extracted.warnings];
  // Extraction reads turned pages upright; the result's boxes are on the pages as uploaded.
  return { kind: "predict", fields: withRawText(document, boxesAsUploaded(document, extracted.fields)), warnings };
}

const port = parentPort;
if (!port) throw new Error("processing-thread must run as a worker thread");
const post = (reply: Reply): void => port.postMessage(reply);
onChildProcess((pid, running) => post({ kind: "child", pid, running }));

/** The task in flight (one at a time per thread). */
let running: AbortController | undefined;

port.on("message", (message: ProcessingTask | typeof POOL_ABORT) => {
  if (message === POOL_ABORT) {
    running?.abort(new DocsiftError("timeout", "The task was stopped by its pool."));
    return;
  }
  const controller = new AbortController();
  running = controller;
  perform(message, post, controller.signal)
    .then(
      (result) => {
        const transfer =
          result.kind === "render"
            ? [result.png.buffer as ArrayBuffer]
            : result.kind === "split"
              ? uniqueBuffers(result.children.map((c) => c.bytes.buffer as ArrayBuffer))
              : [];
        port.postMessage({ kind: "done", result } satisfies Reply, transfer);
      },
      (err: unknown) => {
        const reply: Reply =
          err instanceof DocsiftError
            ? { kind: "error", code: err.code, message: err.message }
            : { kind: "error", code: null, message: err instanceof Error ? err.message : String(err) };
        post(reply);
      },
    )
    .finally(() => {
      if (running === controller) running = undefined;
    });
});

/** A buffer can be transferred once: an image child is the task's own bytes, shared by no other child. */
function uniqueBuffers(buffers: ArrayBuffer[]): ArrayBuffer[] {
  return [...new Set(buffers)];
}
