/**
 * Blobs as files under `<root>/ab/<uuid>`. A write goes to a temporary name, is fsync'd, renamed into place and the
 * directory fsync'd, so after `put` resolves the bytes survive a crash and a reader never sees half a file. A failed
 * `put` (disk full, I/O error) leaves nothing behind under that id; a process killed mid-write leaves its temporary
 * file, which `removeTemporary` finds by name (`<id>.<random>.tmp`) and age.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { BlobStore, StoredBlob } from "./types.js";

const SAFE_ID = /^[0-9a-zA-Z-]{8,64}$/;
const TEMPORARY = /^[0-9a-zA-Z-]{8,64}\.[0-9a-f]+\.tmp$/;

export function fsBlobStore(root: string): BlobStore {
  const pathOf = (id: string): { dir: string; file: string } => {
    // Ids come from our own UUIDs; the check keeps a bug elsewhere from turning into a path traversal.
    if (!SAFE_ID.test(id)) throw new Error(`invalid blob id ${JSON.stringify(id)}`);
    const dir = join(root, id.slice(0, 2));
    return { dir, file: join(dir, id) };
  };
  return {
    async put(id, bytes) {
      const { dir, file } = pathOf(id);
      await mkdir(dir, { recursive: true });
      const tmp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
      let renamed = false;
      try {
        await writeDurably(tmp, bytes);
        await rename(tmp, file);
        renamed = true;
        await syncDir(dir);
      } catch (err) {
        // A full disk (ENOSPC), quota or I/O error mid-write: leave neither half a temporary file (space the next
        // write needs) nor a renamed file whose directory entry may not be durable. Best effort: the write error is
        // the one that matters.
        await rm(renamed ? file : tmp, { force: true }).catch(() => undefined);
        throw err;
      }
    },
    get: (id) => readFile(pathOf(id).file),
    async delete(id) {
      await rm(pathOf(id).file, { force: true });
    },
    async *list() {
      for (const { name, path } of await entries(root)) {
        if (!SAFE_ID.test(name)) continue;
        const stats = await stat(path).catch(() => undefined);
        // Gone since the directory was read (deleted meanwhile): nothing to report.
        if (stats) yield { id: name, storedAt: stats.mtime } satisfies StoredBlob;
      }
    },
    async removeTemporary(before) {
      let removed = 0;
      for (const { name, path } of await entries(root)) {
        if (!TEMPORARY.test(name)) continue;
        const stats = await stat(path).catch(() => undefined);
        if (!stats || stats.mtime >= before) continue;
        await rm(path, { force: true });
        removed++;
      }
      return removed;
    },
  };
}

/** The files of every `<root>/ab/` directory (none before the first write). */
async function entries(root: string): Promise<{ name: string; path: string }[]> {
  const dirs = await readdir(root).catch(() => [] as string[]);
  const found: { name: string; path: string }[] = [];
  for (const dir of dirs) {
    const names = await readdir(join(root, dir)).catch(() => [] as string[]);
    for (const name of names) found.push({ name, path: join(root, dir, name) });
  }
  return found;
}

async function writeDurably(path: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(path, "wx", 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
