/** The page cache on a real temporary directory: bounded in bytes, least recently used out first, reopened as left. */
import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { PageCache, type PageKey } from "../../src/store/page-cache.js";

const dirs: string[] = [];
after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "docsift-page-cache-"));
  dirs.push(dir);
  return dir;
}

const FILE = "0b6f3a52-5a57-4d1c-9a43-3c3a4f0c2f11";
const key = (page: number): PageKey => ({ fileId: FILE, page, dpi: 150 });
const png = (fill: number): Buffer => Buffer.alloc(400, fill);

test("past its bound the cache drops the least recently used images, from disk too", async () => {
  const dir = await freshDir();
  const cache = await PageCache.open(dir, 1000);
  await cache.put(key(1), png(1));
  await cache.put(key(2), png(2));
  assert.deepEqual(await cache.get(key(1)), png(1));
  await cache.put(key(3), png(3));
  assert.equal(cache.bytes, 800);
  assert.equal(await cache.get(key(2)), undefined, "page 2 was used least recently");
  assert.deepEqual(await cache.get(key(1)), png(1));
  assert.deepEqual(await cache.get(key(3)), png(3));
  assert.deepEqual((await readdir(join(dir, FILE))).sort(), ["1-150.png", "3-150.png"]);
});

test("an image larger than the whole bound is not cached", async () => {
  const cache = await PageCache.open(await freshDir(), 300);
  await cache.put(key(1), png(1));
  assert.equal(await cache.get(key(1)), undefined);
  assert.equal(cache.bytes, 0);
});

test("reopened, the cache serves what it held, drops unfinished writes and applies a smaller bound", async () => {
  const dir = await freshDir();
  const first = await PageCache.open(dir, 10_000);
  await first.put(key(1), png(1));
  await new Promise((r) => setTimeout(r, 20));
  await first.put(key(2), png(2));
  await writeFile(join(dir, FILE, "3-150.png.abc123.tmp"), png(3));

  const again = await PageCache.open(dir, 500);
  assert.equal(again.bytes, 400);
  assert.equal(await again.get(key(1)), undefined, "the older image goes first");
  assert.deepEqual(await again.get(key(2)), png(2));
  assert.deepEqual(await readdir(join(dir, FILE)), ["2-150.png"]);
});

test("an image removed behind the cache's back reads as not cached", async () => {
  const dir = await freshDir();
  const cache = await PageCache.open(dir, 10_000);
  await cache.put(key(1), png(1));
  await rm(join(dir, FILE, "1-150.png"));
  assert.equal(await cache.get(key(1)), undefined);
  assert.equal(cache.bytes, 0);
});
