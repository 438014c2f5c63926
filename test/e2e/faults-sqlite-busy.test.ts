/**
 * SQLite busy, for real: while `docsift serve` (a child process) works, this process takes the database's write lock
 * (BEGIN EXCLUSIVE over better-sqlite3 on the same file) and holds it past the server's busy_timeout. An upload then
 * answers 503 `unavailable` with Retry-After and leaves no blob and no row; a job whose finalise hit the lock is
 * retried, not lost; once the lock is released everything works again.
 */
import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { after, test } from "node:test";
import SQLite from "better-sqlite3";
import { type ChildServer, startChildServer } from "../helpers/faults.js";
import { makeImagePdf, scanAsJpeg } from "../helpers/pdf-fixtures.js";
import { invoicePdf, requestJson, upload, uploadForm } from "../helpers/server.js";

async function blobFiles(dataDir: string): Promise<string[]> {
  const root = join(dataDir, "blobs");
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort();
}

async function statusOf(server: ChildServer, token: string, fileId: string): Promise<string> {
  const res = await requestJson(`${server.url}/result/final/${fileId}?timeout=0`, { token });
  return String(res.body.status);
}

let server: ChildServer | undefined;
let locker: SQLite.Database | undefined;

after(async () => {
  if (locker?.inTransaction) locker.exec("ROLLBACK");
  locker?.close();
  await server?.stop();
});

test("SQLite locked past busy_timeout: 503 + Retry-After, nothing half-written, the job is retried", {
  timeout: 180_000,
}, async (t) => {
  server = await startChildServer();
  const token = await server.token();
  const invoice = (n: number) => invoicePdf({ number: `BZ-${n}`, date: "2024-06-07", total: `${n}.00` });

  // A four-page scan: seconds of OCR, so the job is still running when the lock is taken.
  const page = await scanAsJpeg(await invoice(1));
  const scan = await makeImagePdf([page, page, page, page]);
  const job = await upload(server, token, uploadForm(scan, { fieldSet: "invoice" }));
  assert.equal(job.status, 200, JSON.stringify(job.body));
  const jobId = String(job.body.fileId);
  for (let status = await statusOf(server, token, jobId); status !== "IN PROGRESS"; ) {
    assert.equal(status, "RECEIVED", "the job finished before the lock could be taken");
    await new Promise((r) => setTimeout(r, 50));
    status = await statusOf(server, token, jobId);
  }

  locker = new SQLite(join(server.dataDir, "docsift.sqlite"));
  locker.pragma("busy_timeout = 10000");
  locker.exec("BEGIN EXCLUSIVE");
  // WAL: the server still reads while the lock is held, so the job is seen still running.
  assert.equal(await statusOf(server, token, jobId), "IN PROGRESS", "the lock was taken before the job finished");
  const blobsBefore = await blobFiles(server.dataDir);

  const refused = await upload(server, token, uploadForm(await invoice(2), { fieldSet: "invoice" }));
  assert.equal(refused.status, 503, JSON.stringify(refused.body));
  assert.equal(refused.body.error, "unavailable");
  assert.match(String(refused.body.message), /not stored.*database is busy/);
  assert.equal(refused.headers.get("retry-after"), "2");
  // Nothing half-written: the blob written before the insert failed is gone, and there is no row.
  assert.deepEqual(await blobFiles(server.dataDir), blobsBefore);
  const rows = locker.prepare("SELECT id FROM files").all() as { id: string }[];
  assert.deepEqual(
    rows.map((r) => r.id),
    [jobId],
  );

  // The job's own write (finalise) meets the lock too: the server reports the failed attempt; then the lock goes.
  const failedAttempt = await server.waitForLog((l) => l.fileId === jobId && (l.level ?? 0) >= 40);
  t.diagnostic(`while locked, the server logged: ${String(failedAttempt.msg)}`);
  locker.exec("ROLLBACK");
  locker.close();
  locker = undefined;

  const final = await requestJson(`${server.url}/result/final/${jobId}`, { token });
  assert.equal(final.body.status, "FINALISED", `${JSON.stringify(final.body)} after ${JSON.stringify(failedAttempt)}`);
  const again = await upload(server, token, uploadForm(await invoice(3), { fieldSet: "invoice" }));
  assert.equal(again.status, 200, JSON.stringify(again.body));
  const done = await requestJson(`${server.url}/result/final/${String(again.body.fileId)}`, { token });
  assert.equal(done.body.status, "FINALISED", JSON.stringify(done.body));
  assert.equal(server.child.exitCode, null, "the server is still running");
});
