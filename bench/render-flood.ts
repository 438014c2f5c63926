/**
 * Render flood (`npm run bench:render-flood`), issue #22 item 2, against `docsift serve` as a child process on
 * 127.0.0.1 (its own RSS, read from /proc):
 * 1. upload a 16 MB one-page PDF (a line of text over a 16 MB photo-like image) and let its extraction finish;
 * 2. anchor: N concurrent GET /healthz (a bare route) with clients giving up after 3 s, then upload a one-page text
 *    PDF and time it to FINALISED;
 * 3. the flood: N concurrent GET /result/image/:id?page=1 with clients giving up after 3 s, then the same upload.
 * Prints, per phase, the answers (200, 503, given up), the time to FINALISED and the serving process's peak RSS
 * while the phase ran (sampled every 50 ms) and its VmHWM (peak since start) at the end.
 * Options: --clients N (150, at most 1000), --give-up-ms MS (3000), --workers N (2), --dist DIR: run the compiled
 * server DIR/cli/main.js (e.g. `npx tsc -p tsconfig.build.json --outDir .tmp/dist`, as in production) instead of
 * the sources under tsx, whose threads each carry the TypeScript loader (about 150 MB a thread).
 * To measure another checkout (e.g. the code before the fix), run this file from that checkout's root.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { getToken, invoicePdf, requestJson, upload, uploadForm } from "../test/helpers/server.js";
import { photoPdf } from "./hostile/big-pdf.js";
import { runMain } from "./run-main.js";

const { values } = parseArgs({
  options: {
    clients: { type: "string", default: "150" },
    "give-up-ms": { type: "string", default: "3000" },
    workers: { type: "string", default: "2" },
    dist: { type: "string" },
  },
});
const CLIENTS = Math.min(1000, Math.max(1, Number(values.clients)));
const GIVE_UP_MS = Number(values["give-up-ms"]);

interface Server {
  child: ChildProcess;
  pid: number;
  url: string;
  token(): Promise<string>;
  stop(): Promise<void>;
}

/** `docsift serve` on 127.0.0.1, a free port and a temporary data directory; resolves once it listens. */
async function startServer(): Promise<Server> {
  const dataDir = await mkdtemp(join(tmpdir(), "docsift-render-flood-"));
  const admin = { id: "flood-admin", secret: randomBytes(18).toString("base64url") };
  const cli = values.dist ? [join(resolve(values.dist), "cli", "main.js")] : ["--import", "tsx", "src/cli/main.ts"];
  const child = spawn(process.execPath, [...cli, "serve", "--host", "127.0.0.1", "--port", "0", "--data", dataDir], {
    env: {
      ...process.env,
      LOG_LEVEL: "info",
      DOCSIFT_WORKERS: values.workers,
      DOCSIFT_BOOTSTRAP_CLIENT: `${admin.id}:${admin.secret}`,
      // The flood is one client: measure renders, not the per-client limiter.
      DOCSIFT_RATE_LIMIT: "off",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const url = await new Promise<string>((listening, failed) => {
    if (!child.stdout) throw new Error("no stdout pipe");
    createInterface({ input: child.stdout }).on("line", (text) => {
      const line = text.startsWith("{") ? (JSON.parse(text) as { msg?: string; url?: string }) : {};
      if (line.msg === "docsift listening" && line.url?.startsWith("http://127.0.0.1:")) listening(line.url);
    });
    void exited.then(() => failed(new Error("serve exited before listening")));
  });
  if (child.pid === undefined) throw new Error("serve has no pid");
  return {
    child,
    pid: child.pid,
    url,
    token: () => getToken(url, admin.id, admin.secret),
    async stop() {
      child.kill("SIGTERM");
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Peak of VmRSS sampled while `work` runs, with the work's own answer. */
async function sampleRss<T>(pid: number, work: () => Promise<T>): Promise<{ peakMb: number; value: T }> {
  let peak = 0;
  const sample = async (): Promise<void> => {
    peak = Math.max(peak, await procMb(pid, "VmRSS"));
  };
  const timer = setInterval(() => void sample(), 50);
  try {
    const value = await work();
    await sample();
    return { peakMb: peak, value };
  } finally {
    clearInterval(timer);
  }
}

/** A memory figure of the process from /proc/<pid>/status (VmRSS: now; VmHWM: peak since start), in MB. */
async function procMb(pid: number, field: "VmRSS" | "VmHWM"): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
}

/** N concurrent GETs that each give up after GIVE_UP_MS; counts the answers. */
async function flood(url: string, token: string): Promise<Record<string, number>> {
  const outcomes = await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      try {
        const res = await fetch(url, {
          headers: { authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(GIVE_UP_MS),
        });
        await res.arrayBuffer();
        return String(res.status);
      } catch {
        return "gave up";
      }
    }),
  );
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}

async function finaliseMs(server: Server, token: string, n: number): Promise<number> {
  const pdf = await invoicePdf({ number: `RF-${n}`, date: "2024-06-01", total: "12.50" });
  const started = performance.now();
  const res = await upload(server, token, uploadForm(pdf, { fieldSet: "invoice" }));
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  // Each wait is bounded by the server (120 s); starved extraction can take longer, so wait again, up to 15 min.
  for (let waits = 0; waits < 8; waits++) {
    const done = await requestJson(`${server.url}/result/final/${String(res.body.fileId)}`, { token });
    if (done.body.status === "FINALISED") return performance.now() - started;
    if (done.body.status === "FAILED") throw new Error(`failed: ${JSON.stringify(done.body)}`);
  }
  throw new Error("the one-page text PDF was not finalised within 15 min");
}

/** The page-image counters, where the server has them (the code before the fix does not). */
async function renderCounters(server: Server, token: string): Promise<string> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const lines = (await res.text()).split("\n").filter((l) => /^docsift_page_(renders|cache)\w* /.test(l));
  return lines.length > 0 ? lines.join(", ") : "(no page-image metrics)";
}

async function main(): Promise<number> {
  const server = await startServer();
  const { pid } = server;
  try {
    const token = await server.token();
    // A line of text over a noise photo (noise does not compress): about 16 MB, with a text layer, so no OCR.
    const big = await photoPdf(15.2);
    const res = await upload(server, token, uploadForm(big, { fieldSet: "invoice" }));
    if (res.status !== 200) throw new Error(`upload of the big PDF failed: ${JSON.stringify(res.body)}`);
    const bigId = String(res.body.fileId);
    const extracted = await requestJson(`${server.url}/result/final/${bigId}`, { token });
    console.log(
      `big PDF: ${(big.length / 1024 / 1024).toFixed(1)} MB, ${extracted.body.status}; ` +
        `${CLIENTS} clients giving up after ${GIVE_UP_MS} ms; DOCSIFT_WORKERS=${values.workers}`,
    );
    const quiet = await finaliseMs(server, token, 0);
    console.log(
      `quiet: one-page text PDF to FINALISED ${quiet.toFixed(0)} ms; RSS ${(await procMb(pid, "VmRSS")).toFixed(0)} MB`,
    );

    const phases = [
      { name: "anchor: GET /healthz flood", url: `${server.url}/healthz` },
      { name: "GET /result/image flood", url: `${server.url}/result/image/${bigId}?page=1` },
    ];
    for (const [i, phase] of phases.entries()) {
      const { peakMb, value } = await sampleRss(pid, async () => {
        const answers = await flood(phase.url, token);
        return { answers, ms: await finaliseMs(server, token, i + 1) };
      });
      console.log(
        `${phase.name}: answers ${JSON.stringify(value.answers)}; then one-page text PDF to FINALISED ` +
          `${value.ms.toFixed(0)} ms; peak RSS ${peakMb.toFixed(0)} MB; RSS after ${(await procMb(pid, "VmRSS")).toFixed(0)} MB`,
      );
    }
    console.log(`serving process peak RSS since start (VmHWM): ${(await procMb(pid, "VmHWM")).toFixed(0)} MB`);
    console.log(`metrics: ${await renderCounters(server, token)}`);
    return 0;
  } finally {
    await server.stop();
  }
}

runMain(main);
