/**
 * Body of a processing thread: ingest + extract (and page rendering) off the main event loop. Errors travel back as
 * `{code, message}`; a DocsiftError keeps its code, anything else is reported without internals.
 */
import { parentPort } from "node:worker_threads";
import { resolveFields } from "../catalog/lookup.js";
import { DocsiftError } from "../domain/errors.js";
import { extract } from "../extract/index.js";
import { ingest, renderPage } from "../ingest/index.js";
import type { WorkerReply } from "../queue/worker-pool.js";
import { detectDocuments, slicePdf } from "../split/index.js";
import type { PageEvent, ProcessingResult, ProcessingTask, SplitChild } from "./processing-tasks.js";

type Reply = WorkerReply<ProcessingResult, PageEvent>;

async function perform(task: ProcessingTask, post: (reply: Reply) => void): Promise<ProcessingResult> {
  if (task.kind === "render") {
    const png = await renderPage(task.bytes, task.pageNum);
    return { kind: "render", png: new Uint8Array(png) };
  }
  if (task.kind === "split") {
    const document = await ingest(task.bytes, {
      concurrency: task.pageConcurrency,
      onPage: ({ source, ms }) => post({ kind: "event", event: { source, ms } }),
    });
    const children: SplitChild[] = [];
    for (const segment of detectDocuments(document)) {
      const slice = await slicePdf(task.bytes, segment.pages);
      children.push({ pages: segment.pages, bytes: slice.bytes, type: slice.type });
    }
    return { kind: "split", children };
  }
  const fields = resolveFields(task.selection);
  const document = await ingest(task.bytes, {
    concurrency: task.pageConcurrency,
    onPage: ({ source, ms }) => post({ kind: "event", event: { source, ms } }),
  });
  return { kind: "predict", fields: extract(document, fields, { locale: task.locale ?? undefined }) };
}

const port = parentPort;
if (!port) throw new Error("processing-thread must run as a worker thread");
port.on("message", (task: ProcessingTask) => {
  const post = (reply: Reply): void => port.postMessage(reply);
  perform(task, post).then(
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
  );
});

/** A buffer can be transferred once: an image child is the task's own bytes, shared by no other child. */
function uniqueBuffers(buffers: ArrayBuffer[]): ArrayBuffer[] {
  return [...new Set(buffers)];
}
