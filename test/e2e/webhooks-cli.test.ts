/**
 * `docsift webhooks list|create|delete|deliveries` against a real server, configured only through DOCSIFT_URL and
 * DOCSIFT_API_KEY; a real receiver on 127.0.0.1 gets the upload's event.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, test } from "node:test";
import { invoicePdf, startTestServer, type TestServer, upload, uploadForm } from "../helpers/server.js";
import { type Receiver, startReceiver } from "../helpers/webhook-receiver.js";

const CLI = ["--import", "tsx", "src/cli/main.ts"];
const ENV = { DOCSIFT_WEBHOOK_ALLOW_HTTP: "1", DOCSIFT_WEBHOOK_ALLOW_PRIVATE: "1" };
let server: TestServer;
let receiver: Receiver;

before(async () => {
  Object.assign(process.env, ENV);
  server = await startTestServer({ backend: "sqlite", workers: 1 });
  receiver = await startReceiver();
});
after(async () => {
  await receiver.close();
  await server.stop();
  for (const name of Object.keys(ENV)) delete process.env[name];
});

function docsift(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...CLI, ...args],
      {
        env: {
          ...process.env,
          DOCSIFT_URL: server.url,
          DOCSIFT_API_KEY: `${server.admin.clientId}:${server.admin.clientSecret}`,
        },
      },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const lines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

test("create, list, deliveries and delete through the CLI", { timeout: 120_000 }, async () => {
  const created = await docsift(["webhooks", "create", receiver.url, "--event", "file.finalised"]);
  assert.equal(created.code, 0, created.stderr);
  const hook = lines(created.stdout)[0] as { id: string; secret: string; events: string[] };
  assert.match(hook.secret, /^whsec_/);
  assert.deepEqual(hook.events, ["file.finalised"]);
  receiver.secrets.push(hook.secret);

  const listed = await docsift(["webhooks", "list"]);
  assert.deepEqual(
    lines(listed.stdout).map((h) => h.id),
    [hook.id],
  );
  assert.equal(lines(listed.stdout)[0]?.secret, undefined);

  const token = await server.token();
  const res = await upload(
    server,
    token,
    uploadForm(await invoicePdf({ number: "C-1", date: "01.06.2024", total: "5.00" }), { fieldSet: "invoice" }),
  );
  await receiver.until((got) => got.some((r) => r.fileId === res.body.fileId), 60_000);
  const deliveries = await docsift(["webhooks", "deliveries", hook.id, "--status", "delivered"]);
  assert.equal(deliveries.code, 0, deliveries.stderr);
  assert.deepEqual(
    lines(deliveries.stdout).map((d) => [d.fileId, d.type, d.status, d.lastStatusCode]),
    [[res.body.fileId, "file.finalised", "delivered", 200]],
  );

  const bad = await docsift(["webhooks", "create", receiver.url, "--event", "file.exploded"]);
  assert.equal(bad.code, 2, bad.stderr);
  const deleted = await docsift(["webhooks", "delete", hook.id, "wh_00000000000000000000"]);
  assert.equal(deleted.code, 1);
  assert.deepEqual(lines(deleted.stdout), [
    { id: hook.id, deleted: true },
    { id: "wh_00000000000000000000", deleted: false },
  ]);
  assert.deepEqual(lines((await docsift(["webhooks", "list"])).stdout), []);
});
