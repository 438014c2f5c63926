/**
 * A fixed pool of worker threads, one task per thread at a time, so CPU-heavy processing never blocks the event loop.
 * A thread that dies mid-task (uncaught error, process.exit) rejects that task with WorkerCrashError and is replaced;
 * the caller decides whether to retry. Two failures are the document's own and are not worth a retry, so they reject
 * with a DocsiftError: a task over its time limit (`timeout`) and a thread over its heap limit (`unusable_document`).
 *
 * Admission and cancellation: with `maxQueued`, a task that would wait behind that many others is refused at once
 * with PoolFullError, so a flood is answered "busy" instead of piling up; a task's AbortSignal drops it while it
 * waits, or cuts it while it runs. `runPrepared` builds a task only when a thread is free for it, so waiting tasks
 * hold no input (e.g. a whole file).
 *
 * Cutting a task (time limit, crash, close, abort) also ends the processes it started: a terminated thread does not take
 * its child processes with it. The thread reports each child's pid as it starts and ends (`child` replies); a cut
 * first posts POOL_ABORT so the thread can stop its children itself, and after a grace period kills whatever it
 * reported as still running, then terminates the thread.
 *
 * Under tsx (tests, `npm run docsift`) the script is a .ts file: the thread then loads tsx itself, so the same code
 * path runs from dist/ and from source.
 */
import { Worker } from "node:worker_threads";
import { DocsiftError, ERROR_STATUS, type ErrorCode } from "../../domain/errors.js";
import { killAndAwait } from "./kill-processes.js";

/** Messages a pool thread posts back; `event`s are progress reports for the task in flight. */
export type WorkerReply<TResult, TEvent> =
  | { kind: "event"; event: TEvent }
  | { kind: "child"; pid: number; running: boolean }
  | { kind: "done"; result: TResult }
  | { kind: "error"; code: string | null; message: string };

/** Posted to a thread (instead of a task object) when its task is cut: stop work and child processes now. */
export const POOL_ABORT = "docsift:abort-task";

/** `maxQueued` tasks already wait for a thread: the caller should answer "busy, retry later". */
export class PoolFullError extends Error {
  constructor(readonly maxQueued: number) {
    super(`every thread is busy and ${maxQueued} task(s) are waiting`);
    this.name = "PoolFullError";
  }
}

export class WorkerCrashError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WorkerCrashError";
  }
}

const RESPAWN_DELAY_MS = 1000;
const DEFAULT_ABORT_GRACE_MS = 2000;

/** What is posted to a thread: the task and the buffers moved (not copied) with it. */
export interface PreparedTask<TTask> {
  task: TTask;
  transfer?: ArrayBuffer[];
}

interface PendingTask<TTask, TResult> {
  /** The task, or how to build it once a thread is free for it. */
  input: PreparedTask<TTask> | (() => Promise<PreparedTask<TTask>>);
  /** Set once the thread has the task: before, ending it needs no cut, the thread is idle. */
  posted: boolean;
  resolve: (value: TResult) => void;
  reject: (err: Error) => void;
}

interface Slot<TTask, TResult> {
  worker: Worker;
  current: PendingTask<TTask, TResult> | undefined;
  timer: NodeJS.Timeout | undefined;
  /** False until the thread runs: a task's time limit must not count a slow thread start (e.g. on a loaded machine). */
  online: boolean;
  /** Pids of the child processes the thread reported as running. */
  children: Set<number>;
  /** Set while a cut waits for the thread to stop its task: called on its answer, crash or exit. */
  onStopped: (() => void) | undefined;
}

export interface WorkerPoolOptions<TEvent> {
  /** URL of the thread's module, resolved next to the caller (.js from dist, .ts under tsx). */
  script: URL;
  size: number;
  onEvent?: (event: TEvent) => void;
  /** A task running longer is cut: it rejects with DocsiftError `timeout` and its thread is replaced. */
  taskTimeoutMs?: number;
  /** V8 heap limit of each thread (old generation); a thread over it dies and its task rejects. */
  maxHeapMb?: number;
  /** How long a cut task's thread may take to stop its children itself before they are killed; default 2 s. */
  abortGraceMs?: number;
  /** Tasks that may wait for a thread; one more is refused with PoolFullError. Default: no bound. */
  maxQueued?: number;
  /** Structured-clonable settings every thread starts with (node:worker_threads' workerData). */
  workerData?: unknown;
}

function isErrorCode(code: string | null): code is ErrorCode {
  return code !== null && code in ERROR_STATUS;
}

