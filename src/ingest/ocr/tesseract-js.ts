import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { createWorker, OEM, type PSM, type Worker, type WorkerParams } from "tesseract.js";
import { DocsiftError } from "../../domain/errors.js";
import { DEFAULT_PAGE_TIMEOUT_MS, type OcrEngine, type OcrResult, PAGE_SEGMENTATION_MODE } from "./engine.js";
import { FIRST_PASS_LANGUAGE, readInPageLanguage, SECOND_PASS_LANGUAGES } from "./languages.js";
import { parseTesseractTsv } from "./tsv.js";

const require = createRequire(import.meta.url);

/**
 * The models npm ships (`@tesseract.js-data/<code>`, one package per language), by code: English is a dependency,
 * the others are read when installed.
 */
function packagedModels(): Map<string, string> {
  const found = new Map<string, string>();
  for (const code of [FIRST_PASS_LANGUAGE, ...SECOND_PASS_LANGUAGES]) {
    try {
      const { langPath } = require(`@tesseract.js-data/${code}`) as { langPath: string };
      found.set(code, join(langPath, `${code}.traineddata.gz`));
    } catch {
      // Not installed: pages in that language keep their English reading.
    }
  }
  return found;
}

const MODELS = packagedModels();
const INSTALLED: Promise<ReadonlySet<string>> = Promise.resolve(new Set(MODELS.keys()));

let modelFolder: string | undefined;

/**
 * tesseract.js reads every model of a worker from one folder while npm puts each language in its own package: a
 * folder of links to the packaged files, made once per thread and removed when it exits. With a local folder and no
 * cache, tesseract.js never fetches.
 */
function modelsFolder(): string {
  if (modelFolder) return modelFolder;
  const folder = mkdtempSync(join(tmpdir(), "docsift-tessdata-"));
  process.once("exit", () => rmSync(folder, { recursive: true, force: true }));
  for (const [code, file] of MODELS) symlinkSync(file, join(folder, `${code}.traineddata.gz`));
  modelFolder = folder;
  return folder;
}

/**
 * Workers take 1-2 s to start (WebAssembly + model), so they are kept between pages and documents and closed after
 * this long idle; callers that want to exit sooner (a CLI) call close().
 */
const IDLE_CLOSE_MS = 30_000;

/**
 * What every worker reads with, as the CLI (tesseract-cli.ts, tesseractArgs): one page block, and no second reading
 * of doubtful lines as white on black, which cost the CLI 6 % of its CPU on receipt photos for no field.
 * (Re-initialising a worker for other models resets them.)
 */
const WORKER_PARAMETERS: Readonly<Partial<WorkerParams>> = {
  tessedit_pageseg_mode: PAGE_SEGMENTATION_MODE as PSM,
  tessedit_do_invert: "0",
};

/** The `-l` value each worker is initialised with: a page in another language re-initialises the one reading it. */
const workerModels = new WeakMap<Worker, string>();

async function startWorker(): Promise<Worker> {
  const worker = await createWorker(FIRST_PASS_LANGUAGE, OEM.LSTM_ONLY, {
    langPath: modelsFolder(),
    cacheMethod: "none",
    gzip: true,
    // Without a handler tesseract.js also throws a failed job's error from its message listener (an uncaught
    // exception that ends the thread) besides rejecting the job's promise, which is where it is handled.
    errorHandler: () => undefined,
  });
  await worker.setParameters(WORKER_PARAMETERS);
  workerModels.set(worker, FIRST_PASS_LANGUAGE);
  return worker;
}

/** `worker` reading with `models`, re-initialised when it last read with others (WORKER_PARAMETERS stay). */
async function useModels(worker: Worker, models: string): Promise<void> {
  if (workerModels.get(worker) === models) return;
  await worker.reinitialize(models, OEM.LSTM_ONLY);
  await worker.setParameters(WORKER_PARAMETERS);
  workerModels.set(worker, models);
}

/**
 * tesseract.js (WebAssembly in worker threads): the fallback when the tesseract binary is absent, 1.6-2x slower.
 * At most one worker per core; a page over its time limit has its worker terminated (the only way to stop it).
 * Pages in another language are read twice, as with the CLI (languages.ts), with the models npm ships.
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

  const read = async (image: Buffer, models: string, signal?: AbortSignal): Promise<OcrResult> => {
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
      const reading = useModels(worker, models).then(() => worker.recognize(image, {}, { tsv: true, text: false }));
      const result = await Promise.race([reading, stopped]);
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

  const recognise = (image: Buffer, signal?: AbortSignal): Promise<OcrResult> =>
    readInPageLanguage(
      (models) => read(image, models, signal),
      () => INSTALLED,
    );

  return { name: "tesseract-js", recognise, close: closeIdle };
}
