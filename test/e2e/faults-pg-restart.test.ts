/**
 * PostgreSQL restarting under a running `docsift serve` on DATABASE_URL (a child process, a fresh schema): the
 * machine's cluster is stopped and started again (`pg_ctlcluster`, like the scale test) while uploads and result
 * reads keep coming. Every answer is 200 or 503 `unavailable` with Retry-After (never a 500, never a dropped
 * connection), the server does not crash, and every upload that got a receipt reaches FINALISED afterwards. While the
 * cluster is down, an upload, a result read and a token request are each refused with 503 for certain.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { after, test } from "node:test";
import { promisify } from "node:util";
import { type ChildServer, startChildServer } from "../helpers/faults.js";
import { createTestSchema, type TestSchema } from "../helpers/pg-schema.js";
import { invoicePdf, type JsonResponse, requestJson, upload, uploadForm } from "../helpers/server.js";

const run = promisify(execFile);

async function cluster(action: "start" | "stop"): Promise<void> {
  // The machine's one cluster, whatever its version (as .ci/run finds it).
  const [version] = await readdir("/etc/postgresql");
  await run("pg_ctlcluster", ["--skip-systemctl-redirect", version ?? "15", "main", action]);
}

async function clusterReady(): Promise<boolean> {
  return run("pg_isready", ["-h", "127.0.0.1", "-p", "5432", "-q"]).then(
    () => true,
    () => false,
  );
}

interface Seen {
  what: string;
  status: number;
  error: unknown;
  retryAfter: string | null;
}

let schema: TestSchema | undefined;
let server: ChildServer | undefined;
let stopped = false;

after(async () => {
  // PostgreSQL serves every other test: it is running again whatever happened here.
  if (stopped || !(await clusterReady())) await cluster("start");
  await server?.stop();
  await schema?.drop();
});

test("PostgreSQL restarting: 503 + Retry-After or success, never 500; every receipt finalises", {
  timeout: 240_000,
}, async (t) => {
  schema = await createTestSchema();
  server = await startChildServer({
    env: {
      DATABASE_URL: schema.url,
      // A job whose completion was lost in the outage is re-delivered after expiry: keep that short here.
      DOCSIFT_JOB_EXPIRE_SECONDS: "15",
      DOCSIFT_QUEUE_MAINTENANCE_SECONDS: "2",
    },
  });
  const live = server;
  const token = await live.token();
  const seen: Seen[] = [];
  const receipted: string[] = [];
  const record = (what: string, res: JsonResponse): void => {
    seen.push({ what, status: res.status, error: res.body.error, retryAfter: res.headers.get("retry-after") });
  };

  // Traffic until told to stop: upload, then read that file's result at once (timeout=0).
  let n = 0;
  let trafficOn = true;
  const traffic = async (): Promise<void> => {
    while (trafficOn) {
      const i = n++;
      const pdf = await invoicePdf({ number: `PG-${i}`, date: "2024-07-08", total: `${i}.00` });
      const res = await upload(live, token, uploadForm(pdf, { fieldSet: "invoice" }));
      record("upload", res);
      if (res.status === 200) {
        const fileId = String(res.body.fileId);
        receipted.push(fileId);
        record("result", await requestJson(`${live.url}/result/final/${fileId}?timeout=0`, { token }));
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  // A loop that dies (a request the server dropped) fails the test at the next wait instead of hanging it.
  let loopFailure: unknown;
  const loops = [traffic(), traffic()].map((loop) =>
    loop.catch((err: unknown) => {
      loopFailure = err;
    }),
  );
  const receipts = async (count: number): Promise<void> => {
    while (receipted.length < count) {
      if (loopFailure) throw loopFailure;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  // Some traffic before the outage.
  await receipts(4);

  await cluster("stop");
  stopped = true;
  // Down for certain: each kind of request is refused with a retryable 503.
  const pdf = await invoicePdf({ number: "PG-DOWN", date: "2024-07-08", total: "1.00" });
  const probes: [string, JsonResponse][] = [
    ["upload while down", await upload(live, token, uploadForm(pdf, { fieldSet: "invoice" }))],
    ["result while down", await requestJson(`${live.url}/result/final/${receipted[0]}?timeout=0`, { token })],
    [
      "token while down",
      await requestJson(`${live.url}/oauth2/token`, {
        method: "POST",
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: "nobody", client_secret: "x" }),
      }),
    ],
  ];
  await cluster("start");
  stopped = false;
  for (const [what, res] of probes) {
    assert.equal(res.status, 503, `${what}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.error, "unavailable", what);
    assert.ok(Number(res.headers.get("retry-after")) > 0, `${what}: Retry-After`);
  }

  // Traffic goes on after the restart until a few more uploads have succeeded.
  await receipts(receipted.length + 4);
  trafficOn = false;
  await Promise.all(loops);
  if (loopFailure) throw loopFailure;

  const refused = seen.filter((s) => s.status !== 200);
  t.diagnostic(`${seen.length} requests in the traffic, ${refused.length} answered 503 during the restart`);
  for (const s of refused) {
    assert.equal(s.status, 503, JSON.stringify(s));
    assert.equal(s.error, "unavailable", JSON.stringify(s));
    assert.ok(Number(s.retryAfter) > 0, `Retry-After on ${JSON.stringify(s)}`);
  }

  // Nothing with a receipt is lost: each one finalises (reads retried while the pool reconnects).
  for (const fileId of receipted) {
    let res = await requestJson(`${live.url}/result/final/${fileId}?timeout=60000`, { token });
    for (let tries = 0; res.status === 503 && tries < 20; tries++) {
      await new Promise((r) => setTimeout(r, 500));
      res = await requestJson(`${live.url}/result/final/${fileId}?timeout=60000`, { token });
    }
    assert.equal(res.body.status, "FINALISED", `${fileId}: ${JSON.stringify(res.body)}`);
  }
  assert.equal(live.child.exitCode, null, `the server is still running: ${live.stderr().slice(-2000)}`);
});
