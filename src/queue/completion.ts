/**
 * Completion signals: a result request waits here for its file's workflows to end, woken by the job runner's
 * `notify` (no polling). In-process today; the PostgreSQL queue (issue 7) delivers the same signal via LISTEN/NOTIFY.
 */
import { EventEmitter } from "node:events";

export interface CompletionSignal {
  notify(fileId: string): void;
  /**
   * Resolves true when `fileId` completes, false when the timeout passes, `signal` aborts or the service shuts down.
   * The listener is registered before this returns, so a caller may check the store afterwards without a gap.
   */
  wait(fileId: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /** Wakes every waiter (shutdown): they answer with the file's current status. */
  releaseAll(): void;
  /**
   * Calls `listener` with the id of every file notified from now on (in PostgreSQL mode: by any process), e.g. to
   * drop what is cached about it: a finished file is notified again only when it is deleted. Returns the unsubscribe.
   */
  onNotify(listener: (fileId: string) => void): () => void;
}

const RELEASE = Symbol("release");
const ANY = Symbol("any");

export function inProcessCompletion(): CompletionSignal {
  const emitter = new EventEmitter();
  // One listener per waiting request: there is no sensible cap.
  emitter.setMaxListeners(0);
  return {
    notify: (fileId) => {
      emitter.emit(fileId);
      emitter.emit(ANY, fileId);
    },
    wait(fileId, timeoutMs, signal) {
      return new Promise((resolve) => {
        const finish = (completed: boolean): void => {
          clearTimeout(timer);
          emitter.off(fileId, onDone);
          emitter.off(RELEASE, onRelease);
          signal?.removeEventListener("abort", onAbort);
          resolve(completed);
        };
        const onDone = (): void => finish(true);
        const onRelease = (): void => finish(false);
        const onAbort = (): void => finish(false);
        const timer = setTimeout(() => finish(false), Math.max(0, timeoutMs));
        emitter.on(fileId, onDone);
        emitter.on(RELEASE, onRelease);
        if (signal?.aborted) finish(false);
        else signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
    releaseAll: () => {
      emitter.emit(RELEASE);
    },
    onNotify(listener) {
      emitter.on(ANY, listener);
      return () => emitter.off(ANY, listener);
    },
  };
}
