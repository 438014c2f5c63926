/**
 * Disk full while a blob is written, for real: `docsift serve` runs in its own mount namespace (`unshare`) with a
 * 256 KiB tmpfs mounted over its blob directory, so the kernel refuses the write with ENOSPC part-way through. The
 * upload must answer 503 `unavailable` with Retry-After and leave nothing behind (no temporary file, no partial
 * blob, no row); the server goes on working. The test process sees the namespace's files through /proc/PID/root.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import SQLite from "better-sqlite3";
import sharp from "sharp";
import { type ChildServer, privateMountArgs, startChildServer } from "../helpers/faults.js";
import { invoicePdf, requestJson, upload, uploadForm } from "../helpers/server.js";

const TMPFS_BYTES = 256 * 1024;

/** Every file under `dir` (relative paths), recursively. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

function fileRows(dataDir: string): string[] {
  const db = new SQLite(join(dataDir, "docsift.sqlite"), { readonly: true });
  try {
    return (db.prepare("SELECT id FROM files ORDER BY uploaded_at").all() as { id: string }[]).map((r) => r.id);
  } finally {
    db.close();
  }
}

async function uploadInvoice(server: ChildServer, token: string, n: number) {
  const pdf = await invoicePdf({ number: `DF-${n}`, date: "2024-05-06", total: `${n}.00` });
  return upload(server, token, uploadForm(pdf, { fieldSet: "invoice" }));
}

const mount = privateMountArgs();
let server: ChildServer | undefined;

after(async () => {
  await server?.stop();
});

test("disk full while writing a blob: 503 + Retry-After, nothing half-written, the server carries on", {
  timeout: 120_000,
  skip: "reason" in mount ? `cannot mount a private tmpfs here: ${mount.reason}` : false,
}, async () => {
  if (!("args" in mount)) return;
  const dataDir = await mkdtemp(join(tmpdir(), "docsift-diskfull-"));
  const blobDir = join(dataDir, "blobs");
  const live = await startChildServer({
    dataDir,
    prefix: [
      "unshare",
      ...mount.args,
      "sh",
      "-c",
      `mkdir -p "$1" && mount -t tmpfs -o size=${TMPFS_BYTES},mode=0700 tmpfs "$1" && shift && exec "$@"`,
      "sh",
      blobDir,
    ],
  });
  server = live;

  const pid = live.child.pid;
  assert.ok(pid, "the server has a pid");
  // The server's view of its blob directory: the tmpfs exists only in its mount namespace.
  const blobsSeenByServer = `/proc/${pid}/root${blobDir}`;
  const token = await live.token();

  const first = await uploadInvoice(live, token, 1);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const firstId = String(first.body.fileId);
  assert.deepEqual(await listFiles(blobsSeenByServer), [join(firstId.slice(0, 2), firstId)]);

  // An image of noise does not compress: its PNG is larger than the whole tmpfs, so the write stops half-way.
  const side = 320;
  const noise = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
  assert.ok(noise.byteLength > TMPFS_BYTES, `the image (${noise.byteLength} bytes) must not fit`);
  const full = await upload(server, token, uploadForm(noise, { fieldSet: "invoice" }, { fileName: "noise.png" }));
  assert.equal(full.status, 503, JSON.stringify(full.body));
  assert.equal(full.body.error, "unavailable");
  assert.match(String(full.body.message), /not stored.*storage is full/);
  assert.ok(!String(full.body.message).includes(dataDir), "no internals (paths) in the message");
  assert.equal(full.headers.get("retry-after"), "60");

  // Nothing half-written: the blob directory holds the first blob only (no temporary file), one row in the store.
  assert.deepEqual(await listFiles(blobsSeenByServer), [join(firstId.slice(0, 2), firstId)]);
  assert.deepEqual(fileRows(dataDir), [firstId]);

  // The server carries on: a small upload still fits and finalises, and so does the first.
  const third = await uploadInvoice(live, token, 3);
  assert.equal(third.status, 200, JSON.stringify(third.body));
  for (const fileId of [firstId, String(third.body.fileId)]) {
    const res = await requestJson(`${live.url}/result/final/${fileId}`, { token });
    assert.equal(res.body.status, "FINALISED", JSON.stringify(res.body));
  }
  assert.equal(live.child.exitCode, null, "the server is still running");
});
