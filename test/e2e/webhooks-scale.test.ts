/**
 * Webhooks in the scale-out mode, with real processes on one PostgreSQL database (a fresh schema): two API processes
 * (`serve --no-worker`) and two `docsift worker`s all run the delivery loop over the shared outbox. Every event
 * reaches the receiver (each signature checked with the Standard Webhooks library); duplicates are allowed (at least
 * once) and counted.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";
import { createTestSchema, type TestSchema } from "../helpers/pg-schema.js";
import { getToken, invoicePdf, requestJson, upload, uploadForm } from "../helpers/server.js";
import { type Receiver, startReceiver } from "../helpers/webhook-receiver.js";

const CLI = ["--import", "tsx", "src/cli/main.ts"];
const ADMIN = { id: "hook-scale-admin", secret: "hook-scale-admin-secret-0123456789" };
const FILES = 30;

interface Proc {
  child: ChildProcess;
  exited: Promise<number | null>;
  url: string | undefined;
}

let schema: TestSchema;
let dataDir: string;
let receiver: Receiver;
const procs = new Set<Proc>();

async function start(args: string[], ready: string): Promise<Proc> {
  const child = spawn(process.execPath, [...CLI, ...args], {
    env: {
      ...process.env,
      DATABASE_URL: schema.url,
      DOCSIFT_DATA: dataDir,
      DOCSIFT_BOOTSTRAP_CLIENT: `${ADMIN.id}:${ADMIN.secret}`,
      DOCSIFT_WORKERS: "1",
      DOCSIFT_QUEUE_POLL_SECONDS: "1",
      DOCSIFT_INSPECT_TIMEOUT_MS: "60000",
      DOCSIFT_WEBHOOK_ALLOW_HTTP: "1",
      DOCSIFT_WEBHOOK_ALLOW_PRIVATE: "1",
      DOCSIFT_WEBHOOK_RETRY_BASE_MS: "200",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const proc: Proc = {
    child,
    url: undefined,
    exited: new Promise((resolve) => child.once("exit", (code) => resolve(code))),
  };
  procs.add(proc);
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      let parsed: { msg?: string; url?: string };
      try {
        parsed = JSON.parse(line) as { msg?: string; url?: string };
      } catch {
        return;
      }
      if (parsed.msg === ready) {
        proc.url = parsed.url;
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`${args[0]} exited early with ${code}`)));
  });
  return proc;
}

const api = () => start(["serve", "--no-worker", "--port", "0", "--workers", "1"], "docsift listening");
const worker = () => start(["worker"], "docsift worker ready");

before(async () => {
  schema = await createTestSchema("docsift_hooks");
  dataDir = await mkdtemp(join(tmpdir(), "docsift-hook-scale-"));
  receiver = await startReceiver();
});

after(async () => {
  for (const proc of procs)
    if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill("SIGKILL");
  await Promise.all([...procs].map((p) => p.exited));
  await receiver.close();
  await rm(dataDir, { recursive: true, force: true });
  await schema.drop();
});

test("2 APIs + 2 workers on PostgreSQL: every event delivered, duplicates counted", { timeout: 120_000 }, async () => {
  const apiA = await api();
  const [apiB] = await Promise.all([api(), worker(), worker()]);
  const apis = [apiA, apiB as Proc];
  const token = await getToken(apiA.url!, ADMIN.id, ADMIN.secret);
  const created = await requestJson<{ id: string; secret: string }>(`${apiB?.url}/webhooks`, {
    method: "POST",
    token,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: receiver.url, events: ["file.finalised"] }),
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  receiver.secrets.push(created.body.secret);

  // Spread over both APIs, two at a time (one per API: each inspects uploads on one thread).
  const ids: string[] = [];
  for (let i = 0; i < FILES; i += 2) {
    const pair = await Promise.all(
      apis.map(async (proc, k) => {
        const pdf = await invoicePdf({ number: `WH-${i + k}`, date: "05.03.2024", total: `${i + k + 1}.00` });
        const res = await upload({ url: proc.url! }, token, uploadForm(pdf, { fieldSet: "invoice" }));
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return String(res.body.fileId);
      }),
    );
    ids.push(...pair);
  }
  await receiver.until(() => ids.every((id) => receiver.received.some((r) => r.fileId === id)), 90_000);
  assert.equal(receiver.forged, 0);
  const unique = receiver.unique();
  assert.deepEqual(unique.map((r) => r.fileId).sort(), [...ids].sort(), "one event per file, none lost");
  const duplicates = receiver.received.length - unique.length;
  console.log(`# webhooks-scale: ${unique.length} events, ${duplicates} duplicate deliveries`);
  // A worker records a delivery as delivered after the receiver has answered, so the log can trail what the
  // receiver already holds by a moment: read it until every delivery is recorded (10 s at most).
  const deliveries = async () =>
    (
      await requestJson<{ deliveries: { status: string }[] }>(
        `${apiA.url}/webhooks/${created.body.id}/deliveries?limit=200`,
        { token },
      )
    ).body.deliveries;
  let log = await deliveries();
  for (const until = Date.now() + 10_000; Date.now() < until; log = await deliveries()) {
    if (log.length === FILES && log.every((d) => d.status === "delivered")) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.equal(log.length, FILES);
  assert.ok(
    log.every((d) => d.status === "delivered"),
    JSON.stringify(log.map((d) => d.status)),
  );
});
