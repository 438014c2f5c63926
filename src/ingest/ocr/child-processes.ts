/**
 * Registry of the OCR child processes this thread has running. A processing thread forwards each start and end to
 * its pool, which kills what is left when it has to cut a task: terminating a worker thread does not end the
 * processes it spawned, so a tesseract stuck on a page would otherwise outlive its job.
 */
import type { ChildProcess } from "node:child_process";

export type ChildListener = (pid: number, running: boolean) => void;

const listeners = new Set<ChildListener>();

/** Calls `listener` as OCR children start and end; returns the unsubscribe function. */
export function onChildProcess(listener: ChildListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Reports `child` as running now and as ended once it has exited. */
export function trackChild(child: ChildProcess): void {
  const pid = child.pid;
  if (pid === undefined) return; // never started (spawn error): nothing to kill
  for (const listener of listeners) listener(pid, true);
  child.once("exit", () => {
    for (const listener of listeners) listener(pid, false);
  });
}
