import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { generateKeyPair, importJWK, SignJWT } from "jose";
import { getToken, requestJson, startTestServer, type TestServer } from "../helpers/server.js";
import { serverSigningKey } from "../helpers/signing-keys.js";

let server: TestServer;

before(async () => {
  server = await startTestServer({ workers: 1 });
});
after(() => server.stop());

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
}

/** Signs claims with the server's own key (read from its store), to make tokens the server would never issue. */
async function signWithServerKey(claims: Record<string, unknown>, exp: number): Promise<string> {
  const file = await serverSigningKey(server);
  const key = await importJWK(file.privateJwk, "EdDSA");
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "EdDSA", kid: file.kid })
    .setIssuer("docsift")
    .setSubject(server.admin.clientId)
    .setIssuedAt(exp - 3600)
    .setExpirationTime(exp)
    .sign(key);
}

describe("POST /oauth2/token", () => {
  test("HTTP Basic with a form body issues a Bearer JWT with the client's scopes", async () => {
    const res = await requestJson(`${server.url}/oauth2/token`, {
      method: "POST",
      headers: { authorization: basic(server.admin.clientId, server.admin.clientSecret) },
      body: new URLSearchParams({ grant_type: "client_credentials", audience: "ignored" }),
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.token_type, "Bearer");
    assert.equal(res.body.expires_in, 3600);
    assert.equal(res.body.scope, "fileupload:all result:all validate:annotation metrics:read webhooks:manage");
    assert.equal(String(res.body.access_token).split(".").length, 3);
    assert.equal(res.headers.get("cache-control"), "no-store");
  });

  test("credentials in a form body and in a JSON body work too", async () => {
    const form = await requestJson(`${server.url}/oauth2/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: server.admin.clientId,
        client_secret: server.admin.clientSecret,
      }),
    });
    assert.equal(form.status, 200);
    const json = await requestJson(`${server.url}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        grant_type: "client_credentials",
        client_id: server.admin.clientId,
        client_secret: server.admin.clientSecret,
      }),
    });
    assert.equal(json.status, 200);
    assert.ok(json.body.access_token);
  });

  test("a wrong secret, an unknown client and missing credentials are 401 invalid_client", async () => {
    for (const auth of [basic(server.admin.clientId, "wrong-secret"), basic("nobody", "whatever-secret")]) {
      const res = await requestJson(`${server.url}/oauth2/token`, {
        method: "POST",
        headers: { authorization: auth },
        body: new URLSearchParams({ grant_type: "client_credentials" }),
      });
      assert.equal(res.status, 401);
      assert.equal(res.body.error, "invalid_client");
      assert.equal(typeof res.body.message, "string");
    }
    const none = await requestJson(`${server.url}/oauth2/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "client_credentials" }),
    });
    assert.equal(none.status, 401);
    assert.equal(none.body.error, "invalid_client");
  });

  test("another grant type is 400 bad_request", async () => {
    const res = await requestJson(`${server.url}/oauth2/token`, {
      method: "POST",
      headers: { authorization: basic(server.admin.clientId, server.admin.clientSecret) },
      body: new URLSearchParams({ grant_type: "password" }),
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, "bad_request");
  });

  test("a revoked client gets no token and its existing tokens stop working", async () => {
    const client = await server.newClient({ name: "short-lived" });
    const token = await getToken(server.url, client.clientId, client.clientSecret);
    assert.equal((await requestJson(`${server.url}/catalog`, { token })).status, 200);
    assert.equal(await server.service.store.clients.revoke(client.clientId), true);
    await assert.rejects(getToken(server.url, client.clientId, client.clientSecret), /invalid_client/);
    // A fresh server-side check happens within seconds; a new token string is verified at once.
    const other = await server.newClient({ name: "other" });
    const otherToken = await getToken(server.url, other.clientId, other.clientSecret);
    await server.service.store.clients.revoke(other.clientId);
    const res = await requestJson(`${server.url}/catalog`, { token: otherToken });
    assert.equal(res.status, 401);
    assert.equal(res.body.error, "invalid_token");
  });
});

describe("Bearer tokens on API routes", () => {
  test("no token is 401 unauthorized with WWW-Authenticate", async () => {
    const res = await requestJson(`${server.url}/catalog`);
    assert.equal(res.status, 401);
    assert.equal(res.body.error, "unauthorized");
    assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer/);
  });

  test("a malformed token is 401 invalid_token", async () => {
    const res = await requestJson(`${server.url}/catalog`, { token: "not.a.jwt" });
    assert.equal(res.status, 401);
    assert.equal(res.body.error, "invalid_token");
  });

  test("an expired token is 401 invalid_token", async () => {
    const me = await server.service.store.clients.get(server.admin.clientId);
    assert.ok(me);
    const expired = await signWithServerKey(
      { scope: "result:all", tid: me.tenantId },
      Math.floor(Date.now() / 1000) - 60,
    );
    const res = await requestJson(`${server.url}/catalog`, { token: expired });
    assert.equal(res.status, 401);
    assert.equal(res.body.error, "invalid_token");
    assert.match(String(res.body.message), /expired/);
  });

  test("a token signed by another key (same kid) is rejected", async () => {
    const me = await server.service.store.clients.get(server.admin.clientId);
    assert.ok(me);
    const file = await serverSigningKey(server);
    const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519" });
    const forged = await new SignJWT({ scope: "result:all fileupload:all", tid: me.tenantId })
      .setProtectedHeader({ alg: "EdDSA", kid: file.kid })
      .setIssuer("docsift")
      .setSubject(server.admin.clientId)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(privateKey);
    const res = await requestJson(`${server.url}/catalog`, { token: forged });
    assert.equal(res.status, 401);
    assert.equal(res.body.error, "invalid_token");
  });

  test("an unsigned (alg none) token is rejected", async () => {
    const me = await server.service.store.clients.get(server.admin.clientId);
    assert.ok(me);
    const enc = (o: object): string => Buffer.from(JSON.stringify(o)).toString("base64url");
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${enc({ alg: "none", typ: "JWT" })}.${enc({
      iss: "docsift",
      sub: server.admin.clientId,
      tid: me.tenantId,
      scope: "result:all",
      iat: now,
      exp: now + 3600,
    })}.`;
    const res = await requestJson(`${server.url}/catalog`, { token: unsigned });
    assert.equal(res.status, 401);
    assert.equal(res.body.error, "invalid_token");
  });

  test("a token without the route's scope is 403 forbidden", async () => {
    const token = await server.token("result:all");
    const res = await requestJson(`${server.url}/fileupload/json`, {
      method: "POST",
      token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fileToUpload: "", fieldSet: "invoice" }),
    });
    assert.equal(res.status, 403);
    assert.equal(res.body.error, "forbidden");
  });

  test("health needs no token; catalog takes any valid token, metrics the scope metrics:read", async () => {
    assert.equal((await requestJson(`${server.url}/healthz`)).status, 200);
    assert.equal((await requestJson(`${server.url}/readyz`)).status, 200);
    const token = await server.token("result:all");
    const catalog = await requestJson<{ products: { id: string }[]; fieldSets: { id: string; fields: unknown[] }[] }>(
      `${server.url}/catalog`,
      { token },
    );
    assert.equal(catalog.status, 200);
    assert.ok(catalog.body.products.some((p) => p.id === "invoices"));
    assert.ok(catalog.body.fieldSets.every((s) => s.fields.length > 0));
    const metricsToken = await server.token("metrics:read");
    const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    assert.equal(metrics.status, 200);
    assert.match(await metrics.text(), /docsift_http_request_duration_seconds_bucket/);
    assert.equal((await fetch(`${server.url}/metrics`)).status, 401);
  });
});
