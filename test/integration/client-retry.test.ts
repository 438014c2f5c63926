/**
 * Retries and token renewal over real HTTP: a small node:http proxy in front of a real docsift server answers 503
 * (with Retry-After), 429, or drops the connection when told to, and forwards everything else unchanged.
 */
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { DocsiftApiError, DocsiftClient } from "../../src/client/index.js";
import { backoffDelay, DEFAULT_RETRY_POLICY, nextDelay, parseRetryAfter } from "../../src/client/retry.js";
import { invoicePdf, startTestServer, type TestServer } from "../helpers/server.js";
import { retireSigningKeysLongAgo } from "../helpers/signing-keys.js";

interface Seen {
  method: string;
  path: string;
  at: number;
  status: number;
}

interface Proxy {
  url: string;
  upstream: string;
  seen: Seen[];
  /** Answers a request itself when it returns true; the n-th (0-based) request to that path is passed in. */
  intercept: ((req: IncomingMessage, res: ServerResponse, n: number) => boolean) | undefined;
  close(): Promise<void>;
}

async function startProxy(upstream: string): Promise<Proxy> {
  const proxy: Proxy = { url: "", upstream, seen: [], intercept: undefined, close: async () => undefined };
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    const entry: Seen = { method: req.method ?? "GET", path: path.split("?")[0] ?? path, at: Date.now(), status: 0 };
    const n = proxy.seen.filter((s) => s.path === entry.path).length;
    proxy.seen.push(entry);
    res.once("finish", () => {
      entry.status = res.statusCode;
    });
    if (proxy.intercept?.(req, res, n)) {
      req.resume();
      return;
    }
    const target = new URL(path, proxy.upstream);
    const forward = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
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

function answer(res: ServerResponse, status: number, error: string, headers: Record<string, string> = {}): true {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ error, message: `${error} (from the test proxy)` }));
  return true;
}

let server: TestServer;
let proxy: Proxy;
let credentials: { clientId: string; clientSecret: string };

before(async () => {
  server = await startTestServer({ workers: 1 });
  proxy = await startProxy(server.url);
  // A stored client (not the bootstrap one), so it survives the restart of the key-rotation test.
  credentials = await server.newClient({ name: "sdk-retry" });
});
after(async () => {
  await proxy.close();
  await server.stop();
});

const sdk = (options: { retries?: number; retryBaseDelayMs?: number } = {}) =>
  new DocsiftClient({ baseUrl: proxy.url, ...credentials, ...options });

const hits = (path: string) => proxy.seen.filter((s) => s.path === path);

describe("retry policy", () => {
  test("Retry-After is read as seconds or an HTTP date; unreadable is ignored", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    assert.equal(parseRetryAfter("3", now), 3000);
    assert.equal(parseRetryAfter("Thu, 01 Jan 2026 00:00:05 GMT", now), 5000);
    assert.equal(parseRetryAfter("Wed, 31 Dec 2025 23:59:00 GMT", now), 0);
    assert.equal(parseRetryAfter("soon", now), undefined);
    assert.equal(parseRetryAfter(null, now), undefined);
  });

  test("backoff doubles with jitter inside [step/2, step], is capped, and stops after the retries", () => {
    const policy = { retries: 3, baseDelayMs: 100, maxDelayMs: 350 };
    assert.deepEqual(
      [0, 1, 2].map((a) => backoffDelay(a, policy, () => 0)),
      [50, 100, 175],
    );
    assert.deepEqual(
      [0, 1, 2].map((a) => backoffDelay(a, policy, () => 0.999)),
      [100, 200, 350],
    );
    assert.equal(nextDelay(3, undefined, policy), undefined);
    assert.equal(nextDelay(0, 300, policy), 300, "Retry-After wins over the backoff");
    assert.equal(nextDelay(0, 60_000, DEFAULT_RETRY_POLICY), undefined, "a pause beyond the cap ends the retries");
  });
});

