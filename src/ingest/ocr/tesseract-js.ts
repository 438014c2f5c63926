import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { createWorker, OEM, type PSM, type Worker } from "tesseract.js";
import { DocsiftError } from "../../domain/errors.js";
import { DEFAULT_PAGE_TIMEOUT_MS, type OcrEngine, type OcrResult, PAGE_SEGMENTATION_MODE } from "./engine.js";
import { parseTesseractTsv } from "./tsv.js";

/** The bundled English model on local disk: with a local langPath and no cache, tesseract.js never fetches. */
const ENG_DATA_PATH: string = (createRequire(import.meta.url)("@tesseract.js-data/eng") as { langPath: string })
  .langPath;
/**
 * Workers take 1-2 s to start (WebAssembly + model), so they are kept between pages and documents and closed after
 * this long idle; callers that want to exit sooner (a CLI) call close().
 */
const IDLE_CLOSE_MS = 30_000;

async function startWorker(): Promise<Worker> {
  const worker = await createWorker("eng", OEM.LSTM_ONLY, {
    langPath: ENG_DATA_PATH,
    cacheMethod: "none",
    gzip: true,
    // Without a handler tesseract.js also throws a failed job's error from its message listener (an uncaught
    // exception that ends the thread) besides rejecting the job's promise, which is where it is handled.
    errorHandler: () => undefined,
  });
  await worker.setParameters({ tessedit_pageseg_mode: PAGE_SEGMENTATION_MODE as PSM });
  return worker;
}

/**
 * tesseract.js (WebAssembly in worker threads): the fallback when the tesseract binary is absent, 1.6-2x slower.
 * At most one worker per core; a page over its time limit has its worker terminated (the only way to stop it).
 */
export function createTesseractJs(pageTimeoutMs = DEFAULT_PAGE_TIMEOUT_MS): OcrEngine {
  const maxWorkers = availableParallelism();
  const idle: Worker[] = [];
  const queue: ((worker: Promise<Worker>) => void)[] = [];
  let live = 0;
  let idleTimer: NodeJS.Timeout | undefined;

  const closeIdle = async (): Promise<void> => {
    clearTimeout(idleTimer);
    const closing = idle.splice(0);
    live -= closing.length;
    await Promise.all(closing.map((w) => w.terminate().catch(() => undefined)));
  };

  /** Starts a worker in a slot already counted in `live`; the slot is freed if the start fails. */
  const spawnInSlot = (): Promise<Worker> =>
    startWorker().catch((err: unknown) => {
      live--;
      throw new DocsiftError("ocr_failed", "Could not start the tesseract.js OCR engine.", { cause: err });
    });

  const acquire = (): Promise<Worker> => {
    clearTimeout(idleTimer);
    const ready = idle.pop();
    if (ready) return Promise.resolve(ready);
    if (live < maxWorkers) {
      live++;
      return spawnInSlot();
    }
    return new Promise((resolve) => queue.push(resolve));
  };

  const release = (worker: Worker): void => {
    const next = queue.shift();
    if (next) {
      next(Promise.resolve(worker));
      return;
    }
    idle.push(worker);
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void closeIdle(), IDLE_CLOSE_MS);
  };

  /** A terminated worker's slot goes to the next waiter as a fresh worker. */
  const discard = (worker: Worker): void => {
    void worker.terminate().catch(() => undefined);
    const next = queue.shift();
    if (next) next(spawnInSlot());
    else live--;
  };

  const recognise = async (image: Buffer, signal?: AbortSignal): Promise<OcrResult> => {
    signal?.throwIfAborted();
    const worker = await acquire();
    const timeoutMs = pageTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new DocsiftError("timeout", `OCR of a page took longer than ${timeoutMs} ms and was stopped.`)),
        timeoutMs,
      );
      onAbort = () => reject(signal?.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    try {
      const result = await Promise.race([worker.recognize(image, {}, { tsv: true, text: false }), stopped]);
      release(worker);
      return parseTesseractTsv(result.data.tsv ?? "");
    } catch (err) {
      discard(worker);
      throw err instanceof DocsiftError || signal?.aborted
        ? err
        : new DocsiftError("ocr_failed", "tesseract.js could not read the page.", { cause: err });
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
    }
  };

  return { name: "tesseract-js", recognise, close: closeIdle };
}
