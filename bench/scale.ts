/**
 * Scale-out benchmark (`npm run bench:scale`): scanned pages per minute (receipt photos, one page each, all OCR)
 * - embedded: one `startService` process, SQLite, a pool of 1 thread;
 * - PostgreSQL: one API process (`serve --no-worker`) and 1, then 2, `docsift worker --workers 1` processes on a
 *   fresh schema of the machine's server (PG_TEST_URL, default postgres://postgres@127.0.0.1:5432/test).
 * Every configuration processes the same photos, all uploaded at once after one warm-up file.
 * Options: --scans N (8), --only embedded,pg1,pg2.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { createTestSchema } from "../test/helpers/pg-schema.js";
import { getToken, requestJson, startTestServer, upload, uploadForm } from "../test/helpers/server.js";

const { values } = parseArgs({
  options: {
    scans: { type: "string", default: "8" },
    only: { type: "string", default: "embedded,pg1,pg2" },
  },
});
const RECEIPTS = "/work/shared/data/receipts-dev";
const ADMIN = { id: "bench-admin", secret: "bench-admin-secret-0123456789" };

async function finalised(url: string, token: string, bytes: Uint8Array): Promise<void> {
  const receipt = await upload({ url }, token, uploadForm(bytes, { products: "receipts" }));
  if (receipt.status !== 200) throw new Error(`upload failed: ${JSON.stringify(receipt.body)}`);
  const res = await requestJson(`${url}/result/final/${receipt.body.fileId}`, { token });
  if (res.body.status !== "FINALISED") throw new Error(`not finalised: ${JSON.stringify(res.body)}`);
}

/** Warm-up file, then all images at once: pages per minute of the batch. */
async function measure(url: string, token: string, images: Uint8Array[]): Promise<number> {
  await finalised(url, token, images[0]!);
  const started = performance.now();
  await Promise.all(images.map((jpg) => finalised(url, token, jpg)));
  return images.length / ((performance.now() - started) / 60_000);
}

async function embedded(images: Uint8Array[]): Promise<number> {
  const server = await startTestServer({ workers: 1, backend: "sqlite" });
  try {
    return await measure(server.url, await server.token(), images);
  } finally {
    await server.stop();
  }
}

/** Starts a docsift CLI process; resolves with its logged URL (or "") once it logs `ready`. */
function launch(args: string[], env: NodeJS.ProcessEnv, ready: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      try {
        const parsed = JSON.parse(line) as { msg?: string; url?: string };
        if (parsed.msg === ready) resolve({ child, url: parsed.url ?? "" });
      } catch {
        // Not a log line.
      }
    });
    child.once("exit", (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
}

async function postgres(workers: number, images: Uint8Array[]): Promise<number> {
  const schema = await createTestSchema("docsift_bench");
  const dataDir = await mkdtemp(join(tmpdir(), "docsift-bench-"));
  const env = {
    ...process.env,
    DATABASE_URL: schema.url,
    DOCSIFT_DATA: dataDir,
    DOCSIFT_BOOTSTRAP_CLIENT: `${ADMIN.id}:${ADMIN.secret}`,
    LOG_LEVEL: "info",
  };
  const children: ChildProcess[] = [];
  try {
    const api = await launch(["serve", "--no-worker", "--port", "0", "--workers", "1"], env, "docsift listening");
    children.push(api.child);
    for (let i = 0; i < workers; i++) {
      children.push((await launch(["worker", "--workers", "1"], env, "docsift worker ready")).child);
    }
    return await measure(api.url, await getToken(api.url, ADMIN.id, ADMIN.secret), images);
  } finally {
    for (const child of children) {
      if (child.exitCode !== null) continue;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
    await schema.drop();
  }
}

const files = (await readdir(RECEIPTS)).filter((f) => f.endsWith(".jpg")).slice(0, Number(values.scans));
const images = await Promise.all(files.map((f) => readFile(join(RECEIPTS, f))));
const only = new Set(values.only.split(","));
const rows: string[] = [];
if (only.has("embedded")) rows.push(`embedded (SQLite, 1 thread):          ${(await embedded(images)).toFixed(1)}`);
if (only.has("pg1")) rows.push(`PostgreSQL, API + 1 worker process:   ${(await postgres(1, images)).toFixed(1)}`);
if (only.has("pg2")) rows.push(`PostgreSQL, API + 2 worker processes: ${(await postgres(2, images)).toFixed(1)}`);
// Worker processes only add throughput where there are idle cores: print what this machine had.
const load = loadavg().map((l) => l.toFixed(1));
console.log(
  `scanned pages/min, ${images.length} receipt photos uploaded at once ` +
    `(${availableParallelism()} cores, load average ${load.join(" ")}):\n${rows.join("\n")}`,
);
