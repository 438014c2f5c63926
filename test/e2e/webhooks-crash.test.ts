/**
 * Webhook events survive kill -9: the real `docsift serve` (SQLite) finalises files while their endpoint is down, so
 * their events wait in the outbox; some are mid-attempt (the receiver holds the request open) when the process is
 * killed with SIGKILL. After a restart every event reaches the receiver, each signature checked with the Standard
 * Webhooks library.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";
import { getToken, invoicePdf, requestJson, upload, uploadForm } from "../helpers/server.js";
import { type Receiver, startReceiver } from "../helpers/webhook-receiver.js";

const ADMIN = { id: "hook-crash-admin", secret: "hook-crash-admin-secret-0123456789" };
const FILES = 10;
let dataDir: string;
let receiver: Receiver;
const children = new Set<ChildProcess>();

async function serve(): Promise<{ child: ChildProcess; url: string; exited: Promise<unknown> }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "src/cli/main.ts", "serve", "--port", "0", "--data", dataDir],
    {
      env: {
        ...process.env,
        LOG_LEVEL: "info",
        DOCSIFT_WORKERS: "2",
        DOCSIFT_BOOTSTRAP_CLIENT: `${ADMIN.id}:${ADMIN.secret}`,
        DOCSIFT_WEBHOOK_ALLOW_HTTP: "1",
        DOCSIFT_WEBHOOK_ALLOW_PRIVATE: "1",
        DOCSIFT_WEBHOOK_RETRY_BASE_MS: "200",
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

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "docsift-hook-crash-"));
  receiver = await startReceiver();
});

after(async () => {
  for (const child of children) child.kill("SIGKILL");
  await receiver.close();
  await rm(dataDir, { recursive: true, force: true });
});

test("events pending or mid-attempt at a kill -9 are all delivered after the restart", async () => {
  const first = await serve();
  const token = await getToken(first.url, ADMIN.id, ADMIN.secret);
  const created = await requestJson<{ id: string; secret: string }>(`${first.url}/webhooks`, {
    method: "POST",
    token,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: receiver.url, events: ["file.finalised"] }),
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  receiver.secrets.push(created.body.secret);

  // Down: every attempt is refused, so the events pile up in the outbox.
  receiver.answer = () => 503;
  const pdf = await invoicePdf({ number: "K-1", date: "01.03.2024", total: "10.00" });
  const ids: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const res = await upload({ url: first.url }, token, uploadForm(pdf, { fieldSet: "invoice" }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    ids.push(String(res.body.fileId));
  }
  for (const id of ids) {
    const res = await requestJson(`${first.url}/result/final/${id}?timeout=60000`, { token });
    assert.equal(res.body.status, "FINALISED");
  }
  const pending = await requestJson<{ deliveries: { status: string }[] }>(
    `${first.url}/webhooks/${created.body.id}/deliveries?limit=200`,
    { token },
  );
  assert.equal(pending.body.deliveries.length, FILES);
  assert.ok(pending.body.deliveries.every((d) => d.status === "pending"));

  // Hanging: attempts now stay open, so the kill lands mid-attempt with their leases held.
  receiver.holdWhile = () => true;
  await receiver.until(() => receiver.held > 0, 30_000);
  first.child.kill("SIGKILL");
  await first.exited;
  receiver.holdWhile = () => false;
  receiver.answer = () => 200;

  const second = await serve();
  await receiver.until(() => ids.every((id) => receiver.received.some((r) => r.fileId === id)), 40_000);
  assert.equal(receiver.forged, 0);
  const delivered = new Set(receiver.unique().map((r) => r.fileId));
  assert.deepEqual([...delivered].sort(), [...ids].sort());
  const token2 = await getToken(second.url, ADMIN.id, ADMIN.secret);
  const log = await requestJson<{ deliveries: { status: string }[] }>(
    `${second.url}/webhooks/${created.body.id}/deliveries?limit=200`,
    { token: token2 },
  );
  assert.ok(
    log.body.deliveries.every((d) => d.status === "delivered"),
    JSON.stringify(log.body),
  );
  second.child.kill("SIGTERM");
  await second.exited;
});
