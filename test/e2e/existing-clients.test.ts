/**
 * The requests the existing clients of this interface (Python `sypht`, `sypht-node-client`, and the Go, Java and Ruby
 * ones) send, spoken as they send them to a real `docsift serve` process: the legacy token route with a form body
 * (Python, Ruby) or a JSON body (Node, Go, Java) carrying `audience`, failures read from `error_description`, a new
 * token for every call (many at once), uploads to `/fileupload` without the trailing slash with `fieldSets` as a
 * JSON array text or `fieldSet` with repeated `tags` and a `parentDocId`, results with `verbose` and `timeout`, and
 * page images. Also: client credentials in a token URL are refused, and never reach the log.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, describe, test } from "node:test";
import { invoicePdf, requestJson } from "../helpers/server.js";

const CLI = ["--import", "tsx", "src/cli/main.ts"];
const CLIENT_ID = "legacy-app";
const SECRET = `s3cret-${randomBytes(12).toString("hex")}`;
/** What the clients send as `audience` (the commercial service's API URL): accepted and ignored. */
const AUDIENCE = "https://api.sypht.com";

let dataDir: string;
let child: ChildProcess;
let url: string;
const logLines: string[] = [];

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "docsift-clients-"));
  child = spawn(process.execPath, [...CLI, "serve", "--port", "0", "--data", dataDir], {
    // debug: the most a log could hold at any level an operator would run with.
    env: {
      ...process.env,
      LOG_LEVEL: "debug",
      DOCSIFT_WORKERS: "1",
      DOCSIFT_BOOTSTRAP_CLIENT: `${CLIENT_ID}:${SECRET}`,
      DOCSIFT_TOKEN_RATE_LIMIT: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr?.on("data", (chunk: Buffer) => logLines.push(chunk.toString()));
  url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      logLines.push(line);
      const parsed = JSON.parse(line) as { msg?: string; url?: string };
      if (parsed.msg === "docsift listening" && parsed.url) resolve(parsed.url);
    });
    child.once("exit", (code) => reject(new Error(`serve exited early with ${code}: ${logLines.join("\n")}`)));
  });
});

after(async () => {
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
  await rm(dataDir, { recursive: true, force: true });
});

/** Python `requests.post(endpoint, data={...})`: a form body. */
function formToken(path: string, secret = SECRET) {
  return requestJson(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      client_id: CLIENT_ID,
      client_secret: secret,
      audience: AUDIENCE,
      grant_type: "client_credentials",
    }).toString(),
  });
}

/** axios.post(`${authHost}/oauth/token`, {...}): a JSON body. */
function jsonToken(secret = SECRET) {
  return requestJson(`${url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_id: CLIENT_ID,
      client_secret: secret,
      audience: AUDIENCE,
      grant_type: "client_credentials",
    }),
  });
}

async function accessToken(): Promise<string> {
  const res = await jsonToken();
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return String(res.body.access_token);
}

describe("the legacy token route", () => {
  test("a form body (Python, Ruby) and a JSON body (Node, Go, Java) get access_token and expires_in", async () => {
    for (const res of [await formToken("/oauth/token"), await jsonToken(), await formToken("/oauth2/token")]) {
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(typeof res.body.access_token, "string");
      assert.equal(res.body.expires_in, 3600);
    }
  });

  test("a failure carries error and error_description", async () => {
    for (const res of [await formToken("/oauth/token", "wrong"), await jsonToken("wrong")]) {
      assert.equal(res.status, 401);
      assert.equal(res.body.error, "invalid_client");
      assert.equal(res.body.error_description, "Unknown client or wrong secret.");
    }
  });

  test("a new token for every call, 150 calls at once: none is refused", async () => {
    const answers = await Promise.all(Array.from({ length: 150 }, () => jsonToken()));
    assert.deepEqual(
      answers.map((r) => r.status),
      answers.map(() => 200),
    );
  });
});

describe("uploads, results and images as the clients ask for them", () => {
  test("POST /fileupload (no slash) with fieldSets as JSON text, as the Node client sends it", async () => {
    const token = await accessToken();
    const form = new FormData();
    form.append(
      "fileToUpload",
      new Blob([await invoicePdf({ number: "N-100", date: "2024-02-01", total: "42.00" })]),
      "a.pdf",
    );
    form.append("fieldSets", JSON.stringify(["invoice"]));
    const res = await requestJson(`${url}/fileupload`, { method: "POST", body: form, token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const result = await requestJson(`${url}/result/final/${res.body.fileId}`, { token: await accessToken() });
    assert.equal(result.body.status, "FINALISED");
    const image = await fetch(`${url}/result/image/${res.body.fileId}?page=1`, {
      headers: { authorization: `Bearer ${await accessToken()}` },
    });
    assert.equal(image.status, 200);
    assert.equal(image.headers.get("content-type"), "image/png");
  });

  test("fieldSet with repeated tags and parentDocId (Python); verbose results add the raw text", async () => {
    const token = await accessToken();
    const form = new FormData();
    form.append("fieldSet", "invoice");
    form.append("tags", "batch-7");
    form.append("tags", "supplier:acme");
    form.append("parentDocId", "00000000-0000-4000-8000-000000000001");
    form.append(
      "fileToUpload",
      new Blob([await invoicePdf({ number: "P-200", date: "2024-02-02", total: "17.50" })]),
      "b.pdf",
    );
    const res = await requestJson(`${url}/fileupload`, { method: "POST", body: form, token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const fileId = String(res.body.fileId);

    const plain = await requestJson<{ status: string; results: { fields: Record<string, unknown>[] } }>(
      `${url}/result/final/${fileId}?timeout=60000`,
      { token },
    );
    assert.equal(plain.body.status, "FINALISED");
    assert.ok(
      plain.body.results.fields.every((f) => !("raw" in f)),
      "raw only when verbose",
    );
    const verbose = await requestJson<{ results: { fields: { name: string; value: string | null; raw?: string }[] } }>(
      `${url}/result/final/${fileId}?verbose=true&timeout=60000`,
      { token },
    );
    const number = verbose.body.results.fields.find((f) => f.name === "invoice.number");
    assert.equal(number?.value, "P-200");
    assert.match(number?.raw ?? "", /P-200/);

    const described = await requestJson(`${url}/files/${fileId}`, { token });
    assert.deepEqual(described.body.tags, ["batch-7", "supplier:acme"]);
    assert.equal(described.body.parentDocId, "00000000-0000-4000-8000-000000000001");
  });
});

describe("credentials in a token URL", () => {
  test("are refused with 400 and never reach the log", async () => {
    const query = new URLSearchParams({
      client_id: CLIENT_ID,
      client_secret: SECRET,
      grant_type: "client_credentials",
    });
    for (const [method, path] of [
      ["POST", "/oauth2/token"],
      ["POST", "/oauth/token"],
      ["GET", "/oauth2/token"],
      ["PUT", "/oauth/token"],
    ]) {
      const res = await requestJson(`${url}${path}?${query}`, { method });
      assert.equal(res.status, 400, `${method} ${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error, "bad_request");
    }
    // Even with valid credentials in the body as well, the URL's copy is refused.
    const both = await requestJson(`${url}/oauth2/token?${query}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_id: CLIENT_ID, client_secret: SECRET, grant_type: "client_credentials" }),
    });
    assert.equal(both.status, 400);
    // Let the process flush its log lines for these requests.
    await new Promise((r) => setTimeout(r, 500));
    const log = logLines.join("\n");
    assert.ok(log.includes("/oauth2/token?[redacted]"), "the requests were logged, without their query");
    assert.ok(!log.includes(SECRET), "the secret appears in the log");
  });
});
