/**
 * Completion signals across processes: a worker that ends a file's job runs `pg_notify`, and every API process
 * LISTENs on one channel, so a request blocked on GET /result/final wakes wherever the file was processed. Waiters
 * live in an in-process signal; this module only carries the notifications between processes.
 *
 * The LISTEN connection is dedicated and reconnects with backoff when it breaks (a PostgreSQL restart). Notifications
 * sent while it was down are lost, so after every reconnect the files still being waited on are checked in the store
 * and the finished ones woken: a waiter never sleeps past a completion because of an outage.
 */
import { type QueryExecutorProvider, sql } from "kysely";
import pg from "pg";
import { type CompletionSignal, inProcessCompletion } from "./completion.js";
import type { JobStore } from "./job-files.js";

export const COMPLETION_CHANNEL = "docsift_file_done";

export interface PgCompletionOptions {
  /** The same database as the store (DATABASE_URL). */
  url: string;
  /** A connection pool on that database (the store's Kysely instance), for sending notifications. */
  db: QueryExecutorProvider;
  /** Where a reconnected session checks the files still waited on. */
  store: JobStore;
  /** Connection problems of the LISTEN session; it reconnects by itself. */
  onError: (err: Error) => void;
  /** Extra channels to listen on, with their handlers (the queue's "job waiting" wake-up). */
  channels?: Record<string, (payload: string) => void>;
}

export interface PgCompletion extends CompletionSignal {
  /** Sends a notification on an extra channel (fire and forget; errors go to onError). */
  publish(channel: string, payload: string): void;
  close(): Promise<void>;
}

const MAX_BACKOFF_MS = 5000;

export async function startPgCompletion(options: PgCompletionOptions): Promise<PgCompletion> {
  const local = inProcessCompletion();
  const waiting = new Map<string, number>();
  const channels: Record<string, (payload: string) => void> = {
    ...options.channels,
    [COMPLETION_CHANNEL]: (fileId) => local.notify(fileId),
  };
  let client: pg.Client | undefined;
  let closed = false;
  let backoff = 250;
  let retryTimer: NodeJS.Timeout | undefined;

  const listen = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: options.url });
    next.on("notification", (msg) => {
      const handler = channels[msg.channel];
      if (handler && msg.payload !== undefined) handler(msg.payload);
    });
    const lost = (err?: Error): void => {
      if (client !== next) return;
      client = undefined;
      if (err) options.onError(err);
      next.end().catch(() => undefined);
      schedule();
    };
    next.on("error", lost);
    next.on("end", () => lost());
    await next.connect();
    for (const channel of Object.keys(channels)) await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    backoff = 250;
  };

  const schedule = (): void => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      listen().then(recheck, (err: unknown) => {
        options.onError(err instanceof Error ? err : new Error(String(err)));
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        schedule();
      });
    }, backoff);
    retryTimer.unref();
  };

  // Files waited on whose completion may have been missed while the LISTEN session was down.
  const recheck = async (): Promise<void> => {
    const ids = [...waiting.keys()];
    if (ids.length === 0) return;
    try {
      for (const id of await options.store.files.finishedIds(ids)) local.notify(id);
    } catch (err) {
      options.onError(err instanceof Error ? err : new Error(String(err)));
    }
  };

  await listen();

  const publish = (channel: string, payload: string): void => {
    sql`SELECT pg_notify(${channel}, ${payload})`.execute(options.db).catch((err: unknown) => {
      options.onError(err instanceof Error ? err : new Error(String(err)));
    });
  };

  return {
    notify(fileId) {
      // Local waiters at once; other processes (and this one again, harmlessly) through PostgreSQL.
      local.notify(fileId);
      publish(COMPLETION_CHANNEL, fileId);
    },
    async wait(fileId, timeoutMs, signal) {
      waiting.set(fileId, (waiting.get(fileId) ?? 0) + 1);
      try {
        return await local.wait(fileId, timeoutMs, signal);
      } finally {
        const n = (waiting.get(fileId) ?? 1) - 1;
        if (n > 0) waiting.set(fileId, n);
        else waiting.delete(fileId);
      }
    },
    releaseAll: () => local.releaseAll(),
    onNotify: (listener) => local.onNotify(listener),
    publish,
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
