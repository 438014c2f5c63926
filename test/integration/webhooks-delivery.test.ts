/**
 * One delivery attempt against a real receiver on 127.0.0.1: the target is checked again at delivery, on the address
 * the socket then uses (a host that resolved to a public address at creation and to loopback now is refused), a
 * redirect is a failure and is not followed, a slow receiver times out, and a large answer is not read to its end.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { postSigned } from "../../src/webhooks/http-send.js";

let server: Server;
let port: number;
let redirectFollowed = false;

before(async () => {
  server = createServer((req, res) => {
    req.resume();
    if (req.url === "/redirect") res.writeHead(307, { location: "/followed" }).end();
    else if (req.url === "/followed") {
      redirectFollowed = true;
      res.writeHead(200).end();
    } else if (req.url === "/slow") setTimeout(() => res.writeHead(200).end(), 2000).unref();
    else res.writeHead(200).end("x".repeat(1 << 20));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const policy = { allowHttp: true, allowPrivate: false, timeoutMs: 1000 };

test("a host resolving to loopback at delivery time is refused before any connection", async () => {
  for (const host of ["localhost", "127.0.0.1"]) {
    const result = await postSigned(`http://${host}:${port}/`, "{}", {}, policy);
    assert.equal(result.ok, false);
    assert.equal(result.statusCode, null);
    assert.match(String(result.error), /resolves to 127\.0\.0\.1/);
  }
  const allowed = await postSigned(`http://localhost:${port}/`, "{}", {}, { ...policy, allowPrivate: true });
  assert.deepEqual(allowed, { ok: true, statusCode: 200, error: null }, "a 1 MiB answer does not hold the attempt");
});

test("redirects are failures and are not followed; a slow receiver times out", async () => {
  const open = { ...policy, allowPrivate: true };
  const redirected = await postSigned(`http://127.0.0.1:${port}/redirect`, "{}", {}, open);
  assert.deepEqual(redirected, { ok: false, statusCode: 307, error: "answered HTTP 307" });
  assert.equal(redirectFollowed, false);
  const slow = await postSigned(`http://127.0.0.1:${port}/slow`, "{}", {}, open);
  assert.equal(slow.ok, false);
  assert.match(String(slow.error), /no answer within 1000 ms/);
});
