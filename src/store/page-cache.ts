/**
 * Rendered page images on the local disk, `<dir>/<fileId>/<page>-<dpi>.png`, so a page is rendered once however
 * often it is shown. Bounded in total bytes: past the bound the least recently used images go first. Each file is
 * written under a temporary name and renamed, so a reader (or a crash) never sees half an image.
 *
 * The index of what is cached lives in memory, rebuilt from the directory at start (by modification time). Each
 * process keeps its own cache: with PostgreSQL several API processes each render a page once.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

export interface PageKey {
  fileId: string;
  page: number;
  dpi: number;
}

const TEMP_SUFFIX = ".tmp";

function relativePath(key: PageKey): string {
  return join(key.fileId, `${key.page}-${key.dpi}.png`);
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === "ENOENT";
}

export class PageCache {
  /** Cached images (path under the directory -> bytes), least recently used first. */
  readonly #entries = new Map<string, number>();
  #bytes = 0;

  private constructor(
    readonly dir: string,
    readonly maxBytes: number,
  ) {}

  /** Opens the cache in `dir`, indexing what an earlier run left (and dropping its unfinished writes). */
  static async open(dir: string, maxBytes: number): Promise<PageCache> {
    const cache = new PageCache(dir, maxBytes);
    await mkdir(dir, { recursive: true });
    const found: { path: string; size: number; mtimeMs: number }[] = [];
    for (const fileDir of await readdir(dir)) {
      const names = await readdir(join(dir, fileDir)).catch(() => []);
      for (const name of names) {
        const path = join(fileDir, name);
        if (name.endsWith(TEMP_SUFFIX)) await rm(join(dir, path), { force: true });
        else {
          const info = await stat(join(dir, path));
          found.push({ path, size: info.size, mtimeMs: info.mtimeMs });
        }
      }
    }
    found.sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const entry of found) cache.#add(entry.path, entry.size);
    await cache.#evict();
    return cache;
  }

  /** Bytes of the cached images. */
  get bytes(): number {
    return this.#bytes;
  }

  async get(key: PageKey): Promise<Buffer | undefined> {
    const path = relativePath(key);
    const size = this.#entries.get(path);
    if (size === undefined) return undefined;
    this.#touch(path, size);
    try {
      return await readFile(join(this.dir, path));
    } catch (err) {
      // Removed behind our back (another process's eviction, an operator): simply not cached any more.
      if (!isMissing(err)) throw err;
      this.#remove(path);
      return undefined;
    }
  }

  async put(key: PageKey, png: Uint8Array): Promise<void> {
    if (png.byteLength > this.maxBytes) return;
    const path = relativePath(key);
    const target = join(this.dir, path);
    const temp = `${target}.${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`;
    await mkdir(dirname(target), { recursive: true });
    try {
      await writeFile(temp, png);
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    this.#remove(path);
    this.#add(path, png.byteLength);
    await this.#evict();
  }

  /** Drops every cached image of a file (deleted: its pages must not stay on disk). */
  async forget(fileId: string): Promise<void> {
    const prefix = `${fileId}/`;
    for (const path of [...this.#entries.keys()]) if (path.startsWith(prefix)) this.#remove(path);
    await rm(join(this.dir, fileId), { recursive: true, force: true });
  }

  #add(path: string, size: number): void {
    this.#entries.set(path, size);
    this.#bytes += size;
  }

  #remove(path: string): void {
    const size = this.#entries.get(path);
    if (size === undefined) return;
    this.#entries.delete(path);
    this.#bytes -= size;
  }

  #touch(path: string, size: number): void {
    this.#entries.delete(path);
    this.#entries.set(path, size);
  }

  async #evict(): Promise<void> {
    while (this.#bytes > this.maxBytes) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) return;
      this.#remove(oldest);
      await rm(join(this.dir, oldest), { force: true });
      // The file's directory goes with its last image; one still holding others stays.
      await rmdir(dirname(join(this.dir, oldest))).catch(() => undefined);
    }
  }
}
