/**
 * Hostile-input benchmark (`npm run bench:hostile`): starts a real `docsift serve` process and feeds it, over HTTP,
 * first the catalogue of hostile files (test/helpers/hostile-files.ts) one at a time, then N seeded random
 * mutations of dev-corpus files and generated PDFs.
 *
 * Per hostile file it prints: how it ended (refused 4xx by code, FAILED by code, FINALISED); the API's event-loop
 * lag while it was in (the server's own `nodejs_eventloop_lag_max_seconds`, which prom-client takes from
 * monitorEventLoopDelay and resets at each scrape, scraped before and after the file) and the slowest /healthz
 * answer seen meanwhile; the seconds of its upload (the inspection, in the inspect pool) and of its job in the
 * processing pool (receipt to final answer); and the server's peak resident memory while it was in (VmHWM from
 * /proc/<pid>/status, the kernel's high-water mark, reset before each file, so no spike between samples is missed).
 * Then the mutations' outcomes, the peak over everything, and the issue #22 targets: no file costs the API more
 * than 100 ms of event-loop lag or a worker more than the job time limit, and the peak stays under 1.5 GB. The
 * server's OCR child processes are separate processes and not part of that figure.
 *
 * Options: --count N mutations (60), --seed S (1), --workers W (2), --concurrency C mutation uploads in flight (4),
 * --job-timeout MS (DOCSIFT_JOB_TIMEOUT_MS of the server, 60000), --clean (the unmutated seed files, --count of
 * them in turn, nothing hostile: the memory a server needs for honest work, to compare the peak with), --dist DIR:
 * run the compiled server DIR/cli/main.js (`npx tsc -p tsconfig.build.json --outDir .tmp/dist`, or `npm run build`
 * and `--dist dist`), as users run it, instead of the sources under tsx, whose every thread carries the TypeScript
 * loader (150-340 MB a thread); --cpu-prof DIR: the server writes V8 CPU profiles of its threads to DIR at exit,
 * and the bench writes DIR/files.json, when each file was in (CLOCK_MONOTONIC, the profiles' clock), for
 * `bench/hostile/long-tasks.ts` to name the file during which the API's event loop was held.
 *
 * The anchor: the honest seed files and a 13 MB honest PDF (as large as the largest hostile files), sent one at a
 * time after the warm-up and measured like the hostile ones, show the lag and peak that ordinary work costs on this
 * machine (a loaded one shows lag from the scheduler alone); the targets print the hostile figures beside it, as
 * ratios too.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import fc from "fast-check";
import { hostileFiles, mutate, mutationArbitrary, smallestFiles } from "../test/helpers/hostile-files.js";
import { makeTextPdf, SAMPLE_LINES, scanAsJpeg } from "../test/helpers/pdf-fixtures.js";
import { getToken, invoicePdf, requestJson, uploadForm } from "../test/helpers/server.js";
import { photoPdf } from "./hostile/big-pdf.js";

const { values } = parseArgs({
  options: {
    count: { type: "string", default: "60" },
    seed: { type: "string", default: "1" },
    workers: { type: "string", default: "2" },
    concurrency: { type: "string", default: "4" },
    "job-timeout": { type: "string", default: "60000" },
    clean: { type: "boolean", default: false },
    dist: { type: "string" },
    "cpu-prof": { type: "string" },
  },
});
const CORPUS = "/work/shared/data";
/** Issue #22's targets. */
const MAX_LAG_S = 0.1;
const MAX_PEAK_MB = 1536;
/** A job cut at its limit ends within the pool's abort grace (2 s) after it. */
const CUT_GRACE_S = 2;
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

