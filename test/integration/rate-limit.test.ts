/**
 * Rate limits on a real server with low limits: per client (token subject) for API requests, a separate budget for
 * uploads, per address for the token endpoint (failed attempts count, so guessing is slowed; successes do not); 429 `rate_limited` with
 * Retry-After and RateLimit-* headers; `off` removes a limit. And the SDK against it: it waits out Retry-After
 * before its retry, and gives up at once when the wait would be longer than its bound.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { DocsiftApiError, DocsiftClient } from "../../src/client/index.js";
import {
  getToken,
  invoicePdf,
  requestJson,
  startTestServer,
  type TestServer,
  upload,
  uploadForm,
} from "../helpers/server.js";

const MINUTE = 60_000;

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
}

describe("rate limits per client and per address", () => {
  let server: TestServer;
  let pdf: Uint8Array;

  before(async () => {
    server = await startTestServer({
      workers: 1,
      rateLimits: {
        requests: { count: 3, windowMs: MINUTE },
        uploads: { count: 2, windowMs: MINUTE },
        token: { count: 4, windowMs: MINUTE },
      },
    });
    pdf = await invoicePdf({ number: "RL-1", date: "2024-01-02", total: "10.00" });
  });
  after(() => server.stop());

  test("a client's requests past its budget get 429 with Retry-After and RateLimit headers; others are unaffected", async () => {
    const alice = await server.newClient({ name: "alice" });
    const bob = await server.newClient({ name: "bob" });
    // Token requests draw on the address budget (4): two here, two in the next test.
    const aliceToken = await getToken(server.url, alice.clientId, alice.clientSecret);
    const bobToken = await getToken(server.url, bob.clientId, bob.clientSecret);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await requestJson(`${server.url}/catalog`, { token: aliceToken });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("ratelimit-limit"), "3");
      remaining.push(res.headers.get("ratelimit-remaining") ?? "");
    }
    assert.deepEqual(remaining, ["2", "1", "0"]);
    const refused = await requestJson(`${server.url}/result/final/00000000-0000-4000-8000-000000000000`, {
      token: aliceToken,
    });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, "rate_limited");
    assert.match(String(refused.body.message), /limit is 3 per 60 s/);
    const retryAfter = Number(refused.headers.get("retry-after"));
    assert.ok(retryAfter >= 1 && retryAfter <= 20, `Retry-After ${refused.headers.get("retry-after")}`);
    assert.equal(refused.headers.get("ratelimit-remaining"), "0");

    // Bob has his own budget; unauthenticated routes have none.
    assert.equal((await requestJson(`${server.url}/catalog`, { token: bobToken })).status, 200);
    for (let i = 0; i < 5; i++) assert.equal((await requestJson(`${server.url}/healthz`)).status, 200);

    // Uploads have a budget of their own: Alice, out of requests, can still upload twice, then not.
    const blobsBefore = await server.blobCount();
    for (let i = 0; i < 2; i++) {
      const res = await upload(server, aliceToken, uploadForm(pdf, { fieldSet: "invoice" }));
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const third = await upload(server, aliceToken, uploadForm(pdf, { fieldSet: "invoice" }));
    assert.equal(third.status, 429);
    assert.equal(third.body.error, "rate_limited");
    assert.ok(Number(third.headers.get("retry-after")) >= 1);
    assert.equal(await server.blobCount(), blobsBefore + 2, "the refused upload stored nothing");
  });

  test("the token endpoint counts failed attempts per address: once spent, even the right secret waits", async () => {
    const carol = await server.newClient({ name: "carol" });
    const attempt = async (secret: string) => {
      const res = await requestJson(`${server.url}/oauth2/token`, {
        method: "POST",
        headers: { authorization: basic(carol.clientId, secret) },
        body: new URLSearchParams({ grant_type: "client_credentials" }),
      });
      if (res.status === 429) {
        assert.equal(res.body.error, "rate_limited");
        assert.ok(Number(res.headers.get("retry-after")) >= 1);
      }
      return res.status;
    };
    // Tokens issued before (and these successes) spend nothing of the budget of 4 failures.
    const statuses = [await attempt(carol.clientSecret), await attempt(carol.clientSecret)];
    for (const guess of ["guess-1", "guess-2", "guess-3", "guess-4", "guess-5"]) statuses.push(await attempt(guess));
    statuses.push(await attempt(carol.clientSecret));
    assert.deepEqual(statuses, [200, 200, 401, 401, 401, 401, 429, 429]);
  });
});

describe("limits turned off", () => {
  test("without limits no RateLimit headers are sent and bursts pass", async () => {
    const server = await startTestServer({
      workers: 1,
      rateLimits: { requests: undefined, uploads: undefined, token: undefined },
    });
    try {
      for (let i = 0; i < 10; i++) {
        const token = await server.token();
        const res = await requestJson(`${server.url}/catalog`, { token });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get("ratelimit-limit"), null);
      }
    } finally {
      await server.stop();
    }
  });
});

describe("the SDK against a rate-limited server", () => {
  let server: TestServer;
  /** Status of every /catalog answer the SDK received, with when it arrived. */
  let seen: { status: number; at: number; retryAfter: string | null }[];

  before(async () => {
    server = await startTestServer({
      workers: 1,
      rateLimits: {
        requests: { count: 1, windowMs: 1000 },
        uploads: { count: 1, windowMs: 3_600_000 },
        token: { count: 100, windowMs: MINUTE },
      },
    });
  });
  after(() => server.stop());

  const sdk = async () => {
    const client = await server.newClient({ name: "sdk" });
    seen = [];
    // The real fetch, watched: the SDK decides alone what to do with each answer.
    const watched: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (String(input).includes("/catalog")) {
        seen.push({ status: res.status, at: Date.now(), retryAfter: res.headers.get("retry-after") });
      }
      return res;
    };
    return new DocsiftClient({ baseUrl: server.url, ...client, fetch: watched });
  };

  test("on 429 the SDK waits the Retry-After it was given, then succeeds", async () => {
    const client = await sdk();
    await client.catalog();
    const catalog = await client.catalog();
    assert.ok(catalog.products.length > 0);
    assert.deepEqual(
      seen.map((s) => s.status),
      [200, 429, 200],
    );
    const [, refused, served] = seen;
    assert.equal(refused?.retryAfter, "1");
    assert.ok((served?.at ?? 0) - (refused?.at ?? 0) >= 950, "the retry waited for Retry-After");
  });

  test("a Retry-After beyond the SDK's longest wait fails at once with rate_limited", async () => {
    const client = await sdk();
    const pdf = await invoicePdf({ number: "RL-2", date: "2024-01-02", total: "10.00" });
    await client.upload(Buffer.from(pdf), { fieldSet: "invoice" });
    const err = await client.upload(Buffer.from(pdf), { fieldSet: "invoice" }).catch((e: unknown) => e);
    assert.ok(err instanceof DocsiftApiError, String(err));
    assert.equal(err.status, 429);
    assert.equal(err.code, "rate_limited");
  });
});
