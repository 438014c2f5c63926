/**
 * The webhook delivery queue's worker loop. The queue is the outbox table (store/kysely/webhook-repository.ts), shared
 * by every process of an installation: this loop claims due deliveries (leased, so processes never attempt the same
 * one at once), runs up to `concurrency` attempts, and sleeps until it is woken (this process wrote events, or an
 * attempt ended: the next event of that file may go) or the next delivery falls due, polling at least every
 * `maxIdleMs` for what other processes wrote. Knowing nothing of HTTP or the store, it takes both as functions.
 */

export interface DeliveryLoopOptions<T> {
  concurrency: number;
  /** Claims up to `limit` due items for this process. */
  claim(limit: number): Promise<T[]>;
  /** One attempt; its outcome is the attempt's business. A throw is reported and the item's lease runs out. */
  attempt(item: T): Promise<void>;
  /** Ms until the next item falls due (<= 0: now), or undefined when none waits. */
  nextDueIn(): Promise<number | undefined>;
  /** Longest sleep: how soon items written by other processes are seen. */
  maxIdleMs: number;
  onError(err: unknown): void;
}

export interface DeliveryLoop {
  /** Something may be due now. */
  wake(): void;
  /** Stops claiming and waits for the attempts under way. */
  stop(): Promise<void>;
}

/** Shortest sleep when items are due but none could be claimed (another process holds the head of their order). */
const MIN_IDLE_MS = 50;

export function startDeliveryLoop<T>(options: DeliveryLoopOptions<T>): DeliveryLoop {
  const inflight = new Set<Promise<void>>();
  let stopped = false;
  let woken = false;
  let sleeping: { timer: NodeJS.Timeout; resolve: () => void } | undefined;

  const wake = (): void => {
    woken = true;
    if (sleeping) {
      clearTimeout(sleeping.timer);
      sleeping.resolve();
      sleeping = undefined;
    }
  };
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        sleeping = undefined;
        resolve();
      }, ms);
      // Pending deliveries are in the store: the loop alone must not keep a process alive.
      timer.unref();
      sleeping = { timer, resolve };
    });

  const start = (item: T): void => {
    const run = options
      .attempt(item)
      .catch(options.onError)
      .finally(() => {
        inflight.delete(run);
        wake();
      });
    inflight.add(run);
  };

  const loop = async (): Promise<void> => {
    while (!stopped) {
      woken = false;
      const room = options.concurrency - inflight.size;
      let claimed = 0;
      let wait = options.maxIdleMs;
      try {
        // A claim is a write: with attempts under way it waits until half the slots are free, so a backlog is
        // claimed in batches rather than one write per finished attempt (each finishing attempt wakes the loop).
        if (room >= Math.ceil(options.concurrency / 2) || (room > 0 && inflight.size === 0)) {
          const items = await options.claim(room);
          claimed = items.length;
          for (const item of items) start(item);
          if (claimed === room) continue;
          const due = await options.nextDueIn();
          if (due !== undefined) wait = Math.min(wait, Math.max(MIN_IDLE_MS, due));
        }
      } catch (err) {
        options.onError(err);
      }
      if (!woken && !stopped) await sleep(wait);
    }
  };
  const running = loop();

  return {
    wake,
    async stop() {
      stopped = true;
      wake();
      await running;
      await Promise.allSettled([...inflight]);
    },
  };
}
