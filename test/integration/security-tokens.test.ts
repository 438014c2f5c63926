/**
 * Forged and broken access tokens and oversized request heads against a real server, on both backends: every
 * token docsift did not issue (other key, other kid, HMAC with the public key, `alg: none`, expired, not yet
 * valid, wrong issuer, missing claims, unknown or revoked client) is 401 `invalid_token`, and a 100 kB header is
 * refused without harming the server.
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, test } from "node:test";
import { exportSPKI, generateKeyPair, importJWK, type JWTPayload, SignJWT } from "jose";
import { getToken, requestJson, startTestServer, type TestBackend, type TestServer } from "../helpers/server.js";
import { type ServerKey, serverSigningKey } from "../helpers/signing-keys.js";

const enc = (o: object): string => Buffer.from(JSON.stringify(o)).toString("base64url");
const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Raw HTTP/1.1 exchange: what a client sending a huge head really gets back (fetch may hide it). */
function rawRequest(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString("latin1");
    });
    // The server may reset the connection once it answered; what arrived before counts.
    socket.on("error", () => resolve(answer));
    socket.on("close", () => resolve(answer));
    socket.on("connect", () => socket.write(head));
    socket.setTimeout(10_000, () => {
      socket.destroy();
      reject(new Error(`no answer; got: ${answer.slice(0, 200)}`));
    });
  });
}

