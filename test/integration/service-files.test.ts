/**
 * Files as resources on a real server, on both backends: GET /files/:id and GET /files (filters, pages), the original
 * bytes, DELETE (result, blobs, a split parent's children; 404 afterwards like an unknown id, also from the result
 * cache), tenant isolation, a delete while the job runs (in this process, and in PostgreSQL mode in another
 * process: nothing comes back), and the retention sweep.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import type { FileInfo } from "../../src/client/index.js";
import { makeImagePdf, scanAsJpeg } from "../helpers/pdf-fixtures.js";
import { createTestSchema } from "../helpers/pg-schema.js";
import {
  getToken,
  invoicePdf,
  requestJson,
  startTestServer,
  type TestBackend,
  type TestServer,
  upload,
  uploadForm,
} from "../helpers/server.js";
import { invoiceBundle, THREE_INVOICES } from "../unit/split-invoices.js";

const SPLIT = {
  fieldSet: "invoice",
  workflowId: "split",
  childWorkflowId: "prediction",
  workflowOptions: JSON.stringify({
    prediction: { childWorkflow: "prediction", childWorkflowOptions: { prediction: { fieldSets: ["invoice"] } } },
  }),
};

/** A scanned PDF that keeps one processing thread busy with OCR for several seconds. */
async function slowScan(): Promise<Uint8Array> {
  const page = await invoicePdf({ number: "SLOW-1", date: "2024-03-01", total: "99.00" });
  const jpeg = await scanAsJpeg(page, 1, 300);
  return makeImagePdf([jpeg, jpeg, jpeg, jpeg]);
}

async function uploadFile(
  server: TestServer,
  token: string,
  bytes: Uint8Array,
  fields: Record<string, string | string[]>,
  fileName = "doc.pdf",
): Promise<string> {
  const res = await upload(server, token, uploadForm(bytes, fields, { fileName }));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return String(res.body.fileId);
}

