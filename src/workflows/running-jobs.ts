/**
 * The jobs this process is running, by file id, so that deleting a file can stop its job here at once instead of
 * letting it run to the end. Best effort: a job in another process finds its file gone when it finishes and writes
 * nothing (runner.ts).
 */
export class RunningJobs {
  readonly #jobs = new Map<string, AbortController>();

  /** Registers a job; its signal aborts when the file is cancelled. */
  start(fileId: string): AbortSignal {
    const controller = new AbortController();
    this.#jobs.set(fileId, controller);
    return controller.signal;
  }

  end(fileId: string, signal: AbortSignal): void {
    if (this.#jobs.get(fileId)?.signal === signal) this.#jobs.delete(fileId);
  }

  /** Aborts the file's job if it runs in this process. */
  cancel(fileId: string): boolean {
    const controller = this.#jobs.get(fileId);
    controller?.abort(new Error(`file ${fileId} was deleted`));
    return controller !== undefined;
  }
}
