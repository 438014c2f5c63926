/**
 * The SDK against a real docsift server on a random port: every call the server serves today, typed errors with the
 * service's codes, and the token lifecycle (lazy, cached, renewed before expiry by the SDK's clock).
 */
import assert from "node:assert/strict";
import { createReadStream } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { DocsiftApiError, DocsiftClient, type FinalResult } from "../../src/client/index.js";
import { invoicePdf, startTestServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
let client: DocsiftClient;
let dir: string;

before(async () => {
  server = await startTestServer({ workers: 1 });
  client = new DocsiftClient({ baseUrl: server.url, ...server.admin });
  dir = await mkdtemp(join(tmpdir(), "docsift-sdk-"));
});
after(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

function fieldValue(result: FinalResult, name: string): unknown {
  assert.equal(result.status, "FINALISED", JSON.stringify(result));
  return result.status === "FINALISED" ? result.results.fields.find((f) => f.name === name)?.value : undefined;
}

async function rejectsWith(promise: Promise<unknown>, status: number, code: string): Promise<DocsiftApiError> {
  const err = await promise.then(
    () => assert.fail(`expected ${status} ${code}`),
    (e: unknown) => e,
  );
  assert.ok(err instanceof DocsiftApiError, String(err));
  assert.equal(err.status, status, err.message);
  assert.equal(err.code, code, err.message);
  assert.ok(err.message.length > 0);
  return err;
}

describe("files", () => {
  test("upload from a path, Buffer, Uint8Array and stream; every result carries its own document's values", async () => {
    const pdf = async (number: string) => invoicePdf({ number, date: "2024-03-15", total: "42.00" });
    const path = join(dir, "by-path.pdf");
    await writeFile(path, await pdf("P-100"));
    const streamed = join(dir, "streamed.pdf");
    await writeFile(streamed, await pdf("S-400"));
    const receipts = await Promise.all([
      client.upload(path, { fieldSet: "invoice" }),
      client.upload(Buffer.from(await pdf("B-200")), { fieldSets: ["invoice"], fileName: "b.pdf" }),
      client.upload(new Uint8Array(await pdf("U-300")), { products: ["invoices"], locale: "en-GB", tags: "sdk" }),
      client.upload(createReadStream(streamed), { fieldSet: "invoice" }),
    ]);
    for (const receipt of receipts) {
      assert.match(receipt.fileId, /^[0-9a-f-]{36}$/);
      assert.equal(receipt.status, "RECEIVED");
      assert.match(receipt.uploadedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    const results = await Promise.all(receipts.map((r) => client.waitForResult(r.fileId)));
    assert.deepEqual(
      results.map((r) => fieldValue(r, "invoice.number")),
      ["P-100", "B-200", "U-300", "S-400"],
    );
    // A product brings all its field sets.
    const products = results[2];
    assert.ok(products?.status === "FINALISED" && products.results.fields.some((f) => f.name === "supplier.name"));
  });

  test("uploadBase64 then result(): the blocking result is FINALISED with the fields of the field set", async () => {
    const pdf = await invoicePdf({ number: "B64-1", date: "2024-05-01", total: "10.00" });
    const receipt = await client.uploadBase64(Buffer.from(pdf).toString("base64"), {
      fieldSets: ["invoice", "document"],
      fileName: "base64.pdf",
    });
    assert.equal(receipt.status, "RECEIVED");
    const result = await client.result(receipt.fileId);
    assert.equal(result.fileId, receipt.fileId);
    assert.equal(result.status, "FINALISED");
    if (result.status !== "FINALISED") return;
    assert.equal(fieldValue(result, "invoice.number"), "B64-1");
    assert.ok(result.results.fields.some((f) => f.name === "document.type"));
    // Finished: timeout 0 answers the same at once.
    assert.deepEqual(await client.result(receipt.fileId, { timeout: 0 }), result);
  });

  test("extract() uploads a scanned receipt and waits through OCR; a short result timeout answers without results", async () => {
    const jpg = await readFile("/work/shared/data/receipts-dev/X51005433514.jpg");
    const receipt = await client.upload(jpg, { products: ["receipts"], fileName: "r.jpg" });
    const early = await client.result(receipt.fileId, { timeout: 50 });
    assert.ok(["RECEIVED", "IN PROGRESS"].includes(early.status), early.status);
    assert.equal("results" in early, false);
    const done = await client.extract(jpg, { products: ["receipts"], fileName: "again.jpg", deadlineMs: 120_000 });
    assert.equal(done.status, "FINALISED");
    assert.notEqual(done.fileId, receipt.fileId);
    assert.ok(typeof fieldValue(done, "receipt.total") === "string");
  });

  test("image() returns the page as PNG; a page past the end is a not_found error", async () => {
    const pdf = await invoicePdf({ number: "IMG-2", date: "2024-01-02", total: "5.00", pages: 2 });
    const done = await client.extract(Buffer.from(pdf), { fieldSet: "invoice" });
    const png = await client.image(done.fileId, 2);
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.ok(png.byteLength > 1000);
    await rejectsWith(client.image(done.fileId, 3), 404, "not_found");
  });

  test("catalog() lists products, field sets and typed fields", async () => {
    const catalog = await client.catalog();
    const invoices = catalog.products.find((p) => p.id === "invoices");
    assert.ok(invoices?.fieldSets.includes("invoice"));
    const total = catalog.fieldSets.flatMap((s) => s.fields).find((f) => f.name === "invoice.total");
    assert.equal(total?.type, "amount");
  });
});

describe("errors carry the service's status and code", () => {
  test("bad form, unknown product, wrong type, unknown file", async () => {
    const pdf = Buffer.from(await invoicePdf({ number: "E-1", date: "2024-01-02", total: "5.00" }));
    await rejectsWith(client.upload(pdf, {}), 400, "bad_request");
    const unknown = await rejectsWith(client.upload(pdf, { products: ["no-such-product"] }), 400, "bad_request");
    assert.match(unknown.message, /no-such-product/);
    assert.match(unknown.requestId ?? "", /^[0-9a-f-]{36}$/);
    await rejectsWith(
      client.upload(Buffer.from("plain text, not a document"), { fieldSet: "invoice" }),
      415,
      "unsupported_type",
    );
    await rejectsWith(client.uploadBase64("%%%not base64%%%", { fieldSet: "invoice" }), 400, "bad_request");
    await rejectsWith(client.result("00000000-0000-4000-8000-000000000000"), 404, "not_found");
  });

  test("wrong secret is invalid_client; a token narrowed to result:all cannot upload (forbidden)", async () => {
    const wrong = new DocsiftClient({
      baseUrl: server.url,
      clientId: server.admin.clientId,
      clientSecret: "wrong-secret",
    });
    await rejectsWith(wrong.catalog(), 401, "invalid_client");
    const reader = new DocsiftClient({ baseUrl: server.url, ...server.admin, scope: "result:all" });
    await rejectsWith(reader.upload(Buffer.from("%PDF-1.4"), { fieldSet: "invoice" }), 403, "forbidden");
  });
});

describe("tokens", () => {
  test("fetched lazily, reused, and renewed before expiry on the SDK's clock", async () => {
    let clock = Date.now();
    const tokenRequests: number[] = [];
    const bearers = new Set<string>();
    // The real global fetch, observed: which requests the SDK sends and with which token.
    const observed: typeof fetch = (input, init) => {
      const url = String(input);
      if (url.endsWith("/oauth2/token")) tokenRequests.push(clock);
      const auth = new Headers(init?.headers).get("authorization");
      if (auth?.startsWith("Bearer ")) bearers.add(auth);
      return fetch(input, init);
    };
    const sdk = new DocsiftClient({ baseUrl: server.url, ...server.admin, fetch: observed, now: () => clock });
    assert.equal(tokenRequests.length, 0, "no token before the first call");
    await Promise.all([sdk.catalog(), sdk.catalog(), sdk.catalog()]);
    assert.equal(tokenRequests.length, 1, "concurrent first calls share one token request");
    clock += 3000 * 1000;
    await sdk.catalog();
    assert.equal(tokenRequests.length, 1, "a token with 10 minutes left is reused");
    clock += 3570 * 1000 - 3000 * 1000;
    await sdk.catalog();
    assert.equal(tokenRequests.length, 2, "a token within the refresh margin is renewed");
    assert.equal(bearers.size, 2);
    assert.equal(await sdk.accessToken(), [...bearers].at(-1)?.slice("Bearer ".length));
  });
});