async function finished(server: TestServer, token: string, fileId: string): Promise<Record<string, unknown>> {
  const res = await requestJson(`${server.url}/result/final/${fileId}`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.status, "FINALISED", JSON.stringify(res.body));
  return res.body;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const info = (server: TestServer, token: string, fileId: string) =>
  requestJson<FileInfo & { error?: string }>(`${server.url}/files/${fileId}`, { token });

/** Every way to reach a file answers 404 not_found, exactly like an id never seen. */
async function assertGone(server: TestServer, token: string, fileId: string): Promise<void> {
  for (const [method, path] of [
    ["GET", `/files/${fileId}`],
    ["GET", `/files/${fileId}/original`],
    ["GET", `/result/final/${fileId}?timeout=0`],
    ["GET", `/result/image/${fileId}`],
    ["DELETE", `/files/${fileId}`],
  ] as const) {
    const res = await requestJson(`${server.url}${path}`, { method, token });
    assert.equal(res.status, 404, `${method} ${path}: ${JSON.stringify(res.body)}`);
    assert.deepEqual(res.body, { error: "not_found", message: "No file with this id." }, `${method} ${path}`);
  }
}

/** Whether the store still holds the file's row (the repositories' own view, on either backend). */
async function stored(server: TestServer, fileId: string): Promise<boolean> {
  return (await server.service.store.files.getForJob(fileId)) !== undefined;
}

for (const backend of ["sqlite", "postgres"] as TestBackend[]) {
  describe(`files as resources (${backend})`, () => {
    let server: TestServer;
    let token: string;

    before(async () => {
      server = await startTestServer({ backend, workers: 1 });
      token = await server.token();
    });
    after(() => server.stop());

    test("GET /files/:id describes a file; repeated tags and parentDocId are kept", async () => {
      const pdf = await invoicePdf({ number: "F-1", date: "2024-01-02", total: "12.00" });
      const fileId = await uploadFile(
        server,
        token,
        pdf,
        { fieldSet: "invoice", tags: ["alpha", "beta, with comma"], parentDocId: "ext-42" },
        "first.pdf",
      );
      await finished(server, token, fileId);
      const res = await info(server, token, fileId);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const { uploadedAt, finalisedAt, ...rest } = res.body;
      assert.deepEqual(rest, {
        fileId,
        fileName: "first.pdf",
        status: "FINALISED",
        pages: 1,
        tags: ["alpha", "beta, with comma"],
        workflowId: "prediction",
        parentId: null,
        parentDocId: "ext-42",
        children: [],
      });
      assert.ok(finalisedAt && Date.parse(finalisedAt) >= Date.parse(uploadedAt));

      const jsonTags = await uploadFile(server, token, pdf, { fieldSet: "invoice", tags: '["x","y"]' });
      assert.deepEqual((await info(server, token, jsonTags)).body.tags, ["x", "y"]);
    });

    test("GET /files lists newest first, filters by status, tag and since, and pages with a cursor", async () => {
      const pdf = await invoicePdf({ number: "L-1", date: "2024-01-03", total: "5.00" });
      const since = new Date().toISOString();
      const ids: string[] = [];
      for (const tag of ["list-a", "list-b", "list-a"]) {
        ids.push(await uploadFile(server, token, pdf, { fieldSet: "invoice", tags: [tag, "list"] }));
      }
      for (const id of ids) await finished(server, token, id);
      const list = async (query: string) => {
        const res = await requestJson<{ files: FileInfo[]; next: string | null }>(`${server.url}/files?${query}`, {
          token,
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body;
      };
      const recent = await list(`since=${encodeURIComponent(since)}`);
      assert.deepEqual(
        recent.files.map((f) => f.fileId),
        [...ids].reverse(),
      );
      assert.equal(recent.next, null);
      assert.deepEqual(
        (await list("tag=list-a")).files.map((f) => f.fileId),
        [ids[2], ids[0]],
      );
      assert.equal((await list("tag=list-c")).files.length, 0);
      assert.ok((await list("status=FINALISED")).files.some((f) => f.fileId === ids[0]));
      assert.equal((await list("status=FAILED")).files.length, 0);

      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await list(`tag=list&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        assert.ok(page.files.length <= 2);
        seen.push(...page.files.map((f) => f.fileId));
        cursor = page.next;
      } while (cursor !== null);
      assert.deepEqual(seen, [...ids].reverse());
      const bad = await requestJson(`${server.url}/files?cursor=nonsense`, { token });
      assert.equal(bad.status, 400);
    });

    test("GET /files/:id/original answers the uploaded bytes with their type and name", async () => {
      const pdf = await invoicePdf({ number: "O-1", date: "2024-01-04", total: "7.00" });
      const fileId = await uploadFile(server, token, pdf, { fieldSet: "invoice" }, "Rechnung März.pdf");
      const res = await fetch(`${server.url}/files/${fileId}/original`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "application/pdf");
      assert.match(res.headers.get("content-disposition") ?? "", /filename\*=UTF-8''Rechnung%20M%C3%A4rz\.pdf/);
      assert.deepEqual(new Uint8Array(await res.arrayBuffer()), pdf);
    });

    test("another tenant's file is 404 for get, original and delete, and absent from its list", async () => {
      const pdf = await invoicePdf({ number: "T-1", date: "2024-01-05", total: "8.00" });
      const fileId = await uploadFile(server, token, pdf, { fieldSet: "invoice" });
      const stranger = await server.newClient({ name: "stranger" });
      const theirs = await getToken(server.url, stranger.clientId, stranger.clientSecret);
      await assertGone(server, theirs, fileId);
      const list = await requestJson<{ files: FileInfo[] }>(`${server.url}/files`, { token: theirs });
      assert.deepEqual(list.body.files, []);
      assert.equal((await info(server, token, fileId)).status, 200, "the owner still has it");
    });

    test("DELETE removes the file, its result and blob; afterwards it is 404 everywhere, a repeat included", async () => {
      const pdf = await invoicePdf({ number: "D-1", date: "2024-01-06", total: "9.00" });
      const fileId = await uploadFile(server, token, pdf, { fieldSet: "invoice" });
      await finished(server, token, fileId);
      // Fetched twice: the second answer comes from the finished-result cache, which the delete must empty.
      await finished(server, token, fileId);
      const blobs = await server.blobCount();
      const res = await requestJson(`${server.url}/files/${fileId}`, { method: "DELETE", token });
      assert.equal(res.status, 204);
      await assertGone(server, token, fileId);
      assert.equal(await server.blobCount(), blobs - 1);
      assert.equal(await stored(server, fileId), false);
    });

    test("deleting a split parent removes its children; a child's original is its own PDF", async () => {
      const bundle = await invoiceBundle(THREE_INVOICES.slice(0, 2));
      const parentId = await uploadFile(server, token, bundle, SPLIT, "bundle.pdf");
      await finished(server, token, parentId);
      const parent = (await info(server, token, parentId)).body;
      assert.equal(parent.workflowId, "split");
      assert.equal(parent.children.length, 2);
      for (const childId of parent.children) {
        const child = await finished(server, token, childId);
        assert.equal(child.fileId, childId);
        const described = (await info(server, token, childId)).body;
        assert.equal(described.parentId, parentId);
        const original = await fetch(`${server.url}/files/${childId}/original`, {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(original.headers.get("content-type"), "application/pdf");
        const bytes = new Uint8Array(await original.arrayBuffer());
        assert.equal(Buffer.from(bytes.subarray(0, 5)).toString(), "%PDF-");
        assert.ok(bytes.byteLength < bundle.byteLength);
      }
      const blobs = await server.blobCount();
      const res = await requestJson(`${server.url}/files/${parentId}`, { method: "DELETE", token });
      assert.equal(res.status, 204);
      await assertGone(server, token, parentId);
      for (const childId of parent.children) await assertGone(server, token, childId);
      assert.equal(await server.blobCount(), blobs - 3);
    });

    test("a file deleted while its job runs never comes back", { timeout: 180_000 }, async () => {
      const fileId = await uploadFile(server, token, await slowScan(), { fieldSet: "invoice" });
      await waitFor("the job to start", async () => (await info(server, token, fileId)).body.status === "IN PROGRESS");
      const res = await requestJson(`${server.url}/files/${fileId}`, { method: "DELETE", token });
      assert.equal(res.status, 204);
      // One processing thread: this file finishes only once the deleted file's job has ended.
      const next = await uploadFile(
        server,
        token,
        await invoicePdf({ number: "N-1", date: "2024-01-07", total: "1.00" }),
        {
          fieldSet: "invoice",
        },
      );
      await finished(server, token, next);
      await assertGone(server, token, fileId);
      assert.equal(await stored(server, fileId), false);
    });
  });
}

describe("PostgreSQL: a job in another process finds its file deleted and writes nothing", () => {
  test("API process deletes, the worker process's job ends without resurrecting it", { timeout: 180_000 }, async () => {
    const schema = await createTestSchema();
    const api = await startTestServer({ backend: "postgres", schema, runJobs: false, workers: 1 });
    // Same data dir (signing key); the last start sets the bootstrap client's secret, so its token serves both.
    const worker = await startTestServer({ backend: "postgres", schema, workers: 1, dataDir: api.dataDir });
    try {
      const token = await worker.token();
      const fileId = await uploadFile(api, token, await slowScan(), { fieldSet: "invoice" });
      await waitFor(
        "the worker to start the job",
        async () => (await info(api, token, fileId)).body.status === "IN PROGRESS",
      );
      assert.equal((await requestJson(`${api.url}/files/${fileId}`, { method: "DELETE", token })).status, 204);
      const next = await uploadFile(
        api,
        token,
        await invoicePdf({ number: "N-2", date: "2024-01-08", total: "2.00" }),
        {
          fieldSet: "invoice",
        },
      );
      await finished(api, token, next);
      await assertGone(api, token, fileId);
      const client = new pg.Client({ connectionString: schema.url });
      await client.connect();
      try {
        for (const [table, column] of [
          ["files", "id"],
          ["results", "file_id"],
          ["blobs", "id"],
        ]) {
          const { rows } = await client.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [fileId]);
          assert.equal(rows[0]?.n, 0, `no ${table} row`);
        }
      } finally {
        await client.end();
      }
    } finally {
      await worker.stop(true);
      await api.stop();
    }
  });
});

for (const backend of ["sqlite", "postgres"] as TestBackend[]) {
  describe(`retention (${backend})`, () => {
    test("files older than DOCSIFT_RETENTION_DAYS are deleted in the background and counted", {
      timeout: 60_000,
    }, async () => {
      // Three seconds, in days: the sweep then runs every second.
      const server = await startTestServer({ backend, workers: 1, retentionDays: 3 / 86_400 });
      try {
        const token = await server.token();
        const fileId = await uploadFile(
          server,
          token,
          await invoicePdf({ number: "R-1", date: "2024-01-09", total: "3.00" }),
          {
            fieldSet: "invoice",
          },
        );
        assert.equal((await info(server, token, fileId)).status, 200, "kept while young");
        await waitFor("the sweep", async () => (await info(server, token, fileId)).status === 404, 30_000);
        await assertGone(server, token, fileId);
        assert.equal(await server.blobCount(), 0);
        const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
        assert.match(await metrics.text(), /^docsift_retention_deleted_files_total 1$/m);
      } finally {
        await server.stop();
      }
    });
  });
}
