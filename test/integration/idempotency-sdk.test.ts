/**
 * The SDK's upload retries are safe: a tiny node:http proxy in front of a real server forwards the first upload,
 * lets the server store it, then loses the answer (502, or the connection dropped). The SDK sends the same
 * Idempotency-Key again and ends with the first upload's receipt: one file, one blob.
 */
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { DocsiftClient } from "../../src/client/index.js";
import { invoicePdf, startTestServer, type TestServer } from "../helpers/server.js";

/** What to do with the answer to the first upload after it reached the server. */
type Loss = "502" | "drop" | "none";

interface Proxy {
  url: string;
  loss: Loss;
  /** Idempotency-Key of every upload request, in order. */
  keys: string[];
  /** Bodies the server answered to the uploads whose answers were lost. */
  lost: string[];
  close(): Promise<void>;
}

async function startProxy(upstream: string): Promise<Proxy> {
  const proxy: Proxy = { url: "", loss: "none", keys: [], lost: [], close: async () => undefined };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const isUpload = req.method === "POST" && (req.url ?? "").startsWith("/fileupload");
    if (isUpload) proxy.keys.push(String(req.headers["idempotency-key"]));
    const loss = isUpload ? proxy.loss : "none";
    if (isUpload) proxy.loss = "none";
    const target = new URL(req.url ?? "/", upstream);
    const forward = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (up) => {
      if (loss === "none") {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
        return;
      }
      // The server answered (the file is stored); the client never learns it.
      const chunks: Buffer[] = [];
      up.on("data", (c: Buffer) => chunks.push(c));
      up.on("end", () => {
        proxy.lost.push(Buffer.concat(chunks).toString());
        if (loss === "drop") {
          req.socket.destroy();
          return;
        }
        res.writeHead(502, { "content-type": "text/plain" });
        res.end("bad gateway (from the test proxy)");
      });
    });
    forward.once("error", () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

let server: TestServer;
let proxy: Proxy;
let sdk: DocsiftClient;
let pdf: Uint8Array;

before(async () => {
  server = await startTestServer({ workers: 1 });
  proxy = await startProxy(server.url);
  const credentials = await server.newClient({ name: "sdk-idempotency" });
  sdk = new DocsiftClient({ baseUrl: proxy.url, ...credentials, retryBaseDelayMs: 10 });
  pdf = await invoicePdf({ number: "SDK-IDEM", date: "2024-06-01", total: "42.00" });
});
after(async () => {
  await proxy.close();
  await server.stop();
});

describe("SDK upload retries after a lost answer", () => {
  for (const loss of ["502", "drop"] as const) {
    test(`${loss === "502" ? "a 502" : "a dropped connection"} after the server stored the file: one file, the first receipt`, async () => {
      proxy.keys = [];
      proxy.lost = [];
      const blobs = await server.blobCount();
      proxy.loss = loss;
      const upload =
        loss === "502"
          ? sdk.upload(Buffer.from(pdf), { fieldSet: "invoice" })
          : sdk.uploadBase64(Buffer.from(pdf).toString("base64"), { fieldSet: "invoice" });
      const receipt = await upload;
      const [lost] = proxy.lost;
      assert.ok(lost, "the first answer was lost");
      assert.deepEqual(receipt, JSON.parse(lost), "the retry answered the stored upload's receipt");
      assert.equal(proxy.keys.length, 2);
      assert.equal(proxy.keys[0], proxy.keys[1], "the retry carried the call's key");
      assert.equal(await server.blobCount(), blobs + 1, "one file stored");
      const result = await sdk.waitForResult(receipt.fileId);
      assert.equal(result.status, "FINALISED");
    });
  }

  test("each call has its own key; a caller's key makes a repeated call find the first upload", async () => {
    proxy.keys = [];
    const a = await sdk.upload(Buffer.from(pdf), { fieldSet: "invoice" });
    const b = await sdk.upload(Buffer.from(pdf), { fieldSet: "invoice" });
    assert.notEqual(a.fileId, b.fileId, "two calls, two uploads");
    assert.notEqual(proxy.keys[0], proxy.keys[1]);
    const key = "batch-7/file-3";
    const c = await sdk.upload(Buffer.from(pdf), { fieldSet: "invoice", idempotencyKey: key });
    const d = await sdk.upload(Buffer.from(pdf), { fieldSet: "invoice", idempotencyKey: key });
    assert.deepEqual(d, c);
    assert.deepEqual(proxy.keys.slice(2), [key, key]);
  });
});
