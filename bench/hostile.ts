/**
 * Hostile-input benchmark (`npm run bench:hostile`): starts a real `docsift serve` process, feeds it the catalogue
 * of hostile files (test/helpers/hostile-files.ts) and N seeded random mutations of dev-corpus files and generated
 * PDFs over HTTP, and reports how each ended (refused 4xx by code, FAILED by code, FINALISED), whether the server
 * crashed, and its peak resident memory (VmHWM from /proc/<pid>/status, which the kernel keeps as a high-water mark,
 * so no spike between samples is missed; it is reset after a warm-up with honest files, so the peak is that of the
 * measured inputs). The server's OCR child processes are separate processes and not part of that figure.
 * Options: --count N mutations (60), --seed S (1), --workers W (2), --concurrency C uploads in flight (4),
 * --job-timeout MS (DOCSIFT_JOB_TIMEOUT_MS of the server, 60000), --clean (the unmutated seed files, --count of
 * them in turn, nothing hostile: the memory a server needs for honest work, to compare the peak with).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import fc from "fast-check";
import { hostileFiles, mutate, mutationArbitrary, smallestFiles } from "../test/helpers/hostile-files.js";
import { makeTextPdf, SAMPLE_LINES, scanAsJpeg } from "../test/helpers/pdf-fixtures.js";
import { getToken, invoicePdf, requestJson, uploadForm } from "../test/helpers/server.js";

const { values } = parseArgs({
  options: {
    count: { type: "string", default: "60" },
    seed: { type: "string", default: "1" },
    workers: { type: "string", default: "2" },
    concurrency: { type: "string", default: "4" },
    "job-timeout": { type: "string", default: "60000" },
    clean: { type: "boolean", default: false },
  },
});
const CORPUS = "/work/shared/data";
const ADMIN = { id: "bench-admin", secret: "bench-hostile-secret-1" };

interface Input {
  name: string;
  bytes: Uint8Array;
}

/** Peak and current resident memory of `pid` in MiB, from /proc. */
async function memoryOf(pid: number): Promise<{ peakMb: number; rssMb: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return { peakMb: Math.round(kb("VmHWM") / 1024), rssMb: Math.round(kb("VmRSS") / 1024) };
}

/** Starts `docsift serve` from source; resolves with its URL once it logs that it listens. */
function startServer(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const args = ["--import", "tsx", "src/cli/main.ts", "serve", "--port", "0", "--workers", String(values.workers)];
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    if (!child.stdout) return reject(new Error("no stdout"));
    createInterface({ input: child.stdout }).on("line", (line) => {
      try {
        const parsed = JSON.parse(line) as { msg?: string; url?: string; level?: number };
        if (parsed.msg === "docsift listening" && parsed.url) resolve({ child, url: parsed.url });
        // Errors of the server (level 50+: error, fatal) are what this bench looks for: show them.
        if ((parsed.level ?? 0) >= 50) process.stderr.write(`server: ${line.slice(0, 600)}\n`);
      } catch {
        // Not a log line.
      }
    });
    child.once("exit", (code) => reject(new Error(`docsift serve exited with ${code} before listening`)));
  });
}

/** Honest files to warm the server up with, and the inputs to measure. */
async function inputs(): Promise<{ warmUp: Input[]; feed: Input[] }> {
  const seeds = [
    ...smallestFiles(join(CORPUS, "invoices-dev"), ".pdf", 3),
    ...smallestFiles(join(CORPUS, "receipts-dev"), ".jpg", 2),
    await invoicePdf({ number: "INV-9", date: "2024-01-31", total: "99.00", pages: 2 }),
    await scanAsJpeg((await makeTextPdf([SAMPLE_LINES])).bytes, 1, 100),
  ];
  // Each seed twice, so that every processing thread has loaded what honest work needs before the peak is reset.
  const warmUp = [...seeds, ...seeds].map((bytes, i) => ({ name: `warm-up-${i}`, bytes }));
  if (values.clean) {
    const feed = Array.from({ length: Number(values.count) }, (_, i) => ({
      name: `clean-${i}-seed-${i % seeds.length}`,
      bytes: seeds[i % seeds.length] ?? new Uint8Array(1),
    }));
    return { warmUp, feed };
  }
  const draws = fc.sample(fc.tuple(fc.integer({ min: 0, max: seeds.length - 1 }), mutationArbitrary()), {
    seed: Number(values.seed),
    numRuns: Number(values.count),
  });
  const mutated = draws.map(([index, m], i) => ({
    name: `mutation-${i}-${m.kind}-of-seed-${index}`,
    bytes: mutate(seeds[index] ?? new Uint8Array(1), m),
  }));
  return { warmUp, feed: [...(await hostileFiles()).map((f) => ({ name: f.name, bytes: f.bytes })), ...mutated] };
}