for (const backend of ["sqlite", "postgres"] as const satisfies TestBackend[]) {
  describe(`access tokens docsift did not issue are refused (${backend})`, () => {
    let server: TestServer;
    let keyFile: ServerKey;
    let tenantId: string;

    before(async () => {
      server = await startTestServer({ workers: 1, backend });
      keyFile = await serverSigningKey(server);
      const me = await server.service.store.clients.get(server.admin.clientId);
      assert.ok(me);
      tenantId = me.tenantId;
    });
    after(() => server.stop());

    /** The claims a real token carries, for the admin client. */
    const claims = (): JWTPayload => ({
      iss: "docsift",
      sub: server.admin.clientId,
      tid: tenantId,
      scope: "fileupload:all result:all validate:annotation",
      iat: nowSeconds(),
      exp: nowSeconds() + 3600,
    });
    const serverKey = () => importJWK(keyFile.privateJwk, "EdDSA");
    const signWithServerKey = async (payload: JWTPayload, kid = keyFile.kid): Promise<string> =>
      new SignJWT(payload).setProtectedHeader({ alg: "EdDSA", kid, typ: "JWT" }).sign(await serverKey());

    async function assertRefused(token: string, why: string): Promise<void> {
      for (const path of ["/catalog", "/validate/tasks"]) {
        const res = await requestJson(`${server.url}${path}`, { token });
        assert.equal(res.status, 401, `${why}: ${path} answered ${res.status} ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error, "invalid_token", why);
        assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer/);
      }
    }

    test("the control: a token signed by the server's key with these claims works", async () => {
      const res = await requestJson(`${server.url}/catalog`, { token: await signWithServerKey(claims()) });
      assert.equal(res.status, 200);
    });

    test("a token signed by another key with another kid", async () => {
      const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519" });
      const forged = await new SignJWT(claims())
        .setProtectedHeader({ alg: "EdDSA", kid: "another-key", typ: "JWT" })
        .sign(privateKey);
      await assertRefused(forged, "other key, other kid");
    });

    test("a token signed by the server's own key under an unknown kid", async () => {
      await assertRefused(await signWithServerKey(claims(), "rotated-away"), "unknown kid");
    });

    test("HS256 with the server's public key as the HMAC secret (algorithm confusion)", async () => {
      const publicKey = await importJWK(keyFile.publicJwk, "EdDSA");
      assert.ok(!(publicKey instanceof Uint8Array));
      const secrets = [
        new TextEncoder().encode(await exportSPKI(publicKey)),
        new TextEncoder().encode(JSON.stringify(keyFile.publicJwk)),
        Buffer.from(String(keyFile.publicJwk.x), "base64url"),
      ];
      for (const secret of secrets) {
        const forged = await new SignJWT(claims())
          .setProtectedHeader({ alg: "HS256", kid: keyFile.kid, typ: "JWT" })
          .sign(secret);
        await assertRefused(forged, "HS256 with the public key");
      }
    });

    test("alg none in any spelling, with or without a signature part", async () => {
      for (const alg of ["none", "None", "NONE", "nOnE"]) {
        const unsigned = `${enc({ alg, kid: keyFile.kid, typ: "JWT" })}.${enc(claims())}`;
        await assertRefused(`${unsigned}.`, `alg ${alg}`);
        await assertRefused(unsigned, `alg ${alg} without the third part`);
      }
      // A real signature pasted under a header claiming none.
      const real = (await signWithServerKey(claims())).split(".");
      await assertRefused(
        `${enc({ alg: "none", kid: keyFile.kid })}.${real[1]}.${real[2]}`,
        "none over a real signature",
      );
    });

    test("a real token with a changed payload (scope or tenant) fails its signature", async () => {
      const [header, , signature] = (await signWithServerKey({ ...claims(), scope: "result:all" })).split(".");
      await assertRefused(`${header}.${enc({ ...claims(), tid: "another-tenant" })}.${signature}`, "payload swapped");
    });

    test("expired (even by a second), not yet valid, wrong issuer, missing claims", async () => {
      const now = nowSeconds();
      await assertRefused(await signWithServerKey({ ...claims(), iat: now - 3600, exp: now - 1 }), "expired");
      await assertRefused(await signWithServerKey({ ...claims(), nbf: now + 600 }), "not yet valid");
      await assertRefused(await signWithServerKey({ ...claims(), iss: "someone-else" }), "wrong issuer");
      const { exp: _exp, ...noExp } = claims();
      await assertRefused(await signWithServerKey(noExp), "no expiry");
      const { tid: _tid, ...noTenant } = claims();
      await assertRefused(await signWithServerKey(noTenant), "no tenant");
      const { sub: _sub, ...noSubject } = claims();
      await assertRefused(await signWithServerKey(noSubject), "no subject");
    });

    test("a well-signed token for a client that does not exist, or was revoked", async () => {
      await assertRefused(await signWithServerKey({ ...claims(), sub: "no-such-client" }), "unknown client");
      const client = await server.newClient({ name: "to-revoke" });
      const token = await getToken(server.url, client.clientId, client.clientSecret);
      await server.service.store.clients.revoke(client.clientId);
      await assertRefused(token, "revoked client");
    });

    test("tokens are read only from the Authorization header, only as Bearer", async () => {
      const token = await server.token();
      const inQuery = await requestJson(`${server.url}/catalog?access_token=${token}`);
      assert.equal(inQuery.status, 401);
      assert.equal(inQuery.body.error, "unauthorized");
      const asBasic = await requestJson(`${server.url}/catalog`, { headers: { authorization: `Basic ${token}` } });
      assert.equal(asBasic.status, 401);
      const asCookie = await requestJson(`${server.url}/catalog`, { headers: { cookie: `access_token=${token}` } });
      assert.equal(asCookie.status, 401);
      const twoTokens = await requestJson(`${server.url}/catalog`, {
        headers: { authorization: `Bearer ${token} ${token}` },
      });
      assert.equal(twoTokens.status, 401);
    });

    test("a 100 kB Authorization or Cookie header is refused with 431; the server goes on", async () => {
      const port = Number(new URL(server.url).port);
      const huge = "a".repeat(100 * 1024);
      for (const header of [`Authorization: Bearer ${huge}`, `Cookie: session=${huge}`]) {
        const answer = await rawRequest(port, `GET /catalog HTTP/1.1\r\nHost: x\r\n${header}\r\n\r\n`);
        assert.match(answer, /^HTTP\/1\.1 431 /, `answered: ${answer.slice(0, 200)}`);
        const body = answer.slice(answer.indexOf("\r\n\r\n") + 4);
        assert.equal((JSON.parse(body) as { error: string }).error, "bad_request");
      }
      // Many headers of modest size add up the same way.
      const many = Array.from({ length: 400 }, (_, i) => `X-Filler-${i}: ${"b".repeat(100)}`).join("\r\n");
      assert.match(await rawRequest(port, `GET /healthz HTTP/1.1\r\nHost: x\r\n${many}\r\n\r\n`), /^HTTP\/1\.1 431 /);
      // A head just under the bound still works, and so does everything after.
      const fits = await requestJson(`${server.url}/catalog`, {
        token: await server.token(),
        headers: { "x-padding": "c".repeat(12 * 1024) },
      });
      assert.equal(fits.status, 200);
      assert.equal((await requestJson(`${server.url}/healthz`)).status, 200);
    });
  });
}
