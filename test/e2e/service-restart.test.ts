/**
 * The real `docsift serve` process: first-start bootstrap client, `docsift clients` against a running server,
 * kill -9 mid-job then restart (nothing with a receipt is lost), and SIGTERM draining in-flight work.
 */
import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { PDFDocument } from "pdf-lib";
import { openSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { getToken, invoicePdf, requestJson, upload, uploadForm } from "../helpers/server.js";

const CLI = ["--import", "tsx", "src/cli/main.ts"];
let dataDir: string;
/** Every server started, so a failing test still leaves no process behind. */
const children = new Set<ChildProcess>();

interface Served {
  child: ChildProcess;
  url: string;
  stdout: string[];
  exited: Promise<number | null>;
}

/** Starts `docsift serve` on a free port and resolves once it logs its URL. */
async function serve(env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, [...CLI, "serve", "--port", "0", "--data", dataDir], {
    env: { ...process.env, LOG_LEVEL: "info", DOCSIFT_WORKERS: "1", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.add(child);
  const stdout: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      stdout.push(line);
      const parsed = JSON.parse(line) as { msg?: string; url?: string };
      if (parsed.msg === "docsift listening" && parsed.url) resolve(parsed.url);
    });
    child.once("exit", (code) => reject(new Error(`serve exited early with ${code}: ${stdout.join("\n")}`)));
  });
  return { child, url, stdout, exited };
}

async function cli(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [...CLI, ...args, "--data", dataDir]);
  return stdout;
}

/** A two-page scan (a receipt photo per page): slow enough, with OCR, to be caught mid-job. */
async function scannedPdf(): Promise<Uint8Array> {
  const jpg = await readFile("/work/shared/data/receipts-dev/X51005433514.jpg");
  const doc = await PDFDocument.create();
  const image = await doc.embedJpg(jpg);
  for (let i = 0; i < 2; i++) {
    const page = doc.addPage([image.width / 2, image.height / 2]);
    page.drawImage(image, { x: 0, y: 0, width: image.width / 2, height: image.height / 2 });
  }
  return doc.save();
}

async function statusOf(url: string, token: string, fileId: string): Promise<string> {
  const res = await requestJson(`${url}/result/final/${fileId}?timeout=0`, { token });
  return String(res.body.status);
}

async function untilInProgress(url: string, token: string, fileId: string): Promise<void> {
  for (;;) {
    const status = await statusOf(url, token, fileId);
    if (status === "IN PROGRESS") return;
    assert.equal(status, "RECEIVED", "the job finished before it could be interrupted");
    await new Promise((r) => setTimeout(r, 50));
  }
}

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "docsift-e2e-"));
});
after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await rm(dataDir, { recursive: true, force: true });
});

test("bootstrap, clients CLI, kill -9 mid-job and restart, SIGTERM drain", { timeout: 120_000 }, async () => {
  // First start: no client yet, so one is created and printed once.
  let server = await serve();
  const printed = server.stdout.map((l) => JSON.parse(l) as { clientId?: string; clientSecret?: string });
  const bootstrap = printed.find((l) => l.clientId && l.clientSecret);
  assert.ok(bootstrap?.clientId && bootstrap.clientSecret, "the bootstrap client is printed on first start");
  assert.ok(!server.stdout.some((l) => l.includes("authorization")), "no Authorization header is logged");

  // `docsift clients` works on the same data dir while the server runs.
  const created = JSON.parse(await cli("clients", "create", "--name", "e2e", "--json")) as {
    clientId: string;
    clientSecret: string;
  };
  const token = await getToken(server.url, created.clientId, created.clientSecret);
  const listed = JSON.parse(await cli("clients", "list", "--json")) as { clientId: string }[];
  assert.deepEqual(listed.map((c) => c.clientId).sort(), [bootstrap.clientId, created.clientId].sort());

  const scan = await scannedPdf();
  const first = String((await upload(server, token, uploadForm(scan, { products: "receipts" }))).body.fileId);
  const invoice = await invoicePdf({ number: "Q-1", date: "2024-02-02", total: "10.00" });
  const second = String((await upload(server, token, uploadForm(invoice, { fieldSet: "invoice" }))).body.fileId);
  await untilInProgress(server.url, token, first);
  server.child.kill("SIGKILL");
  await server.exited;

  // Restart: both the interrupted job and the queued one complete; tokens survive (same signing key).
  server = await serve();
  assert.ok(!server.stdout.some((l) => l.includes("clientSecret")), "the bootstrap secret is printed only once");
  for (const fileId of [first, second]) {
    const res = await requestJson(`${server.url}/result/final/${fileId}`, { token });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, "FINALISED", JSON.stringify(res.body));
  }

  // SIGTERM drains: the running job finishes before the process exits 0.
  const third = String((await upload(server, token, uploadForm(scan, { products: "receipts" }))).body.fileId);
  await untilInProgress(server.url, token, third);
  server.child.kill("SIGTERM");
  // While draining: readiness and new work answer 503 shutting_down; the running job goes on.
  let ready = await requestJson(`${server.url}/readyz`);
  while (ready.status === 200) ready = await requestJson(`${server.url}/readyz`);
  assert.equal(ready.status, 503);
  const refused = await upload(server, token, uploadForm(invoice, { fieldSet: "invoice" }));
  assert.equal(refused.status, 503);
  assert.equal(refused.body.error, "shutting_down");
  assert.equal(await server.exited, 0);
  const store = await openSqliteStore(join(dataDir, "docsift.sqlite"));
  try {
    assert.equal((await store.files.getForJob(third))?.status, "FINALISED");
  } finally {
    await store.close();
  }

  // Revocation through the CLI: the client can no longer get tokens.
  await cli("clients", "revoke", created.clientId);
  server = await serve();
  await assert.rejects(getToken(server.url, created.clientId, created.clientSecret), /invalid_client/);
  server.child.kill("SIGTERM");
  assert.equal(await server.exited, 0);
});
