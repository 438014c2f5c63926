/**
 * Scale-out with real processes on one PostgreSQL database (a fresh schema): two API processes
 * (`serve --no-worker`) and two `docsift worker`s. Uploads go to either API and are read from the other; a worker is
 * killed with SIGKILL mid-job and its job finishes on the other worker after expiry; PostgreSQL itself is restarted
 * mid-run and every process carries on. Nothing with a receipt is lost and no file has two different results.
 */
import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { PDFDocument } from "pdf-lib";
import pg from "pg";
import { createTestSchema, type TestSchema } from "../helpers/pg-schema.js";
import { getToken, invoicePdf, type JsonResponse, requestJson, upload, uploadForm } from "../helpers/server.js";

const CLI = ["--import", "tsx", "src/cli/main.ts"];
const ADMIN = { id: "scale-admin", secret: "scale-admin-secret-0123456789" };
/** A job active this long is presumed abandoned; the invoices here take well under a second. */
const EXPIRE_SECONDS = 15;

interface Proc {
  name: string;
  child: ChildProcess;
  /** Parsed pino lines seen so far. */
  logs: { msg?: string; fileId?: string; url?: string }[];
  exited: Promise<number | null>;
  url: string | undefined;
}

let schema: TestSchema;
let dataDir: string;
const procs = new Set<Proc>();

function env(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: schema.url,
    DOCSIFT_DATA: dataDir,
    DOCSIFT_BOOTSTRAP_CLIENT: `${ADMIN.id}:${ADMIN.secret}`,
    DOCSIFT_WORKERS: "1",
    DOCSIFT_JOB_EXPIRE_SECONDS: String(EXPIRE_SECONDS),
    DOCSIFT_QUEUE_MAINTENANCE_SECONDS: "2",
    DOCSIFT_QUEUE_POLL_SECONDS: "1",
    LOG_LEVEL: "info",
  };
}

/** Starts a docsift process and resolves once it logs `ready`. */
async function start(name: string, args: string[], ready: string): Promise<Proc> {
  const child = spawn(process.execPath, [...CLI, ...args], { env: env(), stdio: ["ignore", "pipe", "inherit"] });
  const proc: Proc = {
    name,
    child,
    logs: [],
    url: undefined,
    exited: new Promise((resolve) => child.once("exit", (code) => resolve(code))),
  };
  procs.add(proc);
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      let parsed: Proc["logs"][number];
      try {
        parsed = JSON.parse(line) as Proc["logs"][number];
      } catch {
        return;
      }
      proc.logs.push(parsed);
      if (parsed.msg === ready) {
        proc.url = parsed.url;
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`${name} exited early with ${code}`)));
  });
  return proc;
}

const api = (name: string): Promise<Proc> =>
  start(name, ["serve", "--no-worker", "--port", "0", "--workers", "1"], "docsift listening");
const worker = (name: string): Promise<Proc> => start(name, ["worker"], "docsift worker ready");
const finalisedBy = (proc: Proc): string[] =>
  proc.logs.filter((l) => l.msg === "file finalised" && l.fileId).map((l) => String(l.fileId));

/**
 * A worker logs "file finalised" after the commit an API already serves: its log line may still be in the pipe when
 * the result is read. Waits (10 s at most) until `logged()` holds.
 */
async function untilLogged(logged: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !logged(); i++) await new Promise((r) => setTimeout(r, 100));
}

