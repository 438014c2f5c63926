/**
 * GET /metrics counts every tenant's activity, so it needs the scope metrics:read: a tenant's own client (whose
 * default scopes leave it out) is refused, a client created with it and the operator's bootstrap client read it.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getToken, startTestServer, type TestServer } from "../helpers/server.js";

let server: TestServer;

before(async () => {
  server = await startTestServer({ workers: 1 });
});
after(() => server.stop());

async function scrape(token: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.text() };
}

describe("GET /metrics needs metrics:read", () => {
  test("a tenant's client with the default scopes is 403 forbidden, naming the scope", async () => {
    const tenant = await server.newClient({ name: "tenant-b" });
    assert.ok(!tenant.scopes.includes("metrics:read"), tenant.scopes.join(" "));
    const res = await scrape(await getToken(server.url, tenant.clientId, tenant.clientSecret));
    assert.equal(res.status, 403);
    assert.equal(JSON.parse(res.body).error, "forbidden");
    assert.match(JSON.parse(res.body).message, /metrics:read/);
  });

  test("a token of every other scope is 403; the bootstrap client's metrics:read token reads the metrics", async () => {
    const tenantScopes = await server.token("fileupload:all result:all validate:annotation");
    assert.equal((await scrape(tenantScopes)).status, 403);
    const ok = await scrape(await server.token("metrics:read"));
    assert.equal(ok.status, 200);
    assert.match(ok.body, /docsift_http_request_duration_seconds_bucket/);
  });

  test("a monitoring client created with only metrics:read reads the metrics and nothing else", async () => {
    const monitor = await server.newClient({ name: "prometheus", scopes: ["metrics:read"] });
    const token = await getToken(server.url, monitor.clientId, monitor.clientSecret);
    assert.equal((await scrape(token)).status, 200);
    const files = await fetch(`${server.url}/validate/tasks`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(files.status, 403);
  });

  test("the OpenAPI document names the scope", async () => {
    const spec = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, { get?: { security?: unknown } }>;
    };
    assert.deepEqual(spec.paths["/metrics"]?.get?.security, [{ oauth2: ["metrics:read"] }]);
  });
});
