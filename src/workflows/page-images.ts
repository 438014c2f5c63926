/**
 * Page images (GET /result/image/:fileId) without letting them starve extraction or exhaust memory:
 * - they render in their own small pool of threads (DOCSIFT_RENDER_THREADS, default 1), never in extraction's;
 * - at most DOCSIFT_RENDER_QUEUE renders wait for it; one more is refused 503 `unavailable` with Retry-After;
 * - a waiting render holds nothing: the file is read only when a thread is free for it;
 * - identical requests at the same time (file, page, size) share one render; it is cancelled (dropped while waiting,
 *   its thread cut while running) once every request waiting on it has gone;
 * - rendered pages are kept on disk (DOCSIFT_PAGE_CACHE_MB, default 256; 0 = no cache), so a page renders once.
 */
import { join } from "node:path";
import { DocsiftError } from "../domain/errors.js";
import { PageCache, type PageKey } from "../store/page-cache.js";
import type { BlobStore, FileRecord, Store } from "../store/types.js";
import { PROCESSING_THREAD_URL, type ProcessingPool, type TaskLimits } from "./threads/processing-tasks.js";
import { PoolFullError, WorkerPool } from "./threads/worker-pool.js";

/** Screen resolution: the image is for people (review console, result images), not for OCR. */
export const PAGE_IMAGE_DPI = 150;
/** A full render queue drains at about a render a second; a retry a few seconds later has a fair chance. */
export const RENDER_QUEUE_FULL_RETRY_AFTER_SECONDS = 5;
/** A render starts no child process, so a cut render's thread need not be given time to stop any. */
const RENDER_ABORT_GRACE_MS = 0;

export interface PageImageSettings {
  /** Render threads (DOCSIFT_RENDER_THREADS). */
  threads: number;
  /** Renders that may wait for a thread (DOCSIFT_RENDER_QUEUE). */
  maxQueued: number;
  /** Bound of the on-disk cache in MB (DOCSIFT_PAGE_CACHE_MB); 0 = no cache. */
  cacheMb: number;
}

export const DEFAULT_PAGE_IMAGE_SETTINGS: PageImageSettings = { threads: 1, maxQueued: 16, cacheMb: 256 };

/** The render pool: processing threads with extraction's time and memory limits, and a bounded queue. */
export function createRenderPool(settings: PageImageSettings, limits: TaskLimits): ProcessingPool {
  return new WorkerPool({
    script: PROCESSING_THREAD_URL,
    size: settings.threads,
    maxQueued: settings.maxQueued,
    abortGraceMs: RENDER_ABORT_GRACE_MS,
    ...limits,
  });
}

/** What page images report, for metrics and logs. */
export interface PageImageObserver {
  /** A render reached a thread (an abandoned or refused one never does). */
  rendered(): void;
  cacheHit(): void;
  /** Refused: the render queue was full. */
  rejected(): void;
  /** The image was rendered and sent, but could not be cached. */
  cacheFailed(err: unknown): void;
}

/** The page cache in the data directory's `page-cache/`, or none when its bound is 0. */
export async function openPageCache(dataDir: string, settings: PageImageSettings): Promise<PageCache | undefined> {
  const bytes = settings.cacheMb * 1024 * 1024;
  return bytes > 0 ? PageCache.open(join(dataDir, "page-cache"), bytes) : undefined;
}

export interface PageImageDeps {
  pool: ProcessingPool;
  blobs: BlobStore;
  cache: PageCache | undefined;
  observer: PageImageObserver;
}

export interface PageImages {
  /**
   * PNG of page `page` of `file` (the caller checked the tenant and the page number). `signal` aborts when the
   * requester has gone: the render is cancelled unless another request waits on it.
   */
  render(file: FileRecord, page: number, signal: AbortSignal): Promise<Buffer>;
}

/** One render in progress and the requests waiting on it. */
interface Flight {
  png: Promise<Buffer>;
  waiters: number;
  cancel: AbortController;
}

export function pageImages(deps: PageImageDeps): PageImages {
  const { pool, blobs, cache, observer } = deps;
  const flights = new Map<string, Flight>();

  const refusal = (err: unknown): never => {
    if (!(err instanceof PoolFullError)) throw err;
    observer.rejected();
    throw new DocsiftError(
      "unavailable",
      `Too many page images are being rendered (${err.maxQueued} waiting); retry in a few seconds.`,
      { retryAfterSeconds: RENDER_QUEUE_FULL_RETRY_AFTER_SECONDS },
    );
  };

  const start = (id: string, key: PageKey): Flight => {
    const cancel = new AbortController();
    const png = pool
      .runPrepared(async () => {
        observer.rendered();
        const bytes = new Uint8Array(await blobs.get(key.fileId));
        return {
          task: { kind: "render", bytes, pageNum: key.page, dpi: key.dpi },
          transfer: [bytes.buffer as ArrayBuffer],
        };
      }, cancel.signal)
      .then(async (result) => {
        if (result.kind !== "render") throw new Error("processing thread answered a different task");
        const image = Buffer.from(result.png);
        await cache?.put(key, image).catch((err: unknown) => observer.cacheFailed(err));
        return image;
      }, refusal)
      .finally(() => {
        if (flights.get(id) === flight) flights.delete(id);
      });
    const flight: Flight = { png, waiters: 0, cancel };
    flights.set(id, flight);
    return flight;
  };

  /** Waits on `flight` until it ends or `signal` aborts; the last waiter to leave cancels the render. */
  const join = (id: string, flight: Flight, signal: AbortSignal): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      flight.waiters++;
      const leave = (): void => {
        flight.waiters--;
        if (flight.waiters === 0) {
          // A request arriving from now on starts afresh instead of joining a render being cancelled.
          if (flights.get(id) === flight) flights.delete(id);
          flight.cancel.abort(signal.reason);
        }
        reject(signal.reason);
      };
      if (signal.aborted) {
        leave();
        return;
      }
      signal.addEventListener("abort", leave, { once: true });
      flight.png.then(
        (png) => {
          signal.removeEventListener("abort", leave);
          resolve(png);
        },
        (err: unknown) => {
          signal.removeEventListener("abort", leave);
          reject(err);
        },
      );
    });

  return {
    async render(file, page, signal) {
      const key: PageKey = { fileId: file.id, page, dpi: PAGE_IMAGE_DPI };
      const cached = await cache?.get(key);
      if (cached) {
        observer.cacheHit();
        return cached;
      }
      const id = `${key.fileId}/${key.page}/${key.dpi}`;
      return join(id, flights.get(id) ?? start(id, key), signal);
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * PNG of page `page` (1-based) of the tenant's file; another tenant's, an unknown or a malformed id is 404 like a
 * page past the file's end. `signal` aborts when the requester has gone (see PageImages.render).
 */
export async function renderPage(
  deps: { store: Store; images: PageImages },
  tenantId: string,
  fileId: string,
  page: number,
  signal: AbortSignal,
): Promise<Buffer> {
  const file = UUID.test(fileId) ? await deps.store.files.get(tenantId, fileId.toLowerCase()) : undefined;
  if (!file) throw new DocsiftError("not_found", "No file with this id.");
  if (page > file.pageCount) {
    throw new DocsiftError("not_found", `Page ${page} does not exist; the file has ${file.pageCount} page(s).`);
  }
  return deps.images.render(file, page, signal);
}
