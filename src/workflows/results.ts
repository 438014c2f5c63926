/**
 * Step 3 of the flow of one upload: a file's result, read at once or waited for. The wait is on the completion signal
 * (never a polling loop) and ends when the file's workflows end, the wait's bound passes, the caller goes away or the
 * service shuts down; the file is then answered as it stands.
 */
import { DocsiftError } from "../domain/errors.js";
import type { FileRecord, FileWithResults } from "../domain/files.js";
import type { CompletionSignal } from "../queue/completion.js";
import type { Store } from "../store/types.js";

export interface ResultDeps {
  store: Store;
  completion: CompletionSignal;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** FINALISED or FAILED: a finished file never changes again (until it is deleted). */
export const isFinished = (file: FileRecord): boolean => file.status === "FINALISED" || file.status === "FAILED";

/** The tenant's file with its results; unknown, malformed and other tenants' ids all read as the same 404. */
export async function readResult(
  deps: Pick<ResultDeps, "store">,
  tenantId: string,
  fileId: string,
): Promise<FileWithResults> {
  const found = UUID.test(fileId) ? await deps.store.files.getWithResults(tenantId, fileId.toLowerCase()) : undefined;
  if (!found) throw new DocsiftError("not_found", "No file with this id.");
  return found;
}

/**
 * The file once it is finished, or as it stands when `waitMs` passes or `signal` aborts first. It subscribes, then
 * reads: a completion between the caller's last read and the subscription is not missed.
 */
export async function awaitResult(
  deps: ResultDeps,
  tenantId: string,
  fileId: string,
  waitMs: number,
  signal: AbortSignal,
): Promise<FileWithResults> {
  const woken = deps.completion.wait(fileId.toLowerCase(), waitMs, signal);
  const found = await readResult(deps, tenantId, fileId);
  if (!isFinished(found.file) && (await woken)) return readResult(deps, tenantId, fileId);
  return found;
}

/**
 * Calls `listener` with the id of every file finished or deleted from now on (by any process); a finished file is
 * notified again only when it is deleted, so a cached answer for it must go. Returns the unsubscribe.
 */
export function onFileChanged(deps: Pick<ResultDeps, "completion">, listener: (fileId: string) => void): () => void {
  return deps.completion.onNotify(listener);
}
