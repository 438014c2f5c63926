/**
 * A fixed pool of worker threads, one task per thread at a time, so CPU-heavy processing never blocks the event loop.
 * A thread that dies mid-task (uncaught error, out of memory, process.exit) rejects that task with WorkerCrashError
 * and is replaced; the caller decides whether to retry.
 *
 * Under tsx (tests, `npm run docsift`) the script is a .ts file: the thread then loads tsx itself, so the same code
 * path runs from dist/ and from source.
 */
import { Worker } from "node:worker_threads";
import { DocsiftError, ERROR_STATUS, type ErrorCode } from "../domain/errors.js";

/** Messages a pool thread posts back; `event`s are progress reports for the task in flight. */
export type WorkerReply<TResult, TEvent> =
  | { kind: "event"; event: TEvent }
  | { kind: "done"; result: TResult }
  | { kind: "error"; code: string | null; message: string };

export class WorkerCrashError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WorkerCrashError";
  }
}

const RESPAWN_DELAY_MS = 1000;

interface PendingTask<TTask, TResult> {
  task: TTask;
  transfer: ArrayBuffer[];
  resolve: (value: TResult) => void;
  reject: (err: Error) => void;
}

interface Slot<TTask, TResult> {
  worker: Worker;
  current: PendingTask<TTask, TResult> | undefined;
  timer: NodeJS.Timeout | undefined;
  /** False until the thread runs: a task's time limit must not count a slow thread start (e.g. on a loaded machine). */
  online: boolean;
}

export interface WorkerPoolOptions<TEvent> {
  /** URL of the thread's module, resolved next to the caller (.js from dist, .ts under tsx). */
  script: URL;
  size: number;
  onEvent?: (event: TEvent) => void;
  /** A task running longer is treated as a crash: its thread is terminated and replaced. */
  taskTimeoutMs?: number;
}

function isErrorCode(code: string | null): code is ErrorCode {
  return code !== null && code in ERROR_STATUS;
}

/**
 * From dist/ the thread runs the .js module directly. Under tsx, Node 20 does not apply tsx's loader hooks inside
 * worker threads (neither via execArgv --import nor module.register), so the thread loads the .ts module through
 * tsx's own `tsImport`.
 */
function startThread(script: URL): Worker {
  if (!script.pathname.endsWith(".ts")) return new Worker(script);
  const api = import.meta.resolve("tsx/esm/api");
  const code = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(script.href)}, ${JSON.stringify(script.href)}));`;
  return new Worker(code, { eval: true });
}

export class WorkerPool<TTask, TResult, TEvent = never> {
  readonly size: number;
  private readonly slots = new Set<Slot<TTask, TResult>>();
  private readonly backlog: PendingTask<TTask, TResult>[] = [];
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions<TEvent>) {
    this.size = Math.max(1, Math.floor(options.size));
    for (let i = 0; i < this.size; i++) this.spawn();
  }

  run(task: TTask, transfer: ArrayBuffer[] = []): Promise<TResult> {
    if (this.closed) return Promise.reject(new DocsiftError("shutting_down", "The service is shutting down."));
    return new Promise((resolve, reject) => {
      this.backlog.push({ task, transfer, resolve, reject });
      this.dispatch();
    });
  }

  /** Tasks running or waiting for a thread. */
  get busy(): number {
    let running = 0;
    for (const slot of this.slots) if (slot.current) running++;
    return running + this.backlog.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.backlog.splice(0)) {
      pending.reject(new DocsiftError("shutting_down", "The service is shutting down."));
    }
    await Promise.all([...this.slots].map((slot) => slot.worker.terminate()));
    this.slots.clear();
  }

  private spawn(): void {
    const worker = startThread(this.options.script);
    // An idle thread must not keep the process alive; a busy one does (see dispatch and onReply).
    worker.unref();
    const slot: Slot<TTask, TResult> = { worker, current: undefined, timer: undefined, online: false };
    this.slots.add(slot);
    worker.once("online", () => {
      slot.online = true;
      this.dispatch();
    });
    worker.on("message", (reply: WorkerReply<TResult, TEvent>) => this.onReply(slot, reply));
    worker.on("error", (err) =>
      this.onCrash(slot, new WorkerCrashError(`worker thread failed: ${err.message}`, { cause: err })),
    );
    worker.on("exit", (code) => this.onCrash(slot, new WorkerCrashError(`worker thread exited with code ${code}`)));
  }

  private onReply(slot: Slot<TTask, TResult>, reply: WorkerReply<TResult, TEvent>): void {
    const current = slot.current;
    if (!current) return;
    if (reply.kind === "event") {
      this.options.onEvent?.(reply.event);
      return;
    }
    slot.current = undefined;
    clearTimeout(slot.timer);
    slot.worker.unref();
    if (reply.kind === "done") current.resolve(reply.result);
    else if (isErrorCode(reply.code)) current.reject(new DocsiftError(reply.code, reply.message));
    else current.reject(new Error(reply.message));
    this.dispatch();
  }

  private onCrash(slot: Slot<TTask, TResult>, err: WorkerCrashError): void {
    if (!this.slots.delete(slot)) return;
    const hadTask = slot.current !== undefined;
    clearTimeout(slot.timer);
    slot.current?.reject(err);
    slot.current = undefined;
    void slot.worker.terminate();
    if (this.closed) return;
    // A thread that dies with no task running failed to start (e.g. its module does not load): respawning at once
    // would spin; wait a little instead.
    if (hadTask) this.spawn();
    else setTimeout(() => this.closed || this.spawn(), RESPAWN_DELAY_MS).unref();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.current || !slot.online) continue;
      const next = this.backlog.shift();
      if (!next) return;
      slot.current = next;
      const timeout = this.options.taskTimeoutMs;
      if (timeout) {
        slot.timer = setTimeout(
          () => this.onCrash(slot, new WorkerCrashError(`task still running after ${timeout} ms`)),
          timeout,
        );
      }
      slot.worker.ref();
      slot.worker.postMessage(next.task, next.transfer);
    }
  }
}
