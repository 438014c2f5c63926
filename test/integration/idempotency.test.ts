/**
 * The Idempotency-Key of the upload routes, over real HTTP on both backends: a repeated upload answers its original
 * receipt and stores and queues nothing; other content under the same key is 409; keys are per client, checked for
 * form, and expire after 24 hours; concurrent requests with one key make exactly one file. The rows are read (and,
 * for the expiry, aged) with SQL on the server's own database.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import SQLite from "better-sqlite3";
import pg from "pg";
import { createTestSchema, type TestSchema } from "../helpers/pg-schema.js";
import {
  getToken,
  invoicePdf,
  type JsonResponse,
  requestJson,
  startTestServer,
  type TestBackend,
  type TestServer,
  uploadForm,
} from "../helpers/server.js";

/** SQL on the server's database; `?` placeholders in both dialects. */
interface Sql {
  rows(text: string, params: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

async function openSql(backend: TestBackend, dataDir: string, schema: TestSchema | undefined): Promise<Sql> {
  if (backend === "postgres" && schema) {
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    return {
      rows: async (text, params) => {
        let n = 0;
        const res = await client.query(
          text.replace(/\?/g, () => `$${++n}`),
          params,
        );
        return res.rows as Record<string, unknown>[];
      },
      close: () => client.end(),
    };
  }
  const db = new SQLite(join(dataDir, "docsift.sqlite"));
  db.pragma("busy_timeout = 5000");
  return {
    rows: async (text, params) => {
      const statement = db.prepare(text);
      if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
      statement.run(...params);
      return [];
    },
    close: async () => {
      db.close();
    },
  };
}

const HOUR = 3600_000;

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`Idempotency-Key (${backend})`, () => {
    let server: TestServer;
    let schema: TestSchema | undefined;
    let sql: Sql;
    let token: string;
    let pdf: Uint8Array;
    let otherPdf: Uint8Array;
    const form = { fieldSet: "invoice", locale: "en-GB" };

    before(async () => {
      schema = backend === "postgres" ? await createTestSchema() : undefined;
      server = await startTestServer({ backend, schema, workers: 1, resultWaitMs: 20_000 });
      sql = await openSql(backend, server.dataDir, schema);
      token = await server.token();
      pdf = await invoicePdf({ number: "IDEM-1", date: "2024-05-01", total: "10.00" });
      otherPdf = await invoicePdf({ number: "IDEM-2", date: "2024-05-01", total: "20.00" });
    });
    after(async () => {
      await sql.close();
      await server.stop();
    });

    const send = (key: string | undefined, bytes = pdf, fields: Record<string, string> = form, as = token) =>
      requestJson(`${server.url}/fileupload/`, {
        method: "POST",
        token: as,
        headers: key === undefined ? {} : { "idempotency-key": key },
        body: uploadForm(bytes, fields),
      });
    const sendJson = (key: string, bytes = pdf) =>
      requestJson(`${server.url}/fileupload/json`, {
        method: "POST",
        token,
        headers: { "idempotency-key": key, "content-type": "application/json" },
        body: JSON.stringify({
          fileToUpload: Buffer.from(bytes).toString("base64"),
          fileName: "document.pdf",
          fieldSets: ["invoice"],
          locale: "en-gb",
        }),
      });
    const filesWithKey = async (key: string) =>
      (await sql.rows("SELECT id FROM files WHERE idempotency_key = ?", [key])).map((r) => String(r.id));
    const fileCount = async () => Number((await sql.rows("SELECT count(*) AS n FROM files", []))[0]?.n);
    const ok = (res: JsonResponse) => assert.equal(res.status, 200, JSON.stringify(res.body));

    test("the same key and content answer the original receipt and store nothing new", async () => {
      const first = await send("order-17/invoice");
      ok(first);
      assert.equal(first.headers.get("idempotent-replayed"), null);
      const files = await fileCount();
      const blobs = await server.blobCount();

      const again = await send("order-17/invoice");
      ok(again);
      assert.deepEqual(again.body, first.body, "same fileId, uploadedAt and status");
      assert.equal(again.headers.get("idempotent-replayed"), "true");
      // The JSON route with the same bytes and the same parameters (written differently) is the same upload.
      const json = await sendJson("order-17/invoice");
      ok(json);
      assert.deepEqual(json.body, first.body);
      assert.equal(json.headers.get("idempotent-replayed"), "true");

      // Once processed, a replay still answers the receipt (RECEIVED); the result is where progress shows.
      const result = await requestJson(`${server.url}/result/final/${first.body.fileId}`, { token });
      assert.equal(result.body.status, "FINALISED", JSON.stringify(result.body));
      const late = await send("order-17/invoice");
      assert.deepEqual(late.body, first.body);
      assert.equal(await fileCount(), files);
      assert.equal(await server.blobCount(), blobs);
      assert.deepEqual(await filesWithKey("order-17/invoice"), [first.body.fileId]);
      if (schema) {
        // The shared queue keeps its jobs: the file was queued once, the replays queued nothing.
        const jobs = await sql.rows(`SELECT count(*) AS n FROM ${schema.name}_pgboss.job WHERE data->>'fileId' = ?`, [
          first.body.fileId,
        ]);
        assert.equal(Number(jobs[0]?.n), 1);
      }
    });

    test("the same key with other bytes or other parameters is 409 naming the key; nothing is stored", async () => {
      ok(await send("k-conflict"));
      const files = await fileCount();
      const blobs = await server.blobCount();
      for (const res of [
        await send("k-conflict", otherPdf),
        await send("k-conflict", pdf, { ...form, locale: "de-DE" }),
        await send("k-conflict", pdf, { products: "invoices" }),
      ]) {
        assert.equal(res.status, 409, JSON.stringify(res.body));
        assert.equal(res.body.error, "conflict");
        assert.match(String(res.body.message), /k-conflict/);
      }
      assert.equal(await fileCount(), files);
      assert.equal(await server.blobCount(), blobs);
    });

    test("keys must be 1-255 visible ASCII characters", async () => {
      const files = await fileCount();
      for (const bad of ["", "a".repeat(256), "two words", "caf\u00e9"]) {
        const res = await send(bad);
        assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error, "bad_request");
        assert.match(String(res.body.message), /idempotency-key/i);
      }
      assert.equal(await fileCount(), files);
      ok(await send(`~!${"k".repeat(253)}`));
      ok(await send(undefined));
    });

    test("keys are per client: another client's same key is its own upload", async () => {
      const first = await send("shared-key");
      ok(first);
      const other = await server.newClient({ name: `other-${backend}` });
      const otherToken = await getToken(server.url, other.clientId, other.clientSecret);
      const theirs = await send("shared-key", pdf, form, otherToken);
      ok(theirs);
      assert.notEqual(theirs.body.fileId, first.body.fileId);
      assert.equal(theirs.headers.get("idempotent-replayed"), null);
    });

    test("concurrent requests with one key make exactly one file; every one answers its receipt", async () => {
      const files = await fileCount();
      const blobs = await server.blobCount();
      const answers = await Promise.all(Array.from({ length: 6 }, () => send("k-race", otherPdf)));
      for (const res of answers) ok(res);
      const ids = new Set(answers.map((r) => r.body.fileId));
      assert.equal(ids.size, 1, JSON.stringify(answers.map((r) => r.body)));
      assert.equal(answers.filter((r) => r.headers.get("idempotent-replayed") === null).length, 1);
      assert.equal(await fileCount(), files + 1);
      assert.equal(await server.blobCount(), blobs + 1, "the losers removed their blobs");
    });

    test("after 24 hours the key is free: the same request is a new upload", async () => {
      const first = await send("k-expiring");
      ok(first);
      const aged = new Date(Date.now() - 25 * HOUR).toISOString();
      await sql.rows("UPDATE files SET uploaded_at = ? WHERE id = ?", [aged, first.body.fileId]);
      const second = await send("k-expiring");
      ok(second);
      assert.notEqual(second.body.fileId, first.body.fileId);
      assert.equal(second.headers.get("idempotent-replayed"), null);
      assert.deepEqual(await filesWithKey("k-expiring"), [second.body.fileId], "the key moved to the new upload");
      const third = await send("k-expiring");
      assert.deepEqual(third.body, second.body);
      assert.equal(third.headers.get("idempotent-replayed"), "true");
    });

    test("OpenAPI documents the header on both upload routes", async () => {
      const spec = await requestJson<{
        paths: Record<string, { post?: { parameters?: { name: string; in: string }[] } }>;
      }>(`${server.url}/openapi.json`);
      for (const path of ["/fileupload/", "/fileupload/json"]) {
        const params = spec.body.paths[path]?.post?.parameters ?? [];
        assert.ok(
          params.some((p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key"),
          `${path}: ${JSON.stringify(params)}`,
        );
      }
    });
  });
}
