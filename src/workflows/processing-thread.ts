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
import type { PageEvent, ProcessingResult, ProcessingTask } from "./processing-tasks.js";

type Reply = WorkerReply<ProcessingResult, PageEvent>;

async function perform(task: ProcessingTask, post: (reply: Reply) => void): Promise<ProcessingResult> {
  if (task.kind === "render") {
    const png = await renderPage(task.bytes, task.pageNum);
    return { kind: "render", png: new Uint8Array(png) };
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
      const transfer = result.kind === "render" ? [result.png.buffer as ArrayBuffer] : [];
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