/** Retries through connection errors and 5xx (PostgreSQL restarting) until `done` or the deadline. */
async function persist<T extends JsonResponse>(call: () => Promise<T>, done: (r: T) => boolean): Promise<T> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const res = await call().catch(() => undefined);
    if (res && done(res)) return res;
    if (Date.now() > deadline) throw new Error(`gave up: ${JSON.stringify(res?.body)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function uploadInvoice(proc: Proc, token: string, n: number): Promise<string> {
  const pdf = await invoicePdf({ number: `SC-${n}`, date: `2024-04-0${(n % 9) + 1}`, total: `${n}.00` });
  const res = await persist(
    () => upload({ url: proc.url! }, token, uploadForm(pdf, { fieldSet: "invoice" })),
    (r) => r.status === 200 || r.status === 201 || r.status === 202,
  );
  return String(res.body.fileId);
}

/** The final result, read through `proc` with a blocking wait (woken by NOTIFY from whichever worker finished). */
async function finalResult(proc: Proc, token: string, fileId: string): Promise<Record<string, unknown>> {
  const res = await persist(
    () => requestJson(`${proc.url}/result/final/${fileId}?timeout=60000`, { token }),
    (r) => r.status === 200 && (r.body.status === "FINALISED" || r.body.status === "FAILED"),
  );
  assert.equal(res.body.status, "FINALISED", JSON.stringify(res.body));
  return res.body;
}

async function statusOf(proc: Proc, token: string, fileId: string): Promise<string> {
  return String((await requestJson(`${proc.url}/result/final/${fileId}?timeout=0`, { token })).body.status);
}

async function scannedPdf(): Promise<Uint8Array> {
  const jpg = await readFile("/work/shared/data/receipts-dev/X51005433514.jpg");
  const doc = await PDFDocument.create();
  const image = await doc.embedJpg(jpg);
  const page = doc.addPage([image.width / 2, image.height / 2]);
  page.drawImage(image, { x: 0, y: 0, width: image.width / 2, height: image.height / 2 });
  return doc.save();
}

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: schema.url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

before(async () => {
  schema = await createTestSchema("docsift_scale");
  dataDir = await mkdtemp(join(tmpdir(), "docsift-scale-"));
});
after(async () => {
  for (const proc of procs)
    if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill("SIGKILL");
  await Promise.all([...procs].map((p) => p.exited));
  await rm(dataDir, { recursive: true, force: true });
  await schema.drop();
});

test("2 APIs + 2 workers: spread uploads, kill -9 a worker, restart PostgreSQL", { timeout: 240_000 }, async () => {
  // The first API migrates and creates the bootstrap client and signing key; the rest start beside it.
  const apiA = await api("api-a");
  const [apiB, w1, w2] = await Promise.all([api("api-b"), worker("worker-1"), worker("worker-2")]);
  const token = await getToken(apiA.url!, ADMIN.id, ADMIN.secret);
  const apis = [apiA, apiB];
  const accepted: string[] = [];

  // 40 uploads spread over both APIs, each result read from the other one.
  const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => uploadInvoice(apis[i % 2]!, token, i)));
  accepted.push(...ids);
  const bodies = await Promise.all(ids.map((id, i) => finalResult(apis[(i + 1) % 2]!, token, id)));
  for (const [i, body] of bodies.entries()) assert.ok(JSON.stringify(body).includes(`SC-${i}`), `result ${i}`);
  await untilLogged(() => finalisedBy(w1).length + finalisedBy(w2).length >= ids.length);
  assert.ok(finalisedBy(w1).length > 0 && finalisedBy(w2).length > 0, "both workers took jobs");

  // kill -9 mid-job: with worker-2 drained away, worker-1 takes the scan; kill it once the scan runs and start
  // another worker: the job expires and is re-delivered there.
  w2.child.kill("SIGTERM");
  assert.equal(await w2.exited, 0, "a worker drains and exits 0 on SIGTERM");
  const scanId = String(
    (await upload({ url: apiA.url! }, token, uploadForm(await scannedPdf(), { products: "receipts" }))).body.fileId,
  );
  accepted.push(scanId);
  for (let s = await statusOf(apiB, token, scanId); s !== "IN PROGRESS"; s = await statusOf(apiB, token, scanId)) {
    assert.equal(s, "RECEIVED", "the scan finished before the worker could be killed");
    await new Promise((r) => setTimeout(r, 50));
  }
  w1.child.kill("SIGKILL");
  await w1.exited;
  const w3 = await worker("worker-3");
  const scanResult = await finalResult(apiB, token, scanId);
  await untilLogged(() => finalisedBy(w3).includes(scanId));
  assert.deepEqual(finalisedBy(w3), [scanId], "the killed worker's job finished on the other worker");
  assert.deepEqual(await finalResult(apiA, token, scanId), scanResult, "both APIs serve the same result");
  const [scanRow] = await query<{ attempts: number; interruptions: number }>(
    "SELECT attempts, interruptions FROM files WHERE id = $1",
    [scanId],
  );
  assert.deepEqual(scanRow, { attempts: 0, interruptions: 1 }, "the killed attempt is an interruption, no failure");

  // Restart PostgreSQL while uploads are in flight; every process recovers on its own.
  const w4 = await worker("worker-4");
  const before = Promise.all(Array.from({ length: 10 }, (_, i) => uploadInvoice(apis[i % 2]!, token, 100 + i)));
  const waits = before.then((list) => list.map((id, i) => finalResult(apis[(i + 1) % 2]!, token, id)));
  // The machine's one cluster, whatever its version (as .ci/run finds it).
  const [pgVersion] = await readdir("/etc/postgresql");
  await promisify(execFile)("pg_ctlcluster", ["--skip-systemctl-redirect", pgVersion ?? "15", "main", "restart"]);
  const firstBatch = await before;
  accepted.push(...firstBatch);
  await Promise.all(await waits);
  const afterCount = { w3: finalisedBy(w3).length, w4: finalisedBy(w4).length };
  const secondBatch = await Promise.all(
    Array.from({ length: 10 }, (_, i) => uploadInvoice(apis[i % 2]!, token, 200 + i)),
  );
  accepted.push(...secondBatch);
  await Promise.all(secondBatch.map((id, i) => finalResult(apis[(i + 1) % 2]!, token, id)));
  const expected = afterCount.w3 + afterCount.w4 + secondBatch.length;
  await untilLogged(() => finalisedBy(w3).length + finalisedBy(w4).length >= expected);
  assert.ok(
    finalisedBy(w3).length + finalisedBy(w4).length >= expected,
    `workers keep processing after the restart: ${finalisedBy(w3).length + finalisedBy(w4).length} of ${expected}`,
  );
  for (const proc of [apiA, apiB, w3, w4]) {
    const lastLogs = JSON.stringify(proc.logs.slice(-5));
    assert.equal(proc.child.exitCode, null, `${proc.name} still running; its last logs: ${lastLogs}`);
  }

  // Nothing lost, nothing finalised twice: every accepted upload has exactly one result row and is FINALISED.
  const rows = await query<{ id: string; status: string; n: string }>(
    "SELECT f.id, f.status, count(r.file_id) AS n FROM files f LEFT JOIN results r ON r.file_id = f.id WHERE f.id = ANY($1) GROUP BY f.id, f.status",
    [accepted],
  );
  assert.equal(rows.length, accepted.length);
  for (const row of rows) {
    assert.equal(row.status, "FINALISED", row.id);
    assert.equal(Number(row.n), 1, row.id);
  }
  for (const proc of [apiA, apiB, w3, w4]) proc.child.kill("SIGTERM");
  for (const proc of [apiA, apiB, w3, w4]) assert.equal(await proc.exited, 0, `${proc.name} drains and exits 0`);
});