/** Starts `docsift serve` (from source, or built with --dist); resolves with its URL once it logs that it listens. */
function startServer(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const cli = values.dist ? [join(resolve(values.dist), "cli", "main.js")] : ["--import", "tsx", "src/cli/main.ts"];
  const profile = values["cpu-prof"] ? ["--cpu-prof", "--cpu-prof-dir", resolve(values["cpu-prof"])] : [];
  const args = [...profile, ...cli, "serve", "--port", "0", "--workers", String(values.workers)];
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

/**
 * Honest files to warm the server up with, the same files again as the anchor, the hostile catalogue, and the
 * mutations (or clean files) to measure.
 */
async function inputs(): Promise<{ warmUp: Input[]; anchor: Input[]; hostile: Input[]; feed: Input[] }> {
  const named: [string, Uint8Array][] = [
    ...smallestFiles(join(CORPUS, "invoices-dev"), ".pdf", 3).map((b, i): [string, Uint8Array] => [
      `invoice-pdf-${i}`,
      b,
    ]),
    ...smallestFiles(join(CORPUS, "receipts-dev"), ".jpg", 2).map((b, i): [string, Uint8Array] => [
      `receipt-jpg-${i}`,
      b,
    ]),
    ["generated-invoice-pdf", await invoicePdf({ number: "INV-9", date: "2024-01-31", total: "99.00", pages: 2 })],
    ["scanned-jpg", await scanAsJpeg((await makeTextPdf([SAMPLE_LINES])).bytes, 1, 100)],
  ];
  const seeds = named.map(([, bytes]) => bytes);
  // The largest hostile files are 6-13 MB: an honest one of that size carries the same copy and storage costs.
  const big: [string, Uint8Array] = ["photo-pdf-13mb", await photoPdf(12.5)];
  const anchor = [...named, big].map(([name, bytes]) => ({ name: `honest-${name}`, bytes }));
  // Each seed twice, so that every processing thread has loaded what honest work needs before the peak is reset.
  const warmUp = [...seeds, ...seeds].map((bytes, i) => ({ name: `warm-up-${i}`, bytes }));
  if (values.clean) {
    const feed = Array.from({ length: Number(values.count) }, (_, i) => ({
      name: `clean-${i}-seed-${i % seeds.length}`,
      bytes: seeds[i % seeds.length] ?? new Uint8Array(1),
    }));
    return { warmUp, anchor, hostile: [], feed };
  }
  const draws = fc.sample(fc.tuple(fc.integer({ min: 0, max: seeds.length - 1 }), mutationArbitrary()), {
    seed: Number(values.seed),
    numRuns: Number(values.count),
  });
  const mutated = draws.map(([index, m], i) => ({
    name: `mutation-${i}-${m.kind}-of-seed-${index}`,
    bytes: mutate(seeds[index] ?? new Uint8Array(1), m),
  }));
  const hostile = (await hostileFiles()).map((f) => ({ name: f.name, bytes: f.bytes }));
  return { warmUp, anchor, hostile, feed: mutated };
}

interface Ending {
  /** `4xx <code>`, `FAILED <code>`, `FINALISED`, or `error <what>` when the server broke. */
  outcome: string;
  /** Seconds of the upload request (the inspection) and of the job (receipt to final answer; 0 when refused). */
  uploadS: number;
  jobS: number;
}

async function submit(url: string, token: string, input: Input): Promise<Ending> {
  const started = performance.now();
  let received = started;
  const ending = (outcome: string): Ending => {
    const now = performance.now();
    return { outcome, uploadS: (received - started) / 1000, jobS: received === now ? 0 : (now - received) / 1000 };
  };
  try {
    const res = await requestJson(`${url}/fileupload/`, {
      method: "POST",
      token,
      body: uploadForm(input.bytes, { products: "invoices" }),
    });
    received = performance.now();
    if (res.status !== 200)
      return ending(`${res.status >= 400 && res.status < 500 ? "4xx" : res.status} ${res.body.error}`);
    const result = await requestJson<{ status: string; error?: { error: string } }>(
      `${url}/result/final/${String(res.body.fileId)}`,
      { token },
    );
    return ending(result.body.status === "FAILED" ? `FAILED ${result.body.error?.error}` : result.body.status);
  } catch (err) {
    received = performance.now();
    return ending(`error ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The server's largest event-loop lag since the previous scrape, in s (the scrape resets it). */
async function lagSinceLastScrape(url: string, token: string): Promise<number> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return Number(/^nodejs_eventloop_lag_max_seconds (\S+)/m.exec(text)?.[1] ?? Number.NaN);
}

/** Polls /healthz until `done` settles; the slowest answer, in s. */
async function slowestHealth(url: string, done: Promise<unknown>): Promise<number> {
  let settled = false;
  void done.finally(() => {
    settled = true;
  });
  let slowest = 0;
  while (!settled) {
    const started = performance.now();
    await fetch(`${url}/healthz`).then((res) => res.arrayBuffer());
    slowest = Math.max(slowest, (performance.now() - started) / 1000);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return slowest;
}

/** Resets the kernel's peak RSS of `pid` to its current RSS ("5" to clear_refs). */
function resetPeak(pid: number): Promise<void> {
  return writeFile(`/proc/${pid}/clear_refs`, "5");
}

interface HostileRow extends Ending {
  name: string;
  sizeMb: number;
  lagS: number;
  healthS: number;
  peakMb: number;
  /** When the file was in, in µs of CLOCK_MONOTONIC (the clock of V8's CPU profiles). */
  fromUs: number;
  toUs: number;
}

const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

/** Files one at a time, so lag, time and peak memory belong to that file alone. */
async function measureOneByOne(url: string, token: string, metricsToken: string, pid: number, files: Input[]) {
  const rows: HostileRow[] = [];
  for (const file of files) {
    await resetPeak(pid);
    await lagSinceLastScrape(url, metricsToken);
    const fromUs = monotonicUs();
    const submitted = submit(url, token, file);
    const healthS = await slowestHealth(url, submitted);
    const ending = await submitted;
    const lagS = await lagSinceLastScrape(url, metricsToken);
    const toUs = monotonicUs();
    const sizeMb = file.bytes.byteLength / 1024 / 1024;
    rows.push({
      name: file.name,
      sizeMb,
      ...ending,
      lagS,
      healthS,
      peakMb: (await memoryOf(pid)).peakMb,
      fromUs,
      toUs,
    });
  }
  return rows;
}

function printRows(title: string, rows: HostileRow[]): void {
  const width = Math.max(...rows.map((r) => r.name.length), 4);
  const header = `${"file".padEnd(width)}   MiB  ${"status".padEnd(25)}  lag s  /healthz s  upload s  worker s  peak RSS MiB`;
  console.log(`\n${title}:\n${header}`);
  for (const r of rows) {
    const cells = [
      r.name.padEnd(width),
      r.sizeMb.toFixed(2).padStart(5),
      r.outcome.padEnd(25),
      r.lagS.toFixed(3).padStart(5),
      r.healthS.toFixed(3).padStart(10),
      r.uploadS.toFixed(2).padStart(8),
      r.jobS.toFixed(2).padStart(8),
      String(r.peakMb).padStart(12),
    ];
    console.log(cells.join("  "));
  }
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), "docsift-bench-hostile-"));
  const jobTimeoutMs = Number(values["job-timeout"]);
  const env = {
    ...process.env,
    DOCSIFT_DATA: dataDir,
    DOCSIFT_BOOTSTRAP_CLIENT: `${ADMIN.id}:${ADMIN.secret}`,
    DOCSIFT_JOB_TIMEOUT_MS: String(jobTimeoutMs),
    LOG_LEVEL: "info",
  };
  const { warmUp, anchor, hostile, feed: all } = await inputs();
  const { child, url } = await startServer(env);
  const pid = child.pid ?? 0;
  let crashed: string | undefined;
  child.once("exit", (code, signal) => {
    crashed = `exited with ${code ?? signal}`;
  });
  try {
    const token = await getToken(url, ADMIN.id, ADMIN.secret);
    const metricsToken = await getToken(url, ADMIN.id, ADMIN.secret, "metrics:read");
    const warmUpFromUs = monotonicUs();
    const warmed = await Promise.all(warmUp.map((input) => submit(url, token, input)));
    const warmUpMark = { name: "(warm-up)", fromUs: warmUpFromUs, toUs: monotonicUs() };
    if (warmed.some((o) => o.outcome !== "FINALISED"))
      throw new Error(`warm-up files did not finalise: ${warmed.map((o) => o.outcome).join(", ")}`);
    const baseline = await memoryOf(pid);
    const anchorRows = await measureOneByOne(url, token, metricsToken, pid, anchor);
    const rows = await measureOneByOne(url, token, metricsToken, pid, hostile);
    // The peak below is that of the mutations alone; the hostile files' peaks are in their rows.
    await resetPeak(pid);
    const started = performance.now();
    const feedFromUs = monotonicUs();
    const outcomes = new Map<string, number>();
    const slowest: { name: string; ms: number; outcome: string }[] = [];
    /** Inputs during which the peak rose, and by how much (exact attribution with --concurrency 1). */
    const peakRises: { name: string; mb: number }[] = [];
    let peak = (await memoryOf(pid)).peakMb;
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < all.length && !crashed) {
        const input = all[next++];
        if (!input) return;
        const t0 = performance.now();
        const { outcome } = await submit(url, token, input);
        slowest.push({ name: input.name, ms: Math.round(performance.now() - t0), outcome });
        if (crashed) return;
        const now = (await memoryOf(pid)).peakMb;
        if (now > peak) peakRises.push({ name: input.name, mb: now - peak });
        peak = Math.max(peak, now);
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: Number(values.concurrency) }, lane));
    if (values["cpu-prof"]) {
      const marks = [warmUpMark, ...anchorRows, ...rows].map(({ name, fromUs, toUs }) => ({ name, fromUs, toUs }));
      marks.push({ name: values.clean ? "(clean files)" : "(mutations)", fromUs: feedFromUs, toUs: monotonicUs() });
      await writeFile(join(values["cpu-prof"], "files.json"), JSON.stringify(marks));
    }
    const health = crashed ? 0 : (await requestJson(`${url}/healthz`)).status;
    const memory = crashed ? { peakMb: Number.NaN, rssMb: Number.NaN } : await memoryOf(pid);
    const count = (prefix: string): number =>
      [...outcomes].filter(([k]) => k.startsWith(prefix)).reduce((n, [, v]) => n + v, 0);
    const what = values.clean ? "unmutated seed files" : `${values.count} mutations, seed ${values.seed}`;
    const code = values.dist ? `built code ${values.dist}` : "sources under tsx";
    console.log(`server: docsift serve --workers ${values.workers} (${code}), DOCSIFT_JOB_TIMEOUT_MS=${jobTimeoutMs}`);
    console.log(`RSS after warm-up: ${baseline.rssMb} MiB`);
    printRows("anchor: honest files, one at a time", anchorRows);
    if (rows.length > 0) printRows("hostile files, one at a time", rows);
    console.log(`\n${what}: ${all.length} inputs, ${values.concurrency} in flight`);
    console.log(`wall time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    console.log(`refused 4xx: ${count("4xx")}  FAILED: ${count("FAILED")}  FINALISED: ${count("FINALISED")}`);
    console.log(`other answers: ${all.length - count("4xx") - count("FAILED") - count("FINALISED")}`);
    console.log(`crashes: ${crashed ? 1 : 0}${crashed ? ` (${crashed})` : ""}  /healthz after: ${health}`);
    console.log(`RSS at end ${memory.rssMb} MiB; peak while fed (VmHWM) ${memory.peakMb} MiB`);
    console.log("\noutcomes:");
    for (const [k, v] of [...outcomes].sort((a, b) => b[1] - a[1])) console.log(`  ${String(v).padStart(4)}  ${k}`);
    console.log("\nlargest rises of the peak (input that was running):");
    for (const r of peakRises.sort((a, b) => b.mb - a.mb).slice(0, 8)) console.log(`  +${r.mb} MiB  ${r.name}`);
    console.log("\nslowest inputs (upload to final answer):");
    for (const s of slowest.sort((a, b) => b.ms - a.ms).slice(0, 8))
      console.log(`  ${String(s.ms).padStart(7)} ms  ${s.name}  -> ${s.outcome}`);
    const anchorPeakMb = Math.max(...anchorRows.map((r) => r.peakMb));
    const peakMb = Math.max(memory.peakMb, ...rows.map((r) => r.peakMb));
    printTargets(rows, anchorRows, { peakMb, anchorPeakMb, warmRssMb: baseline.rssMb }, jobTimeoutMs);
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(undefined)));
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Issue #22's targets against what was measured: each line says met or MISSED, and by what, beside the anchor
 * (honest files measured the same way in the same run) and the ratio to it.
 */
function printTargets(
  rows: HostileRow[],
  anchorRows: HostileRow[],
  memory: { peakMb: number; anchorPeakMb: number; warmRssMb: number },
  jobTimeoutMs: number,
): void {
  const { peakMb, anchorPeakMb, warmRssMb } = memory;
  const verdict = (met: boolean): string => (met ? "met" : "MISSED");
  const worstLag = rows.reduce((w, r) => (r.lagS > w.lagS ? r : w), rows[0] ?? { lagS: 0, name: "-" });
  const anchorLag = anchorRows.reduce((w, r) => (r.lagS > w.lagS ? r : w), anchorRows[0] ?? { lagS: 0, name: "-" });
  const ratio = (a: number, b: number): string => (b > 0 ? `${(a / b).toFixed(2)}x` : "-");
  const worstJob = rows.reduce((w, r) => (r.jobS > w.jobS ? r : w), rows[0] ?? { jobS: 0, name: "-" });
  console.log("\ntargets (issue #22):");
  console.log(
    `  API event-loop lag <= ${MAX_LAG_S * 1000} ms per hostile file: ${verdict(worstLag.lagS <= MAX_LAG_S)} ` +
      `(worst ${(worstLag.lagS * 1000).toFixed(0)} ms, ${worstLag.name}; anchor: worst honest file ` +
      `${(anchorLag.lagS * 1000).toFixed(0)} ms, ${anchorLag.name}; ratio ${ratio(worstLag.lagS, anchorLag.lagS)})`,
  );
  console.log(
    `  worker time <= job time limit (${jobTimeoutMs / 1000} s): ${verdict(worstJob.jobS <= jobTimeoutMs / 1000 + CUT_GRACE_S)} ` +
      `(worst ${worstJob.jobS.toFixed(1)} s, ${worstJob.name})`,
  );
  console.log(
    `  peak RSS < ${MAX_PEAK_MB} MiB through the corpus: ${verdict(peakMb < MAX_PEAK_MB)} (${peakMb} MiB; anchor: ` +
      `RSS after warm-up ${warmRssMb} MiB, peak over the honest files ${anchorPeakMb} MiB; ratios ` +
      `${ratio(peakMb, warmRssMb)}, ${ratio(peakMb, anchorPeakMb)})`,
  );
}

await main();
