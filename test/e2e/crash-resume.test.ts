/**
 * Crashes are not the file's fault: the real `docsift serve` process is killed with SIGKILL four times while a scan
 * is IN PROGRESS (more than the file's MAX_ATTEMPTS), and the file still finalises on the next start. The kills are
 * counted as interruptions, not as failed attempts.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";
import SQLite from "better-sqlite3";
import { PDFDocument } from "pdf-lib";
import { MAX_ATTEMPTS } from "../../src/domain/attempts.js";
import { openSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { getToken, requestJson, upload, uploadForm } from "../helpers/server.js";

interface FileRow {
  status: string;
  started_at: string | null;
}

const ADMIN = { id: "crash-admin", secret: "crash-admin-secret-0123456789" };
const KILLS = MAX_ATTEMPTS + 1;
let dataDir: string;
const children = new Set<ChildProcess>();

async function serve(): Promise<{ child: ChildProcess; url: string; exited: Promise<unknown> }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "src/cli/main.ts", "serve", "--port", "0", "--data", dataDir],
    {
      env: {
        ...process.env,
        LOG_LEVEL: "info",
        DOCSIFT_WORKERS: "1",
        DOCSIFT_BOOTSTRAP_CLIENT: `${ADMIN.id}:${ADMIN.secret}`,
      },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  children.add(child);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const parsed = JSON.parse(line) as { msg?: string; url?: string };
      if (parsed.msg === "docsift listening" && parsed.url) resolve(parsed.url);
    });
    child.once("exit", (code) => reject(new Error(`serve exited early with ${code}`)));
  });
  return { child, url, exited };
}

/** A three-page scan: OCR keeps the job IN PROGRESS for seconds, long enough to kill the process mid-job. */
async function scannedPdf(): Promise<Uint8Array> {
  const jpg = await readFile("/work/shared/data/receipts-dev/X51005433514.jpg");
  const doc = await PDFDocument.create();
  const image = await doc.embedJpg(jpg);
  for (let i = 0; i < 3; i++) {
    const page = doc.addPage([image.width / 2, image.height / 2]);
    page.drawImage(image, { x: 0, y: 0, width: image.width / 2, height: image.height / 2 });
  }
  return doc.save();
}

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "docsift-crash-"));
});
after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await rm(dataDir, { recursive: true, force: true });
});

test(`a file whose process is killed ${KILLS} times mid-job still finalises`, { timeout: 240_000 }, async () => {
  let server = await serve();
  let token = await getToken(server.url, ADMIN.id, ADMIN.secret);
  const fileId = String(
    (await upload(server, token, uploadForm(await scannedPdf(), { products: "receipts" }))).body.fileId,
  );
  // The row tells when a process started the job: the status alone would still read IN PROGRESS from the last one.
  const db = new SQLite(join(dataDir, "docsift.sqlite"), { readonly: true });
  const row = (): FileRow => db.prepare("SELECT status, started_at FROM files WHERE id = ?").get(fileId) as FileRow;
  let killedAt = "";
  try {
    for (let kill = 1; kill <= KILLS; kill++) {
      for (let r = row(); r.status !== "IN PROGRESS" || (r.started_at ?? "") <= killedAt; r = row()) {
        assert.ok(r.status === "RECEIVED" || r.status === "IN PROGRESS", `round ${kill}: ${JSON.stringify(r)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      server.child.kill("SIGKILL");
      await server.exited;
      killedAt = new Date().toISOString();
      server = await serve();
      token = await getToken(server.url, ADMIN.id, ADMIN.secret);
    }
  } finally {
    db.close();
  }
  const res = await requestJson(`${server.url}/result/final/${fileId}`, { token });
  assert.equal(res.body.status, "FINALISED", JSON.stringify(res.body));
  server.child.kill("SIGTERM");
  await server.exited;
  const store = await openSqliteStore(join(dataDir, "docsift.sqlite"));
  try {
    const file = await store.files.getForJob(fileId);
    assert.deepEqual(
      { attempts: file?.attempts, interruptions: file?.interruptions },
      { attempts: 0, interruptions: KILLS },
    );
  } finally {
    await store.close();
  }
});
