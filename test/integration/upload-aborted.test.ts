/**
 * A client that closes its connection mid-upload is logged as an aborted request (info), not as a storage outage:
 * the real `docsift serve`, its pino log read from stdout, a multipart upload cut after its first bytes.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";
import { getToken } from "../helpers/server.js";

const MAIN = join(import.meta.dirname, "../../src/cli/main.ts");
const ADMIN = { id: "abort-admin", secret: "abort-admin-secret" };

interface LogLine {
  level: number;
  msg: string;
  url?: string;
  reqId?: string;
  req?: { url?: string };
}

let dataDir: string;
let child: ReturnType<typeof spawn>;
let exited: Promise<number | null>;
let url: string;
const logs: LogLine[] = [];
const waiters = new Set<() => void>();

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "docsift-abort-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: "info",
    DOCSIFT_BOOTSTRAP_CLIENT: `${ADMIN.id}:${ADMIN.secret}`,
  };
  for (const name of ["DATABASE_URL", "BLOB_URL", "DOCSIFT_DATA"]) delete env[name];
  child = spawn(
    process.execPath,
    ["--import", "tsx", MAIN, "serve", "--data", dataDir, "--port", "0", "--workers", "1"],
    { env, stdio: ["ignore", "pipe", "inherit"] },
  );
  exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    try {
      logs.push(JSON.parse(line) as LogLine);
    } catch {
      return;
    }
    for (const wake of waiters) wake();
  });
  const listening = await until((l) => l.msg === "docsift listening");
  url = String(listening.url);
});

after(async () => {
  child.kill("SIGTERM");
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
});

/** The first log line (already seen or to come) that matches. */
function until(match: (line: LogLine) => boolean, timeoutMs = 20_000): Promise<LogLine> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiters.delete(check);
      reject(new Error(`no such log line; got ${JSON.stringify(logs.map((l) => l.msg))}`));
    }, timeoutMs);
    const check = (): void => {
      const found = logs.find(match);
      if (!found) return;
      clearTimeout(timer);
      waiters.delete(check);
      resolve(found);
    };
    waiters.add(check);
    check();
  });
}

const BOUNDARY = "docsiftabort";
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
const CUTS = [
  {
    where: "in a form field (the request stream errors: ECONNRESET)",
    path: "/fileupload/",
    contentType: MULTIPART,
    head: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="workflowOptions"\r\n\r\n{"prediction":"`,
  },
  {
    where: "in the file part (the parser closes the part without an error)",
    path: "/fileupload/",
    contentType: MULTIPART,
    head:
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="fieldSet"\r\n\r\ninvoice\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="fileToUpload"; filename="big.pdf"\r\n` +
      "Content-Type: application/pdf\r\n\r\n%PDF-1.4\n",
  },
  {
    where: "in a JSON upload's body",
    path: "/fileupload/json",
    contentType: "application/json",
    head: '{"fieldSet": "invoice", "fileToUpload": "',
  },
];

for (const { where, path, contentType, head } of CUTS) {
  test(`an upload cut ${where} logs 'request aborted by client', not a storage outage`, async () => {
    const token = await getToken(url, ADMIN.id, ADMIN.secret);
    const seen = logs.length;
    const req = request(`${url}${path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": contentType,
        // Announces far more than is ever sent.
        "content-length": String(5 * 1024 * 1024),
      },
    });
    req.on("error", () => undefined);
    req.write(head);
    req.write(Buffer.alloc(100 * 1024, 0x61));
    // Once the server is reading the body, the client goes away.
    const incoming = await until((l) => logs.indexOf(l) >= seen && l.msg === "incoming request" && l.req?.url === path);
    await new Promise((resolve) => setTimeout(resolve, 300));
    req.destroy();

    const aborted = await until((l) => l.reqId === incoming.reqId && l.msg === "request aborted by client");
    assert.ok(aborted.level <= 30, `logged at info, not as a warning or error: ${aborted.level}`);
    // Give a mis-mapped error time to show up too.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const others = logs.filter((l) => l.reqId === incoming.reqId && l.level >= 40);
    assert.deepEqual(others, [], "no storage outage, unhandled error or other warning is logged");
    // The server is fine and answers the next request.
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
  });
}
