/**
 * Retention: files uploaded more than DOCSIFT_RETENTION_DAYS ago are deleted in the background, exactly as
 * DELETE /files/:fileId deletes them (a split parent takes its sub-documents along). Every API process sweeps; in
 * PostgreSQL mode several sweeping at once remove each file once (the delete is one conditional transaction).
 */
import { deleteFile, type FileDeps } from "./files.js";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Files removed per store query; a large backlog is worked off in batches. */
const BATCH = 100;

/**
 * Deletes every file uploaded before `now - days`; returns how many (parents and other top-level files; a split
 * parent's sub-documents go with it uncounted). Files whose blob could not be removed are reported through onBlobFailure.
 */
export async function sweepExpired(
  deps: FileDeps,
  days: number,
  now: number,
  onBlobFailure: (fileId: string, err: unknown) => void,
): Promise<number> {
  const before = new Date(now - days * DAY_MS).toISOString();
  let removed = 0;
  for (;;) {
    const expired = await deps.store.files.listExpired(before, BATCH);
    for (const file of expired) {
      const { deleted, blobFailures } = await deleteFile(deps, file.tenantId, file.id);
      if (deleted) removed++;
      for (const err of blobFailures) onBlobFailure(file.id, err);
    }
    if (expired.length < BATCH) return removed;
  }
}

export interface RetentionOptions {
  days: number;
  /** Called after each sweep with the number of files it deleted. */
  onSwept: (count: number) => void;
  onError: (err: unknown) => void;
  onBlobFailure: (fileId: string, err: unknown) => void;
}

/**
 * Sweeps at once, then every retention/24 (at least every hour, at most every second), so a file outlives its
 * retention by at most about 4 %. Stop waits for a sweep in progress.
 */
export function startRetention(deps: FileDeps, options: RetentionOptions): { stop(): Promise<void> } {
  const intervalMs = Math.min(60 * 60 * 1000, Math.max(1000, (options.days * DAY_MS) / 24));
  let running: Promise<void> | undefined;
  let stopped = false;
  const sweep = (): void => {
    if (stopped || running) return;
    running = sweepExpired(deps, options.days, Date.now(), options.onBlobFailure)
      .then(options.onSwept, options.onError)
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  sweep();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
