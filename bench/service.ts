/**
 * Service benchmark (`npm run bench:service`), against real servers on temporary data dirs:
 * (a) upload-to-FINALISED latency of a one-page born-digital invoice, p50 and p95;
 * (b) scanned pages per minute with a processing pool of 1 and of 2 (receipt photos, one page each, all OCR);
 * (c) GET of a finalised result with autocannon, beside a bare Fastify route returning the same JSON from memory.
 * Options: --latency-runs N (20), --scans N (8), --duration S (10), --connections N (10), --only a,b,c.
 */
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs, promisify } from "node:util";
import Fastify from "fastify";
import {
  invoicePdf,
  requestJson,
  startTestServer,
  type TestServer,
  upload,
  uploadForm,
} from "../test/helpers/server.js";

const { values } = parseArgs({
  options: {
    "latency-runs": { type: "string", default: "20" },
    scans: { type: "string", default: "8" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "10" },
    only: { type: "string", default: "a,b,c" },
  },
});
const RECEIPTS = "/work/shared/data/receipts-dev";

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function finalised(server: TestServer, token: string, bytes: Uint8Array, fields: Record<string, string>) {
  const receipt = await upload(server, token, uploadForm(bytes, fields));
  if (receipt.status !== 200) throw new Error(`upload failed: ${JSON.stringify(receipt.body)}`);
  const res = await requestJson(`${server.url}/result/final/${receipt.body.fileId}`, { token });
  if (res.body.status !== "FINALISED") throw new Error(`not finalised: ${JSON.stringify(res.body)}`);
  return res;
}

async function latency(): Promise<void> {
  const server = await startTestServer();
  try {
    const token = await server.token();
    const runs = Number(values["latency-runs"]);
    const times: number[] = [];
    for (let i = 0; i < runs + 2; i++) {
      const pdf = await invoicePdf({ number: `B-${i}`, date: "2024-05-01", total: "1,250.00" });
      const started = performance.now();
      await finalised(server, token, pdf, { products: "invoices" });
      // The first two warm the threads' module caches (pdf.js, fonts) and are not counted.
      if (i >= 2) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(
      `(a) upload -> FINALISED, one-page born-digital invoice, ${runs} sequential runs: ` +
        `p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms`,
    );
  } finally {
    await server.stop();
  }
}

async function scannedPagesPerMinute(workers: number, files: string[]): Promise<number> {
  const server = await startTestServer({ workers });
  try {
    const token = await server.token();
    const images = await Promise.all(files.map((f) => readFile(join(RECEIPTS, f))));
    await finalised(server, token, images[0]!, { products: "receipts" });
    const started = performance.now();
    await Promise.all(images.map((jpg) => finalised(server, token, jpg, { products: "receipts" })));
    return images.length / ((performance.now() - started) / 60_000);
  } finally {
    await server.stop();
  }
}

/**
 * The control for (b): the same photos through the bare tesseract CLI, one process at a time vs two at once. On a
 * shared machine this shows how much of a second core is actually available, whatever the pool does.
 */
async function tesseractSpeedUp(paths: string[]): Promise<number> {
  const run = (path: string) =>
    promisify(execFile)("tesseract", [path, "-", "--psm", "6"], { env: { ...process.env, OMP_THREAD_LIMIT: "1" } });
  let started = performance.now();
  for (const path of paths) await run(path);
  const sequential = performance.now() - started;
  started = performance.now();
  const lanes = [paths.filter((_, i) => i % 2 === 0), paths.filter((_, i) => i % 2 === 1)];
  await Promise.all(
    lanes.map(async (lane) => {
      for (const path of lane) await run(path);
    }),
  );
  return sequential / (performance.now() - started);
}

async function throughput(): Promise<void> {
  const files = (await readdir(RECEIPTS)).filter((f) => f.endsWith(".jpg")).slice(0, Number(values.scans));
  const one = await scannedPagesPerMinute(1, files);
  const two = await scannedPagesPerMinute(2, files);
  const control = await tesseractSpeedUp(files.map((f) => join(RECEIPTS, f)));
  console.log(
    `(b) scanned pages/min (${files.length} receipt photos at once): pool 1 = ${one.toFixed(1)}, ` +
      `pool 2 = ${two.toFixed(1)}, speed-up ${(two / one).toFixed(2)}x ` +
      `(control: bare tesseract, 2 processes vs 1: ${control.toFixed(2)}x)`,
  );
}

interface CannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}

const NO_RATE_LIMITS = { requests: undefined, uploads: undefined, token: undefined };

async function cannon(url: string, headers: string[]): Promise<CannonResult> {
  const bin = join(import.meta.dirname, "..", "node_modules", ".bin", "autocannon");
  const args = ["-j", "-c", values.connections!, "-d", values.duration!, ...headers.flatMap((h) => ["-H", h]), url];
  const { stdout } = await promisify(execFile)(bin, args, { maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout) as CannonResult;
}

async function resultGets(): Promise<void> {
  // The per-client rate limit would turn most of the load into 429s: measure the route, not the limiter.
  const server = await startTestServer({ workers: 1, rateLimits: NO_RATE_LIMITS });
  const bare = Fastify();
  try {
    const token = await server.token();
    const pdf = await invoicePdf({ number: "R-1", date: "2024-05-01", total: "1,250.00" });
    const res = await finalised(server, token, pdf, { products: "invoices" });
    const body = res.body;
    // The strictest baseline: the same JSON, serialised once, sent as is.
    const json = JSON.stringify(body);
    bare.get("/result", async (_request, reply) => reply.type("application/json").send(json));
    const bareUrl = await bare.listen({ host: "127.0.0.1", port: 0 });
    const service = await cannon(`${server.url}/result/final/${body.fileId}`, [`authorization=Bearer ${token}`]);
    const plain = await cannon(`${bareUrl}/result`, []);
    const describe = (r: CannonResult): string =>
      `${r.requests.average.toFixed(0)} req/s (p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors})`;
    console.log(`(c) GET finalised result, ${values.connections} connections, ${values.duration} s each:`);
    console.log(`    service (auth, tenant check): ${describe(service)}`);
    console.log(`    bare Fastify route:     ${describe(plain)}`);
    console.log(
      `    ratio: ${((100 * service.requests.average) / plain.requests.average).toFixed(0)} % of the bare route`,
    );
  } finally {
    await bare.close();
    await server.stop();
  }
}

const parts = new Set(values.only?.split(","));
if (parts.has("a")) await latency();
if (parts.has("b")) await throughput();
if (parts.has("c")) await resultGets();
