/**
 * Webhooks over real HTTP: a real service (SQLite) delivers to real receivers on 127.0.0.1 that verify every
 * signature with the Standard Webhooks library from npm. Uploads of three workflows produce exactly the expected
 * events, in order per file; another tenant's endpoint receives none of them; a receiver that answers 500 for a while
 * gets everything once it recovers; a rotated secret signs beside the new one; an endpoint failing for a whole retry
 * window is disabled and says so; URLs resolving to loopback are refused without DOCSIFT_WEBHOOK_ALLOW_PRIVATE.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { verifyWebhook } from "../../src/client/index.js";
import {
  getToken,
  invoicePdf,
  requestJson,
  startTestServer,
  type TestServer,
  upload,
  uploadForm,
} from "../helpers/server.js";
import { type Received, type Receiver, startReceiver } from "../helpers/webhook-receiver.js";
import { invoiceBundle, THREE_INVOICES } from "../unit/split-invoices.js";

const ENV = {
  DOCSIFT_WEBHOOK_ALLOW_HTTP: "1",
  DOCSIFT_WEBHOOK_ALLOW_PRIVATE: "1",
  DOCSIFT_WEBHOOK_RETRY_BASE_MS: "100",
  // 9 s: long enough for the receiver that is down for 2 s, short enough to see an endpoint disabled.
  DOCSIFT_WEBHOOK_RETRY_HOURS: String(9 / 3600),
};
const ALL_EVENTS = [
  "file.finalised",
  "file.failed",
  "file.in_progress",
  "task.created",
  "task.resolved",
  "split.completed",
];
const UPLOADS = 50;

let server: TestServer;
let token: string;
const receivers: Receiver[] = [];

interface Hook {
  id: string;
  url: string;
  events: string[];
  secret: string;
  enabled: boolean;
  disabledReason: string | null;
}

const api = <T = Record<string, unknown>>(path: string, init: RequestInit = {}, as = token) =>
  requestJson<T>(`${server.url}${path}`, {
    ...init,
    token: as,
    headers: init.body ? { "content-type": "application/json" } : {},
  });

async function createHook(receiver: Receiver, events: string[], as = token): Promise<Hook> {
  const res = await api<Hook>("/webhooks", { method: "POST", body: JSON.stringify({ url: receiver.url, events }) }, as);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.match(res.body.secret, /^whsec_/);
  receiver.secrets.push(res.body.secret);
  return res.body;
}

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

async function uploadFile(form: Record<string, string>, bytes: Uint8Array, as = token): Promise<string> {
  const res = await upload(server, as, uploadForm(bytes, form));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return String(res.body.fileId);
}

const eventsOf = (received: Received[], fileId: string) =>
  received.filter((r) => r.fileId === fileId).map((r) => r.type);

before(async () => {
  Object.assign(process.env, ENV);
  server = await startTestServer({ backend: "sqlite", workers: 2 });
  token = await server.token();
});

after(async () => {
  for (const r of receivers) await r.close();
  await server?.stop();
  for (const name of Object.keys(ENV)) delete process.env[name];
});

describe("webhooks", () => {
  test("uploads of every workflow produce exactly the expected events, in order per file, to this tenant only", async () => {
    const mine = await receiver();
    const theirs = await receiver();
    const hook = await createHook(mine, ALL_EVENTS);
    const other = await server.newClient({ name: "other-tenant" });
    const otherToken = await getToken(server.url, other.clientId, other.clientSecret);
    const otherHook = await createHook(theirs, ALL_EVENTS, otherToken);

    // Tenants see only their own endpoints.
    assert.equal((await api(`/webhooks/${hook.id}`, {}, otherToken)).status, 404);
    assert.equal((await api(`/webhooks/${otherHook.id}/deliveries`)).status, 404);
    const listed = await api<{ webhooks: Hook[] }>("/webhooks", {}, otherToken);
    assert.deepEqual(
      listed.body.webhooks.map((h) => h.id),
      [otherHook.id],
    );
    assert.equal(
      (listed.body.webhooks[0] as unknown as Record<string, unknown>).secret,
      undefined,
      "the secret is shown once",
    );

    const pdf = await invoicePdf({ number: "INV-1", date: "01.02.2024", total: "120.00" });
    const plain: string[] = [];
    for (let i = 0; i < UPLOADS; i++) plain.push(await uploadFile({ fieldSet: "invoice" }, pdf));
    const validated = await uploadFile(
      {
        fieldSet: "invoice",
        workflowId: "validate",
        workflowOptions: JSON.stringify({
          prediction: {
            fieldset: "invoice",
            conditions: [{ type: "field-value-range", field: "invoice.total", min: 0, max: 100 }],
          },
        }),
      },
      pdf,
    );
    const parent = await uploadFile(
      {
        fieldSet: "invoice",
        workflowId: "split",
        childWorkflowId: "prediction",
        workflowOptions: JSON.stringify({
          prediction: { childWorkflow: "prediction", childWorkflowOptions: { prediction: { fieldSets: ["invoice"] } } },
        }),
      },
      await invoiceBundle(THREE_INVOICES),
    );
    const theirFile = await uploadFile({ fieldSet: "invoice" }, pdf, otherToken);

    // The validate file waits for review: resolve its task once it is announced.
    await mine.until((got) => eventsOf(got, validated).includes("task.created"), 60_000);
    const taskEvent = mine.received.find((r) => r.fileId === validated && r.type === "task.created");
    assert.ok(taskEvent, "task.created arrived");
    const taskId = (taskEvent.body.data.task as { id: string }).id;
    const resolved = await api(`/validate/tasks/${taskId}/resolve`, {
      method: "POST",
      body: JSON.stringify({ fields: [{ name: "invoice.total", value: "99.00" }] }),
    });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));

    const expectedCount = UPLOADS + 4 + 2 + 3; // plain, validate (4 events), split parent (2), children (3)
    await mine.until(() => mine.unique().length >= expectedCount, 90_000);
    await theirs.until(() => theirs.unique().length >= 1, 30_000);
    // Anything late would show up now.
    await new Promise((r) => setTimeout(r, 500));
    const got = mine.unique();
    assert.equal(got.length, expectedCount, JSON.stringify(got.map((r) => [r.fileId, r.type])));
    assert.equal(mine.forged, 0);
    assert.equal(theirs.forged, 0);

    for (const fileId of plain) assert.deepEqual(eventsOf(got, fileId), ["file.finalised"]);
    assert.deepEqual(eventsOf(got, validated), ["task.created", "file.in_progress", "task.resolved", "file.finalised"]);
    assert.deepEqual(eventsOf(got, parent), ["file.finalised", "split.completed"]);
    const split = got.find((r) => r.fileId === parent && r.type === "split.completed");
    assert.ok(split, "split.completed arrived");
    const children = (split.body.data.children as { file_id: string }[]).map((c) => c.file_id);
    assert.equal(children.length, 3);
    for (const child of children) assert.deepEqual(eventsOf(got, child), ["file.finalised"]);
    assert.ok(!got.some((r) => r.fileId === theirFile), "another tenant's file never reaches this endpoint");
    assert.deepEqual(
      theirs.unique().map((r) => [r.fileId, r.type]),
      [[theirFile, "file.finalised"]],
      "this tenant's endpoint got only its own file",
    );

    // file.finalised carries the result as GET /result/final?verbose=true answers it.
    for (const fileId of [plain[0] as string, validated]) {
      const final = await api<{ results: unknown }>(`/result/final/${fileId}?verbose=true`);
      const event = got.find((r) => r.fileId === fileId && r.type === "file.finalised");
      assert.deepEqual(event?.body.data.results, final.body.results);
      assert.equal(event?.body.data.status, "FINALISED");
    }

    // The SDK's verifier accepts a delivery as received and refuses a tampered one.
    const sample = got[0] as Received;
    const headers = sample.headers as Record<string, string>;
    assert.equal(verifyWebhook(sample.raw, headers, hook.secret).type, sample.type);
    assert.throws(() => verifyWebhook(sample.raw.replace("FINALISED", "FAILED"), headers, hook.secret));

    // The delivery log pages through every delivery, all delivered at the first attempt.
    const seen: { status: string; attempts: number; lastStatusCode: number }[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${cursor}` : "";
      const page = await api<{ deliveries: typeof seen; next: string | null }>(
        `/webhooks/${hook.id}/deliveries?limit=16${query}`,
      );
      assert.equal(page.status, 200);
      seen.push(...page.body.deliveries);
      cursor = page.body.next;
    } while (cursor);
    assert.equal(seen.length, expectedCount);
    assert.ok(seen.every((d) => d.status === "delivered" && d.lastStatusCode === 200));
  });

  test("a receiver answering 500 for a while gets every event once it recovers", async () => {
    const flaky = await receiver();
    const downUntil = Date.now() + 2000;
    flaky.answer = () => (Date.now() < downUntil ? 500 : 200);
    const hook = await createHook(flaky, ["file.finalised"]);
    const pdf = await invoicePdf({ number: "INV-2", date: "02.02.2024", total: "20.00" });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await uploadFile({ fieldSet: "invoice" }, pdf));
    await flaky.until(() => ids.every((id) => flaky.received.some((r) => r.fileId === id)), 30_000);
    assert.ok(flaky.refused > 0, "the receiver refused deliveries while it was down");
    const log = await api<{ deliveries: { fileId: string; status: string; attempts: number }[] }>(
      `/webhooks/${hook.id}/deliveries`,
    );
    const mine = log.body.deliveries.filter((d) => ids.includes(d.fileId));
    assert.equal(mine.length, 5);
    assert.ok(mine.every((d) => d.status === "delivered"));
    assert.ok(
      mine.some((d) => d.attempts > 1),
      JSON.stringify(mine),
    );
    assert.equal(flaky.forged, 0);
  });

  test("after a rotation both secrets sign; the old one alone still verifies", async () => {
    const r = await receiver();
    const hook = await createHook(r, ["file.finalised"]);
    const rotated = await api<{ secret: string; previousSecretExpiresAt: string }>(
      `/webhooks/${hook.id}/rotate-secret`,
      { method: "POST" },
    );
    assert.equal(rotated.status, 200);
    assert.notEqual(rotated.body.secret, hook.secret);
    assert.ok(Date.parse(rotated.body.previousSecretExpiresAt) > Date.now() + 23 * 3_600_000);
    r.secrets.push(rotated.body.secret);
    const pdf = await invoicePdf({ number: "INV-3", date: "03.02.2024", total: "30.00" });
    const id = await uploadFile({ fieldSet: "invoice" }, pdf);
    await r.until((got) => got.some((x) => x.fileId === id), 30_000);
    const delivery = r.received.find((x) => x.fileId === id) as Received;
    assert.deepEqual(delivery.verifiedWith.sort(), [hook.secret, rotated.body.secret].sort());
    assert.equal(String(delivery.headers["webhook-signature"]).split(" ").length, 2);
  });

  test("an endpoint failing for a whole retry window is disabled, says so, and resumes when enabled", async () => {
    const down = await receiver();
    down.answer = () => 503;
    const hook = await createHook(down, ["file.finalised"]);
    const pdf = await invoicePdf({ number: "INV-4", date: "04.02.2024", total: "40.00" });
    const id = await uploadFile({ fieldSet: "invoice" }, pdf);
    let state: Hook | undefined;
    for (let i = 0; i < 200 && !(state && !state.enabled); i++) {
      await new Promise((res) => setTimeout(res, 100));
      state = (await api<Hook>(`/webhooks/${hook.id}`)).body;
    }
    assert.equal(state?.enabled, false, JSON.stringify(state));
    assert.match(String(state?.disabledReason), /failed since/);
    const log = await api<{ deliveries: { id: string; status: string; lastStatusCode: number }[] }>(
      `/webhooks/${hook.id}/deliveries?status=failed`,
    );
    const failed = log.body.deliveries[0];
    assert.equal(failed?.lastStatusCode, 503);

    down.answer = () => 200;
    const enabled = await api<Hook>(`/webhooks/${hook.id}`, {
      method: "PATCH",
      body: JSON.stringify({ enabled: true }),
    });
    assert.equal(enabled.body.enabled, true);
    assert.equal(enabled.body.disabledReason, null);
    const retried = await api(`/webhooks/${hook.id}/deliveries/${failed?.id}/retry`, { method: "POST" });
    assert.equal(retried.status, 202);
    await down.until((got) => got.some((x) => x.fileId === id), 30_000);
  });

  test("the endpoint API checks its input and is deleted with its log", async () => {
    const r = await receiver();
    const bad = [
      { url: r.url, events: [] },
      { url: r.url, events: ["file.exploded"] },
      { url: "not a url", events: ["file.failed"] },
      { url: "ftp://example.com/x", events: ["file.failed"] },
    ];
    for (const body of bad) {
      const res = await api("/webhooks", { method: "POST", body: JSON.stringify(body) });
      assert.equal(res.status, 400, JSON.stringify(body));
    }
    const hook = await createHook(r, ["file.failed"]);
    const patched = await api<Hook>(`/webhooks/${hook.id}`, {
      method: "PATCH",
      body: JSON.stringify({ events: ["file.failed", "task.created"] }),
    });
    assert.deepEqual(patched.body.events, ["file.failed", "task.created"]);
    assert.equal((await api(`/webhooks/${hook.id}`, { method: "DELETE" })).status, 204);
    assert.equal((await api(`/webhooks/${hook.id}`)).status, 404);
    const narrow = await server.token("result:all");
    assert.equal((await api("/webhooks", {}, narrow)).status, 403);
  });

  test("metrics count deliveries by outcome and show the outbox's backlog", async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    assert.match(text, /docsift_webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
    assert.match(text, /docsift_webhook_deliveries_total\{outcome="retry"\} [1-9]/);
    assert.match(text, /docsift_webhook_deliveries_total\{outcome="failed"\} [1-9]/);
    assert.match(text, /docsift_webhook_retry_queue_depth \d+/);
    assert.match(text, /docsift_webhook_oldest_undelivered_seconds \d/);
  });
});

describe("webhook targets without DOCSIFT_WEBHOOK_ALLOW_PRIVATE", () => {
  let strict: TestServer;
  let strictToken: string;
  before(async () => {
    process.env.DOCSIFT_WEBHOOK_ALLOW_PRIVATE = "0";
    strict = await startTestServer({ backend: "sqlite", workers: 1 });
    process.env.DOCSIFT_WEBHOOK_ALLOW_PRIVATE = "1";
    strictToken = await strict.token();
  });
  after(() => strict?.stop());

  test("URLs resolving to loopback, private or metadata addresses are refused", async () => {
    for (const url of [
      "http://127.0.0.1:9/hook",
      "http://localhost:9/hook",
      "http://[::1]:9/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://10.1.2.3/hook",
      "http://[::ffff:127.0.0.1]/hook",
    ]) {
      const res = await requestJson<{ error: string; message: string }>(`${strict.url}/webhooks`, {
        method: "POST",
        token: strictToken,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ url, events: ["file.finalised"] }),
      });
      assert.equal(res.status, 400, url);
      assert.match(res.body.message, /loopback, private|does not resolve/, url);
    }
  });
});
