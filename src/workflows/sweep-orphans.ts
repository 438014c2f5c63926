/**
 * Removes what crashes leave in the blob store: partial temporary files of writes cut mid-way, and blobs without a
 * file row (an upload or split child is written blob first, so a crash between the blob and its row, or a deletion
 * whose blob removal failed, leaves one). Only leftovers older than a grace period go: a blob whose upload is still
 * on its way to the insert is younger than that. Runs at start, and periodically where processes run for long
 * beside others (PostgreSQL mode), one sweep at a time.
 */
import type { BlobStore, Store } from "../store/types.js";

/** DOCSIFT_ORPHAN_GRACE_S default: far longer than any upload takes between its blob and its row. */
export const DEFAULT_ORPHAN_GRACE_S = 3600;
/** Blobs checked against the files table per query. */
const BATCH = 500;

export interface OrphanCounts {
  temporary: number;
  blob: number;
}

export interface SweepDeps {
  store: Store;
  blobs: BlobStore;
}

export async function sweepOrphans(deps: SweepDeps, graceMs: number, now = Date.now()): Promise<OrphanCounts> {
  const before = new Date(now - graceMs);
  const temporary = await deps.blobs.removeTemporary(before);
  let blob = 0;
  const removeOrphans = async (ids: string[]): Promise<void> => {
    const kept = new Set(await deps.store.files.existingIds(ids));
    for (const id of ids) {
      if (kept.has(id)) continue;
      await deps.blobs.delete(id);
      blob++;
    }
  };
  let batch: string[] = [];
  for await (const stored of deps.blobs.list()) {
    if (stored.storedAt >= before) continue;
    batch.push(stored.id);
    if (batch.length < BATCH) continue;
    await removeOrphans(batch);
    batch = [];
  }
  await removeOrphans(batch);
  return { temporary, blob };
}

export interface OrphanSweeps {
  /** Stops the periodic sweeps and waits for one in progress (before the store closes). */
  stop(): Promise<void>;
}

export interface OrphanSweepOptions {
  graceMs: number;
  /** Sweep again every grace period after the first (PostgreSQL mode); else once, at start. */
  periodic: boolean;
  onSwept(counts: OrphanCounts): void;
  onError(err: unknown): void;
}

/** Sweeps now, in the background (start-up does not wait for it), then every grace period when periodic. */
export function startOrphanSweeps(deps: SweepDeps, options: OrphanSweepOptions): OrphanSweeps {
  let running: Promise<void> | undefined;
  const sweep = (): void => {
    running ??= sweepOrphans(deps, options.graceMs)
      .then(options.onSwept, options.onError)
      .finally(() => {
        running = undefined;
      });
  };
  sweep();
  const timer = options.periodic ? setInterval(sweep, options.graceMs) : undefined;
  timer?.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
