import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import {
  getToken,
  invoicePdf,
  requestJson,
  startTestServer,
  type TestServer,
  upload,
  uploadForm,
} from "../helpers/server.js";

interface ResultBody {
  fileId: string;
  status: string;
  results?: {
    timestamp: string;
    fields: { name: string; value: unknown; confidence?: number; boundingBox: unknown }[];
  };
  error?: { error: string; message: string };
}

let server: TestServer;
let token: string;

before(async () => {
  server = await startTestServer({ workers: 2 });
  token = await server.token();
});
after(() => server.stop());

const result = (fileId: string, query = "", as = token) =>
  requestJson<ResultBody>(`${server.url}/result/final/${fileId}${query}`, { token: as });

describe("results", () => {
  test("20 parallel uploads before any fetch all come back FINALISED with their own values", async () => {
    const numbers = Array.from({ length: 20 }, (_, i) => `INV-${2000 + i}`);
    const receipts = await Promise.all(
      numbers.map(async (number) => {
        const pdf = await invoicePdf({ number, date: "2024-06-30", total: "99.00" });
        const res = await upload(server, token, uploadForm(pdf, { fieldSet: "invoice" }));
        assert.equal(res.status, 200);
        return String(res.body.fileId);
      }),
    );
    assert.equal(new Set(receipts).size, 20);
    const results = await Promise.all(receipts.map((id) => result(id)));
    for (const [i, res] of results.entries()) {
      assert.equal(res.status, 200);
      assert.equal(res.body.status, "FINALISED");
      assert.equal(res.body.fileId, receipts[i]);
      assert.match(res.body.results?.timestamp ?? "", /Z$/);
      const number = res.body.results?.fields.find((f) => f.name === "invoice.number");
      assert.equal(number?.value, numbers[i]);
      assert.equal(typeof number?.confidence, "number");
    }
  });

  test("timeout=0 answers at once; without results until FINALISED; the alias path answers the same", async () => {
    const pdfs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => invoicePdf({ number: `T-${i}`, date: "2024-01-02", total: "5.00" })),
    );
    const ids = await Promise.all(
      pdfs.map(async (pdf) =>
        String((await upload(server, token, uploadForm(pdf, { fieldSet: "invoice" }))).body.fileId),
      ),
    );
    const last = ids.at(-1) ?? "";
    const immediate = await result(last, "?timeout=0");
    assert.equal(immediate.status, 200);
    assert.ok(["RECEIVED", "IN PROGRESS", "FINALISED"].includes(immediate.body.status));
    if (immediate.body.status !== "FINALISED") assert.equal(immediate.body.results, undefined);
    const done = await requestJson<ResultBody>(`${server.url}/results/${last}`, { token });
    assert.equal(done.body.status, "FINALISED");
    assert.ok(done.body.results);
    const again = await result(last, "?timeout=0");
    assert.deepEqual(again.body, done.body);
    const badTimeout = await result(last, "?timeout=soon");
    assert.equal(badTimeout.status, 400);
    assert.equal(badTimeout.body.status, undefined);
  });

  test("a scanned receipt goes through OCR; a short timeout answers its status without results first", async () => {
    const jpg = await readFile("/work/shared/data/receipts-dev/X51005433514.jpg");
    const res = await upload(server, token, uploadForm(jpg, { products: "receipts" }, { fileName: "r.jpg" }));
    assert.equal(res.status, 200);
    // OCR of a photo takes far longer than 50 ms: the bounded wait ends first.
    const early = await result(String(res.body.fileId), "?timeout=50");
    assert.equal(early.status, 200);
    assert.ok(["RECEIVED", "IN PROGRESS"].includes(early.body.status), early.body.status);
    assert.equal(early.body.results, undefined);
    const done = await result(String(res.body.fileId));
    assert.equal(done.body.status, "FINALISED");
    assert.ok((done.body.results?.fields.length ?? 0) > 0);
    const metrics = await (
      await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })
    ).text();
    assert.match(metrics, /docsift_pages_total\{source="ocr"\} [1-9]/);
    assert.match(metrics, /docsift_ocr_seconds_total [0-9.]*[1-9]/);
  });

  test("page images: PNG of an existing page, 404 past the last page", async () => {
    const pdf = await invoicePdf({ number: "IMG-1", date: "2024-01-02", total: "5.00", pages: 2 });
    const id = String((await upload(server, token, uploadForm(pdf, { fieldSet: "invoice" }))).body.fileId);
    const page2 = await fetch(`${server.url}/result/image/${id}?page=2`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(page2.status, 200);
    assert.equal(page2.headers.get("content-type"), "image/png");
    const png = new Uint8Array(await page2.arrayBuffer());
    assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    const page3 = await requestJson(`${server.url}/result/image/${id}?page=3`, { token });
    assert.equal(page3.status, 404);
    assert.equal(page3.body.error, "not_found");
  });
});

describe("tenancy and unknown ids", () => {
  test("another tenant's file is 404 exactly like an unknown id; a client of the same tenant sees it", async () => {
    const pdf = await invoicePdf({ number: "TEN-1", date: "2024-01-02", total: "5.00" });
    const id = String((await upload(server, token, uploadForm(pdf, { fieldSet: "invoice" }))).body.fileId);
    await result(id);

    const stranger = await server.newClient({ name: "stranger" });
    const strangerToken = await getToken(server.url, stranger.clientId, stranger.clientSecret);
    const theirs = await result(id, "", strangerToken);
    const unknown = await result("00000000-0000-4000-8000-000000000000", "", strangerToken);
    const malformed = await result("not-a-uuid", "", strangerToken);
    assert.equal(theirs.status, 404);
    assert.deepEqual(theirs.body, unknown.body);
    assert.deepEqual(malformed.body, unknown.body);
    assert.equal(unknown.body.error, "not_found" as unknown);
    const image = await requestJson(`${server.url}/result/image/${id}`, { token: strangerToken });
    assert.equal(image.status, 404);

    const me = await server.service.store.clients.get(server.admin.clientId);
    const colleague = await server.newClient({ name: "colleague", tenantId: me?.tenantId });
    const colleagueToken = await getToken(server.url, colleague.clientId, colleague.clientSecret);
    const shared = await result(id, "", colleagueToken);
    assert.equal(shared.status, 200);
    assert.equal(shared.body.status, "FINALISED");
  });

  test("an unknown route is 404 not_found in the error shape", async () => {
    const res = await requestJson(`${server.url}/nothing/here`, { token });
    assert.equal(res.status, 404);
    assert.equal(res.body.error, "not_found");
    assert.equal(typeof res.body.message, "string");
  });
});

describe("documentation", () => {
  test("OpenAPI 3.1 lists the routes with their scopes; Swagger UI is served at /docs", async () => {
    const spec = await requestJson<{ openapi: string; paths: Record<string, Record<string, { security?: unknown }>> }>(
      `${server.url}/openapi.json`,
    );
    assert.equal(spec.status, 200);
    assert.equal(spec.body.openapi, "3.1.0");
    for (const path of ["/oauth2/token", "/fileupload/", "/fileupload/json", "/result/final/{fileId}", "/catalog"]) {
      assert.ok(spec.body.paths[path], `missing ${path}`);
    }
    const uploadOp = spec.body.paths["/fileupload/"]?.post as {
      security?: unknown;
      requestBody?: { content?: object };
    };
    assert.deepEqual(uploadOp.security, [{ oauth2: ["fileupload:all"] }]);
    assert.ok(uploadOp.requestBody?.content && "multipart/form-data" in uploadOp.requestBody.content);
    const docs = await fetch(`${server.url}/docs/`);
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /swagger/i);
  });
});
