/**
 * The bounded queue on both backends: once DOCSIFT_MAX_QUEUE files wait or run, uploads (multipart and JSON) get
 * 503 `unavailable` with Retry-After and nothing is stored; the SDK reports it; the bound is shared by every API
 * process on PostgreSQL and lifts when workers catch up; split children of an accepted upload are never refused.
 * A full queue is made real by having no worker take jobs: on PostgreSQL an API-only process (`serve --no-worker`
 * with no worker running), embedded a queue that stopped dispatching (as it does while draining).
 */
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import { DocsiftApiError, DocsiftClient } from "../../src/client/index.js";
import { createTestSchema, type TestSchema } from "../helpers/pg-schema.js";
import {
  invoicePdf,
  type JsonResponse,
  requestJson,
  startTestServer,
  type TestServer,
  upload,
  uploadForm,
} from "../helpers/server.js";
import { invoiceBundle, THREE_INVOICES } from "../unit/split-invoices.js";

const FORM = { fieldSet: "invoice" };

let pdf: Uint8Array;
before(async () => {
  pdf = await invoicePdf({ number: "QB-1", date: "2024-05-06", total: "42.00" });
});

const uploadJson = (server: TestServer, token: string): Promise<JsonResponse> =>
  requestJson(`${server.url}/fileupload/json`, {
    method: "POST",
    token,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...FORM, fileToUpload: Buffer.from(pdf).toString("base64") }),
  });

function assertQueueFull(res: JsonResponse): void {
  assert.equal(res.status, 503, JSON.stringify(res.body));
  assert.equal(res.body.error, "unavailable");
  assert.match(String(res.body.message), /queue is full/);
  assert.equal(res.headers.get("retry-after"), "10");
}

/** Fills a queue nobody works with `max` uploads, then checks every way in is refused and nothing stored. */
async function fillAndCheckRefusals(server: TestServer, max: number): Promise<string[]> {
  const token = await server.token();
  const accepted: string[] = [];
  for (let i = 0; i < max; i++) {
    const res = await upload(server, token, uploadForm(pdf, FORM));
    assert.equal(res.status, 200, `upload ${i + 1} of ${max}: ${JSON.stringify(res.body)}`);
    accepted.push(String(res.body.fileId));
  }
  const blobs = await server.blobCount();
  assertQueueFull(await upload(server, token, uploadForm(pdf, FORM)));
  assertQueueFull(await uploadJson(server, token));
  assert.equal(await server.blobCount(), blobs, "refused uploads stored nothing");
  // Reading is unaffected by a full queue.
  const status = await requestJson(`${server.url}/result/final/${accepted[0]}?timeout=0`, { token });
  assert.equal(status.status, 200);
  assert.equal(status.body.status, "RECEIVED");

  const client = await server.newClient({ name: "sdk" });
  const sdk = new DocsiftClient({ baseUrl: server.url, ...client, retries: 0 });
  const err = await sdk.upload(Buffer.from(pdf), FORM).catch((e: unknown) => e);
  assert.ok(err instanceof DocsiftApiError, String(err));
  assert.equal(err.status, 503);
  assert.equal(err.code, "unavailable");
  return accepted;
}

describe("bounded queue, embedded", () => {
  test("a full queue refuses uploads with 503 and Retry-After, storing nothing", async () => {
    const server = await startTestServer({ workers: 1, backend: "sqlite", maxQueue: 3 });
    try {
      // No job starts from here on; queued ones stay queued.
      await server.service.queue.drain();
      await fillAndCheckRefusals(server, 3);
      assert.equal(server.service.queue.depth(), 3);
    } finally {
      await server.stop();
    }
  });

  test("split children of an accepted upload are never refused, even past the bound", async () => {
    const server = await startTestServer({ workers: 1, backend: "sqlite", maxQueue: 1 });
    try {
      const token = await server.token();
      const split = {
        fieldSet: "invoice",
        workflowId: "split",
        childWorkflowId: "prediction",
        workflowOptions: JSON.stringify({
          prediction: { childWorkflow: "prediction", childWorkflowOptions: { prediction: { fieldSets: ["invoice"] } } },
        }),
      };
      const receipt = await upload(server, token, uploadForm(await invoiceBundle(THREE_INVOICES), split));
      assert.equal(receipt.status, 200, JSON.stringify(receipt.body));
      const parent = await requestJson<{ status: string; results?: { fields: { value: unknown }[] } }>(
        `${server.url}/result/final/${receipt.body.fileId}`,
        { token },
      );
      assert.equal(parent.body.status, "FINALISED");
      const children = parent.body.results?.fields[0]?.value as { file_id: string }[];
      assert.equal(children.length, 3);
      for (const child of children) {
        const res = await requestJson(`${server.url}/result/final/${child.file_id}`, { token });
        assert.equal(res.body.status, "FINALISED", JSON.stringify(res.body));
      }
    } finally {
      await server.stop();
    }
  });
});

describe("bounded queue, PostgreSQL", () => {
  let schema: TestSchema;
  let api: TestServer;

  before(async () => {
    schema = await createTestSchema();
    api = await startTestServer({ workers: 1, backend: "postgres", schema, runJobs: false, maxQueue: 3 });
  });
  after(async () => {
    await api.stop(true);
    await rm(api.dataDir, { recursive: true, force: true });
    await schema.drop();
  });

  test("the bound counts every process's jobs and lifts once workers catch up", async () => {
    // Each test server sets the shared bootstrap client's secret to its own: take this token first.
    const token = await api.token();
    const accepted = await fillAndCheckRefusals(api, 3);
    // A second API process on the same database sees the same full queue.
    const other = await startTestServer({ workers: 1, backend: "postgres", schema, runJobs: false, maxQueue: 3 });
    try {
      assertQueueFull(await upload(other, await other.token(), uploadForm(pdf, FORM)));
    } finally {
      await other.stop(true);
      await rm(other.dataDir, { recursive: true, force: true });
    }
    // A process that works jobs drains the queue ...
    const worker = await startTestServer({ workers: 1, backend: "postgres", schema, maxQueue: 3 });
    try {
      for (const fileId of accepted) {
        const res = await requestJson(`${api.url}/result/final/${fileId}`, { token });
        assert.equal(res.body.status, "FINALISED", JSON.stringify(res.body));
      }
      // ... and uploads are accepted again once the count is refreshed (at most a second later).
      let res = await upload(api, token, uploadForm(pdf, FORM));
      for (let i = 0; i < 50 && res.status === 503; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        res = await upload(api, token, uploadForm(pdf, FORM));
      }
      assert.equal(res.status, 200, JSON.stringify(res.body));
    } finally {
      await worker.stop(true);
      await rm(worker.dataDir, { recursive: true, force: true });
    }
  });
});