/**
 * From dist/ the thread runs the .js module directly. Under tsx, Node 20 does not apply tsx's loader hooks inside
 * worker threads (neither via execArgv --import nor module.register), so the thread loads the .ts module through
 * tsx's own `tsImport`.
 */
function startThread(script: URL, maxHeapMb: number | undefined, workerData: unknown): Worker {
  const resourceLimits = maxHeapMb ? { maxOldGenerationSizeMb: maxHeapMb } : undefined;
  if (!script.pathname.endsWith(".ts")) return new Worker(script, { resourceLimits, workerData });
  const api = import.meta.resolve("tsx/esm/api");
  const code = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(script.href)}, ${JSON.stringify(script.href)}));`;
  return new Worker(code, { eval: true, resourceLimits, workerData });
}

function abortReason(signal: AbortSignal | undefined): Error {
  return signal?.reason instanceof Error ? signal.reason : new Error("the task was cancelled");
}

function isOutOfMemory(err: Error): boolean {
  return (err as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY";
}

export class WorkerPool<TTask, TResult, TEvent = never> {
  readonly size: number;
  private readonly slots = new Set<Slot<TTask, TResult>>();
  private readonly backlog: PendingTask<TTask, TResult>[] = [];
  /** Cuts and crashes in progress: close() waits for them so no child process outlives the pool. */
  private readonly cuts = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions<TEvent>) {
    this.size = Math.max(1, Math.floor(options.size));
    for (let i = 0; i < this.size; i++) this.spawn();
  }

  /** `signal` cancels the task: waiting, it is dropped; running, it is cut like a task over its time limit. */
  run(task: TTask, transfer: ArrayBuffer[] = [], signal?: AbortSignal): Promise<TResult> {
    return this.enqueue({ task, transfer }, signal);
  }

  /**
   * Like `run`, but `prepare` builds the task only when a thread is free for it (its time limit starts after), so a
   * waiting task holds nothing; `prepare` failing rejects the task and frees the thread.
   */
  runPrepared(prepare: () => Promise<PreparedTask<TTask>>, signal?: AbortSignal): Promise<TResult> {
    return this.enqueue(prepare, signal);
  }

  private enqueue(input: PendingTask<TTask, TResult>["input"], signal: AbortSignal | undefined): Promise<TResult> {
    if (this.closed) return Promise.reject(new DocsiftError("shutting_down", "The service is shutting down."));
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const { maxQueued } = this.options;
    if (maxQueued !== undefined && this.backlog.length >= maxQueued) {
      return Promise.reject(new PoolFullError(maxQueued));
    }
    return new Promise<TResult>((resolve, reject) => {
      const pending: PendingTask<TTask, TResult> = { input, posted: false, resolve, reject };
      const onAbort = (): void => {
        const waiting = this.backlog.indexOf(pending);
        if (waiting >= 0) {
          this.backlog.splice(waiting, 1);
          pending.reject(abortReason(signal));
          return;
        }
        for (const slot of this.slots) if (slot.current === pending) this.cut(slot, abortReason(signal));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      pending.resolve = (value) => {
        signal?.removeEventListener("abort", onAbort);
        resolve(value);
      };
      pending.reject = (err) => {
        signal?.removeEventListener("abort", onAbort);
        reject(err);
      };
      this.backlog.push(pending);
      this.dispatch();
    });
  }

  /** Tasks running or waiting for a thread. */
  get busy(): number {
    let running = 0;
    for (const slot of this.slots) if (slot.current) running++;
    return running + this.backlog.length;
  }

  /** Rejects waiting tasks, cuts running ones (their children are killed) and ends every thread. */
  async close(): Promise<void> {
    this.closed = true;
    const shuttingDown = (): DocsiftError => new DocsiftError("shutting_down", "The service is shutting down.");
    for (const pending of this.backlog.splice(0)) pending.reject(shuttingDown());
    for (const slot of this.slots) if (slot.current) this.cut(slot, shuttingDown());
    await Promise.all([...this.slots].map((slot) => slot.worker.terminate()));
    this.slots.clear();
    await Promise.all(this.cuts);
  }

  private spawn(): void {
    const worker = startThread(this.options.script, this.options.maxHeapMb, this.options.workerData);
    // An idle thread must not keep the process alive; a busy one does (see dispatch and onReply).
    worker.unref();
    const slot: Slot<TTask, TResult> = {
      worker,
      current: undefined,
      timer: undefined,
      online: false,
      children: new Set(),
      onStopped: undefined,
    };
    this.slots.add(slot);
    worker.once("online", () => {
      slot.online = true;
      this.dispatch();
    });
    worker.on("message", (reply: WorkerReply<TResult, TEvent>) => this.onReply(slot, reply));
    worker.on("error", (err) => this.onCrash(slot, this.crashError(err)));
    worker.on("exit", (code) => this.onCrash(slot, new WorkerCrashError(`worker thread exited with code ${code}`)));
  }

  private crashError(err: Error): Error {
    if (!isOutOfMemory(err)) return new WorkerCrashError(`worker thread failed: ${err.message}`, { cause: err });
    const limit = this.options.maxHeapMb ? ` (${this.options.maxHeapMb} MB)` : "";
    return new DocsiftError(
      "unusable_document",
      `Processing the file needed more memory than a job may use${limit} and was stopped.`,
      { cause: err },
    );
  }

  private onReply(slot: Slot<TTask, TResult>, reply: WorkerReply<TResult, TEvent>): void {
    if (reply.kind === "child") {
      if (reply.running) slot.children.add(reply.pid);
      else slot.children.delete(reply.pid);
      return;
    }
    if (slot.onStopped) {
      // A cut task's answer only tells that the thread has stopped; the cut decides the outcome.
      if (reply.kind !== "event") slot.onStopped();
      return;
    }
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

  private onCrash(slot: Slot<TTask, TResult>, err: Error): void {
    slot.onStopped?.();
    if (!this.slots.delete(slot)) return;
    const hadTask = slot.current !== undefined;
    clearTimeout(slot.timer);
    const pending = slot.current;
    slot.current = undefined;
    // The task rejects once its children have ended, so a caller that sees the rejection finds none left running.
    const ended = killAndAwait(slot.children).then(() => pending?.reject(err));
    this.cuts.add(ended);
    void ended.finally(() => this.cuts.delete(ended));
    void slot.worker.terminate();
    if (this.closed) return;
    // A thread that dies with no task running failed to start (e.g. its module does not load): respawning at once
    // would spin; wait a little instead.
    if (hadTask) this.spawn();
    else setTimeout(() => this.closed || this.spawn(), RESPAWN_DELAY_MS).unref();
  }

  /**
   * Ends the slot's task with `err`: asks the thread to stop, gives it the grace period, kills the children it
   * still reports, terminates it and puts a fresh thread in its place. The task rejects once that is done, so a
   * caller that sees the rejection knows no process of the task is left running.
   */
  private cut(slot: Slot<TTask, TResult>, err: Error): void {
    const pending = slot.current;
    if (!pending) return;
    if (!pending.posted) {
      this.release(slot, pending, err);
      return;
    }
    if (!this.slots.delete(slot)) return;
    clearTimeout(slot.timer);
    const done = (async () => {
      await new Promise<void>((resolve) => {
        const grace = setTimeout(resolve, this.options.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS);
        slot.onStopped = () => {
          clearTimeout(grace);
          resolve();
        };
        slot.worker.postMessage(POOL_ABORT);
      });
      await killAndAwait(slot.children);
      await slot.worker.terminate();
      slot.current = undefined;
      pending.reject(err);
      if (!this.closed) this.spawn();
    })();
    this.cuts.add(done);
    void done.finally(() => this.cuts.delete(done));
  }

  /** Ends a task its thread never received (still being prepared): the thread stays and takes the next task. */
  private release(slot: Slot<TTask, TResult>, pending: PendingTask<TTask, TResult>, err: Error): void {
    if (slot.current !== pending) return;
    slot.current = undefined;
    slot.worker.unref();
    pending.reject(err);
    this.dispatch();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.current || !slot.online) continue;
      const next = this.backlog.shift();
      if (!next) return;
      slot.current = next;
      slot.worker.ref();
      const { input } = next;
      if (typeof input !== "function") this.post(slot, next, input);
      else {
        input().then(
          (prepared) => this.post(slot, next, prepared),
          (err: unknown) => this.release(slot, next, err instanceof Error ? err : new Error(String(err))),
        );
      }
    }
  }

  /** Hands the task to its thread, unless it was cancelled (or its thread lost) while being prepared. */
  private post(slot: Slot<TTask, TResult>, pending: PendingTask<TTask, TResult>, prepared: PreparedTask<TTask>): void {
    if (slot.current !== pending || !this.slots.has(slot)) return;
    pending.posted = true;
    const timeout = this.options.taskTimeoutMs;
    if (timeout) {
      slot.timer = setTimeout(
        () =>
          this.cut(
            slot,
            new DocsiftError(
              "timeout",
              `Processing was still running after ${timeout / 1000} s, the time limit of a job, and was stopped.`,
            ),
          ),
        timeout,
      );
    }
    slot.worker.postMessage(prepared.task, prepared.transfer ?? []);
  }
}