/** How one input ended: `4xx <code>`, `FAILED <code>`, `FINALISED`, or `error <what>` when the server broke. */
async function submit(url: string, token: string, input: Input): Promise<string> {
  try {
    const res = await requestJson(`${url}/fileupload/`, {
      method: "POST",
      token,
      body: uploadForm(input.bytes, { products: "invoices" }),
    });
    if (res.status !== 200) return `${res.status >= 400 && res.status < 500 ? "4xx" : res.status} ${res.body.error}`;
    const result = await requestJson<{ status: string; error?: { error: string } }>(
      `${url}/result/final/${String(res.body.fileId)}`,
      { token },
    );
    return result.body.status === "FAILED" ? `FAILED ${result.body.error?.error}` : result.body.status;
  } catch (err) {
    return `error ${err instanceof Error ? err.message : String(err)}`;
  }
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), "docsift-bench-hostile-"));
  const env = {
    ...process.env,
    DOCSIFT_DATA: dataDir,
    DOCSIFT_BOOTSTRAP_CLIENT: `${ADMIN.id}:${ADMIN.secret}`,
    DOCSIFT_JOB_TIMEOUT_MS: String(values["job-timeout"]),
    LOG_LEVEL: "info",
  };
  const { warmUp, feed: all } = await inputs();
  const { child, url } = await startServer(env);
  const pid = child.pid ?? 0;
  let crashed: string | undefined;
  child.once("exit", (code, signal) => {
    crashed = `exited with ${code ?? signal}`;
  });
  try {
    const token = await getToken(url, ADMIN.id, ADMIN.secret);
    const warmed = await Promise.all(warmUp.map((input) => submit(url, token, input)));
    if (warmed.some((o) => o !== "FINALISED")) throw new Error(`warm-up files did not finalise: ${warmed.join(", ")}`);
    // "5" resets the kernel's peak RSS to the current RSS: the peak below is that of the measured inputs alone.
    await writeFile(`/proc/${pid}/clear_refs`, "5");
    const started = performance.now();
    const baseline = await memoryOf(pid);
    const outcomes = new Map<string, number>();
    const slowest: { name: string; ms: number; outcome: string }[] = [];
    /** Inputs during which the peak rose, and by how much (exact attribution with --concurrency 1). */
    const peakRises: { name: string; mb: number }[] = [];
    let peak = baseline.peakMb;
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < all.length && !crashed) {
        const input = all[next++];
        if (!input) return;
        const t0 = performance.now();
        const outcome = await submit(url, token, input);
        slowest.push({ name: input.name, ms: Math.round(performance.now() - t0), outcome });
        if (crashed) return;
        const now = (await memoryOf(pid)).peakMb;
        if (now > peak) peakRises.push({ name: input.name, mb: now - peak });
        peak = Math.max(peak, now);
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: Number(values.concurrency) }, lane));
    const health = crashed ? 0 : (await requestJson(`${url}/healthz`)).status;
    const memory = crashed ? { peakMb: Number.NaN, rssMb: Number.NaN } : await memoryOf(pid);
    const count = (prefix: string): number =>
      [...outcomes].filter(([k]) => k.startsWith(prefix)).reduce((n, [, v]) => n + v, 0);
    const what = values.clean
      ? "unmutated seed files"
      : `hostile catalogue + ${values.count} mutations, seed ${values.seed}`;
    console.log(`inputs: ${all.length} (${what})`);
    console.log(`server: docsift serve --workers ${values.workers}, DOCSIFT_JOB_TIMEOUT_MS=${values["job-timeout"]}`);
    console.log(`wall time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    console.log(`refused 4xx: ${count("4xx")}  FAILED: ${count("FAILED")}  FINALISED: ${count("FINALISED")}`);
    console.log(`other answers: ${all.length - count("4xx") - count("FAILED") - count("FINALISED")}`);
    console.log(`crashes: ${crashed ? 1 : 0}${crashed ? ` (${crashed})` : ""}  /healthz after: ${health}`);
    console.log(
      `RSS after warm-up: ${baseline.rssMb} MiB; at end ${memory.rssMb} MiB; peak while fed (VmHWM) ${memory.peakMb} MiB`,
    );
    console.log("\noutcomes:");
    for (const [k, v] of [...outcomes].sort((a, b) => b[1] - a[1])) console.log(`  ${String(v).padStart(4)}  ${k}`);
    console.log("\nlargest rises of the peak (input that was running):");
    for (const r of peakRises.sort((a, b) => b.mb - a.mb).slice(0, 8)) console.log(`  +${r.mb} MiB  ${r.name}`);
    console.log("\nslowest inputs (upload to final answer):");
    for (const s of slowest.sort((a, b) => b.ms - a.ms).slice(0, 8))
      console.log(`  ${String(s.ms).padStart(7)} ms  ${s.name}  -> ${s.outcome}`);
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(undefined)));
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