describe("retries through the proxy", () => {
  test("a 503 with Retry-After: 1 is retried after a second and the call succeeds", async () => {
    proxy.intercept = (req, res, n) =>
      req.url === "/catalog" && n === 0 && answer(res, 503, "unavailable", { "retry-after": "1" });
    const catalog = await sdk().catalog();
    assert.ok(catalog.products.length > 0);
    const [refused, served] = hits("/catalog");
    assert.equal(refused?.status, 503);
    assert.equal(served?.status, 200);
    assert.ok((served?.at ?? 0) - (refused?.at ?? 0) >= 950, "the retry waited for Retry-After");
  });

  test("an upload refused with a Retry-After HTTP date is sent again, whole, after that date", async () => {
    proxy.seen = [];
    proxy.intercept = (req, res, n) =>
      req.url === "/fileupload/" &&
      n === 0 &&
      answer(res, 503, "shutting_down", { "retry-after": new Date(Date.now() + 2000).toUTCString() });
    const pdf = await invoicePdf({ number: "RETRY-7", date: "2024-02-02", total: "7.00" });
    const client = sdk();
    const receipt = await client.upload(Buffer.from(pdf), { fieldSet: "invoice" });
    const [refused, served] = hits("/fileupload/");
    assert.equal(refused?.status, 503);
    assert.equal(served?.status, 200);
    assert.ok((served?.at ?? 0) - (refused?.at ?? 0) >= 900, "the retry waited until the date");
    const result = await client.result(receipt.fileId);
    assert.ok(result.status === "FINALISED");
    assert.equal(result.results.fields.find((f) => f.name === "invoice.number")?.value, "RETRY-7");
  });

  test("a dropped connection is retried", async () => {
    proxy.seen = [];
    proxy.intercept = (req, _res, n) => {
      if (req.url !== "/catalog" || n > 0) return false;
      req.socket.destroy();
      return true;
    };
    await sdk({ retryBaseDelayMs: 10 }).catalog();
    assert.deepEqual(
      hits("/catalog").map((s) => s.status),
      [0, 200],
    );
  });

  test("attempts are bounded: a steady 429 ends in a rate_limited error after retries + 1 attempts", async () => {
    proxy.seen = [];
    proxy.intercept = (req, res) => req.url === "/catalog" && answer(res, 429, "rate_limited", { "retry-after": "0" });
    const err = await sdk({ retries: 2 })
      .catalog()
      .catch((e: unknown) => e);
    assert.ok(err instanceof DocsiftApiError);
    assert.equal(err.status, 429);
    assert.equal(err.code, "rate_limited");
    assert.equal(hits("/catalog").length, 3);
  });

  test("a Retry-After longer than the longest wait fails at once instead of hanging", async () => {
    proxy.seen = [];
    proxy.intercept = (req, res) =>
      req.url === "/catalog" && answer(res, 503, "unavailable", { "retry-after": "3600" });
    const err = await sdk()
      .catalog()
      .catch((e: unknown) => e);
    assert.ok(err instanceof DocsiftApiError && err.code === "unavailable");
    assert.equal(hits("/catalog").length, 1);
  });

  test("errors that are not transient (404) are not retried", async () => {
    proxy.seen = [];
    proxy.intercept = undefined;
    const err = await sdk()
      .result("00000000-0000-4000-8000-000000000000")
      .catch((e: unknown) => e);
    assert.ok(err instanceof DocsiftApiError && err.code === "not_found");
    assert.equal(hits("/result/final/00000000-0000-4000-8000-000000000000").length, 1);
  });
});

describe("token renewal on 401", () => {
  test("after the server's signing key changes, the refused token is renewed once and the call succeeds", async () => {
    proxy.intercept = undefined;
    const client = sdk();
    await client.catalog();
    const before = await client.accessToken();
    // A new signing key, the old one retired long ago, and a restart on the same data dir: every token the server
    // issued is now refused.
    await retireSigningKeysLongAgo(server);
    await server.stop(true);
    server = await startTestServer({ workers: 1, dataDir: server.dataDir });
    proxy.upstream = server.url;
    proxy.seen = [];
    const catalog = await client.catalog();
    assert.ok(catalog.fieldSets.length > 0);
    assert.deepEqual(
      proxy.seen.map((s) => `${s.path} ${s.status}`),
      ["/catalog 401", "/oauth2/token 200", "/catalog 200"],
    );
    assert.notEqual(await client.accessToken(), before);
  });
});
