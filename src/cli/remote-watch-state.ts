/**
 * The memory of `docsift watch`: which files of the folder were uploaded (with their fileId) and which are done.
 * Kept in the folder itself and replaced atomically (write a temporary file, then rename), so a crash or kill
 * leaves either the old state or the new one, never half of one.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import { UsageError } from "./args.js";

export const STATE_FILE = ".docsift-watch.json";

export interface WatchEntry {
  /** Size and mtime of the version that was uploaded: a file changed since then is uploaded again. */
  size: number;
  mtimeMs: number;
  fileId?: string;
  uploadedAt?: string;
  /** UPLOADED: waiting for the result; FINALISED or FAILED: `<name>.json` and the summary line are written. */
  status: "UPLOADED" | "FINALISED" | "FAILED";
}

export interface WatchState {
  version: 1;
  files: Record<string, WatchEntry>;
}

export async function loadState(path: string): Promise<WatchState> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, files: {} };
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const files = (parsed as { files?: unknown } | undefined)?.files;
  if (typeof files !== "object" || files === null) {
    // Starting afresh would upload every file again: let a person decide.
    throw new UsageError(`${path} is not a docsift watch state; move it away to start afresh.`);
  }
  return { version: 1, files: files as Record<string, WatchEntry> };
}

/** Writes `text` to `path` atomically: readers and restarts see the old or the new content, never a mix. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text, { flush: true });
  await rename(temporary, path);
}

/** Saves states one after another, so two saves never race on the temporary file. */
export function stateSaver(path: string): (state: WatchState) => Promise<void> {
  let last: Promise<void> = Promise.resolve();
  return (state) => {
    const text = `${JSON.stringify(state, null, 2)}\n`;
    last = last.catch(() => undefined).then(() => writeFileAtomic(path, text));
    return last;
  };
}
