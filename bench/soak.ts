/**
 * Soak benchmark (`npm run bench:soak`): a `docsift serve` process on a fresh data dir takes a steady mix for
 * --minutes: born-digital uploads (multipart and JSON) with blocking result fetches or timeout=0 polls, page images and
 * repeated fetches, some scans (OCR), split bundles, validate uploads resolved by a reviewer loop, the catalog, token
 * refreshes, and 4xx provoked on purpose (bad token, unknown fileId, a file that is not a document), which count as
 * expected. Arrivals are open-loop (a fixed schedule, not "next when the last is done"), so a server that falls
 * behind shows as growing latency and queue depth rather than as a slower client.
 *
 * Reports requests, errors (unexpected statuses, FAILED or unfinished files; target 0) and p50/p95/p99 per kind,
 * upload-to-FINALISED per document class, uploads received vs finalised after a drain, and the server's RSS (VmRSS,
 * VmHWM from /proc every --sample-seconds) at start, end, peak and its growth over the second half.
 *
 *   npm run bench:soak -- [--minutes 10] [--rate 30] [--scan-share 0.1] [--split-share 0.04]
 *     [--validate-share 0.04] [--workers N] [--database-url postgres://...] [--server tsx|dist] [--seed 1]
 *     [--sample-seconds 5] [--drain-seconds 300] [--log-level info] [--corpus /work/shared/data] [--json OUT]
 *
 * Exit code: 0 with no errors, 1 otherwise, 130 when interrupted (the server and temp dir are removed either way).
 */
import { writeFile } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { runMain } from "./run-main.js";
import { buildPool, type DocumentPool, type PoolDocument } from "./soak/documents.js";
import {
  documentFlow,
  type FlowContext,
  PROBES,
  probe,
  reconcile,
  refreshToken,
  reviewLoop,
  splitFlow,
  validateFlow,
} from "./soak/flows.js";
import { SoakClient } from "./soak/http.js";
import { metricByLabels, metricSum } from "./soak/metrics.js";
import { formatSummary, heapSummary, rows, type Sample, type SoakSummary } from "./soak/report.js";
import { chooseRunner, readMemory, type SoakServer, startServer } from "./soak/server.js";
import { percentile, Recorder, summariseRss } from "./soak/stats.js";
import { Rng } from "./synth/prng.js";

const USAGE = `Usage: npm run bench:soak -- [options]
  --minutes M            traffic duration (10; 1 for a quick check)
  --rate N               uploads per minute, open-loop (30)
  --scan-share F         share of uploads that are scans, OCR'd (0.1)
  --split-share F        share of split uploads of 2-3 invoice bundles (0.04)
  --validate-share F     share of validate uploads, resolved by a reviewer loop (0.04)
  --workers N            the server's processing threads (cores)
  --database-url URL     soak PostgreSQL mode: a fresh schema on this server, dropped at the end
  --server auto|tsx|dist|JS
                         the server: src/ through tsx, the build in dist/ (npm run build first), or a built
                         cli/main.js elsewhere (tsc -p tsconfig.build.json --outDir bench/out/soak-dist); auto
                         (default) takes dist/ when it is newer than src/, else tsx. Under tsx the server's RSS is
                         about three times the build's: take memory numbers from a build
  --seed S               documents and the arrival mix (1)
  --sample-seconds S     RSS and /metrics sampling interval (5)
  --drain-seconds S      longest wait for files still in flight after the traffic (300)
  --log-level L          the server's LOG_LEVEL (info)
  --corpus DIR           development corpora (invoices-dev/, receipts-dev/) added to the mix if present
  --json OUT             write the summary, with the samples, as JSON
`;

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "10" },
    rate: { type: "string", default: "30" },
    "scan-share": { type: "string", default: "0.1" },
    "split-share": { type: "string", default: "0.04" },
    "validate-share": { type: "string", default: "0.04" },
    workers: { type: "string", default: String(availableParallelism()) },
    "database-url": { type: "string" },
    server: { type: "string", default: "auto" },
    seed: { type: "string", default: "1" },
    "sample-seconds": { type: "string", default: "5" },
    "drain-seconds": { type: "string", default: "300" },
    "log-level": { type: "string", default: "info" },
    corpus: { type: "string", default: "/work/shared/data" },
    json: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

function num(name: string, min: number, max = Number.POSITIVE_INFINITY): number {
  const v = Number(values[name as keyof typeof values]);
  if (!Number.isFinite(v) || v < min || v > max) throw new Error(`--${name} must be a number in ${min}..${max}`);
  return v;
}

const minutes = num("minutes", 0.1);
const rate = num("rate", 0.1);
const scanShare = num("scan-share", 0, 1);
const splitShare = num("split-share", 0, 1);
const validateShare = num("validate-share", 0, 1);
if (scanShare + splitShare + validateShare > 1) throw new Error("the shares add up to more than 1");
const workers = num("workers", 1);
const seed = num("seed", 0);
const sampleMs = num("sample-seconds", 1) * 1000;
const drainMs = num("drain-seconds", 0) * 1000;

const databaseUrl = values["database-url"];

/** Shares of the digital flows' variants. */
const JSON_SHARE = 0.25;
const POLL_SHARE = 0.3;
const IMAGE_SHARE = 0.4;
const PROBE_SHARE = 0.5;
const POLL_MS = 500;
const REVIEW_MS = 2000;
const TOKEN_REFRESH_MS = 60_000;

type FlowKind = "digital" | "scan" | "split" | "validate";

/** One arrival: which flow, on which document, in which variant. Drawn from the seeded stream. */
function arrival(rng: Rng, pool: DocumentPool, invoices: PoolDocument[], ctx: FlowContext): Promise<void> {
  const kind = rng.weighted<FlowKind>([
    ["scan", pool.scans.length ? scanShare : 0],
    ["split", pool.bundles.length ? splitShare : 0],
    ["validate", invoices.length ? validateShare : 0],
    ["digital", 1 - scanShare - splitShare - validateShare],
  ]);
  const json = rng.chance(JSON_SHARE);
  const mode = rng.chance(POLL_SHARE) ? "poll" : "blocking";
  const image = rng.chance(IMAGE_SHARE);
  const flows: Promise<void>[] = [];
  if (rng.chance(PROBE_SHARE)) flows.push(probe(ctx, rng.pick(PROBES)));
  if (kind === "scan") flows.push(documentFlow(ctx, rng.pick(pool.scans), { json, mode, image, klass: "scan" }));
  else if (kind === "split") flows.push(splitFlow(ctx, rng.pick(pool.bundles)));
  else if (kind === "validate") flows.push(validateFlow(ctx, rng.pick(invoices)));
  else flows.push(documentFlow(ctx, rng.pick(pool.digital), { json, mode, image, klass: "digital" }));
  return Promise.all(flows).then(() => undefined);
}

async function main(): Promise<number> {
  const started = Date.now();
  process.stderr.write("building documents... ");
  const pool = await buildPool({ seed, digital: 60, scans: 8, bundles: 8, corpusDir: values.corpus, corpusFiles: 24 });
  process.stderr.write(
    `${pool.digital.length} digital, ${pool.scans.length} scans, ${pool.bundles.length} bundles in ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );

  const abort = new AbortController();
  const onSigint = (): void => {
    process.stderr.write("\ninterrupted: stopping the server and removing its data\n");
    abort.abort();
  };
  process.once("SIGINT", onSigint);
  process.once("SIGTERM", onSigint);

  const loadStart = loadavg();
  const runner = await chooseRunner(values.server);
  const server = await startServer({ runner, workers, databaseUrl, logLevel: values["log-level"] });
  try {
    const summary = await soak(server, pool, abort.signal, loadStart, runner);
    const stopStarted = performance.now();
    await server.stop();
    summary.server.exitCode = server.exited() ?? null;
    summary.server.stopS = (performance.now() - stopStarted) / 1000;
    summary.interrupted = abort.signal.aborted;
    process.stdout.write(`${formatSummary(summary)}\n`);
    if (values.json) await writeFile(values.json, `${JSON.stringify(summary, null, 2)}\n`);
    if (summary.interrupted) return 130;
    return summary.errors.total === 0 && summary.server.exitCode === 0 ? 0 : 1;
  } finally {
    // Idempotent: after a normal stop this only finds the data dir gone already.
    await server.stop();
  }
}

function newContext(url: string, signal: AbortSignal): FlowContext {
  const rec = new Recorder(performance.now());
  return {
    client: new SoakClient(url, rec, signal),
    rec,
    e2e: new Recorder(performance.now()),
    ledger: { received: new Map(), finalised: new Set(), failed: new Set(), children: 0 },
    pollMs: POLL_MS,
    giveUpAt: Number.POSITIVE_INFINITY,
  };
}

async function soak(
  server: SoakServer,
  pool: DocumentPool,
  signal: AbortSignal,
  loadStart: number[],
  runner: string,
): Promise<SoakSummary> {
  const readyMb = (await readMemory(server.pid))?.rssMb ?? Number.NaN;
  // Warm-up, not counted: the threads' module caches (pdf.js, fonts) load on the first file.
  const warm = newContext(server.url, signal);
  if (!(await refreshToken(warm, server.admin))) throw new Error("cannot get a token");
  const first = pool.digital[0];
  if (first) await documentFlow(warm, first, { json: false, mode: "blocking", image: true, klass: "warm-up" });
  if (warm.rec.totalErrors() > 0) throw new Error(`warm-up failed: ${JSON.stringify(warm.rec.errorSamples)}`);

  const ctx = newContext(server.url, signal);
  const { client, rec, e2e, ledger } = ctx;
  client.token = warm.client.token;
  const durationMs = minutes * 60_000;
  const start = performance.now();
  const endAt = start + durationMs;
  ctx.giveUpAt = endAt + drainMs;
  const samples: Sample[] = [];
  const stopBackground = new AbortController();
  const background = AbortSignal.any([signal, stopBackground.signal]);
  let lastQueueDepth: number | null = null;
  let heapUsedMb: number | null = null;
  let metricsText = "";

  const sampleOnce = async (): Promise<void> => {
    const mem = await readMemory(server.pid);
    const res = await client.call({ kind: "metrics", path: "/metrics", binary: true });
    if (res?.status === 200) {
      metricsText = new TextDecoder().decode(res.bytes);
      lastQueueDepth = metricSum(metricsText, "docsift_queue_depth") ?? null;
      const heap = metricSum(metricsText, "nodejs_heap_size_used_bytes");
      heapUsedMb = heap === undefined ? null : heap / 1024 / 1024;
    }
    if (mem)
      samples.push({
        t: (performance.now() - start) / 1000,
        ...mem,
        queueDepth: lastQueueDepth,
        heapUsedMb,
        load1: loadavg()[0] ?? 0,
      });
  };
  const every = async (ms: number, fn: () => Promise<unknown>): Promise<void> => {
    while (!background.aborted) {
      await sleep(ms, undefined, { signal: background }).catch(() => undefined);
      if (!background.aborted) await fn();
    }
  };
  await sampleOnce();
  const loops = [
    every(sampleMs, sampleOnce),
    every(TOKEN_REFRESH_MS, () => refreshToken(ctx, server.admin)),
    reviewLoop(ctx, REVIEW_MS, background),
  ];

  // Open-loop arrivals on a fixed schedule.
  const rng = new Rng(seed);
  const invoices = pool.digital.filter((d) => d.product === "invoices");
  const interval = 60_000 / rate;
  const inFlight = new Set<Promise<void>>();
  const lateness: number[] = [];
  let maxInFlight = 0;
  for (let i = 0; ; i++) {
    const due = start + i * interval;
    if (due >= endAt) break;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait, undefined, { signal }).catch(() => undefined);
    if (signal.aborted) break;
    if (server.exited() !== undefined) {
      rec.fileError("server-exited", `docsift serve exited with ${server.exited()}`);
      break;
    }
    lateness.push(performance.now() - due);
    const flow: Promise<void> = arrival(rng, pool, invoices, ctx)
      .catch((err: unknown) =>
        rec.fileError("flow-crash", err instanceof Error ? (err.stack ?? err.message) : String(err)),
      )
      .finally(() => inFlight.delete(flow));
    inFlight.add(flow);
    maxInFlight = Math.max(maxInFlight, inFlight.size);
  }
  // The last arrival came up to one interval before the end: the traffic still runs its full length.
  await sleep(endAt - performance.now(), undefined, { signal }).catch(() => undefined);
  const trafficEnd = performance.now();
  await sampleOnce();
  const queueAtEnd = lastQueueDepth;
  const loadEnd = loadavg();
  const trafficS = (trafficEnd - start) / 1000;

  // Drain: the flows still waiting for files finish (or give up at giveUpAt), then every receipt is checked.
  process.stderr.write(`traffic done after ${trafficS.toFixed(0)} s; draining ${inFlight.size} flows\n`);
  await Promise.all(inFlight);
  const drainS = (performance.now() - trafficEnd) / 1000;
  stopBackground.abort();
  await Promise.all(loops);
  const reconciled = signal.aborted ? undefined : await reconcile(ctx);
  const afterDrain = await readMemory(server.pid);
  const final = await client.call({ kind: "metrics", path: "/metrics", binary: true });
  if (final?.status === 200) metricsText = new TextDecoder().decode(final.bytes);

  const during = samples.filter((s) => s.t <= trafficS + 1);
  const rss = summariseRss(during, trafficS);
  const depths = samples.map((s) => s.queueDepth).filter((d): d is number => d !== null);
  const late = [...lateness].sort((a, b) => a - b);
  const byCause: Record<string, number> = {};
  for (const [kind, s] of rec.kinds) if (s.errors) byCause[kind] = s.errors;
  for (const [cause, n] of rec.otherErrors) byCause[cause] = (byCause[cause] ?? 0) + n;
  const summary: SoakSummary = {
    config: {
      minutes,
      rate,
      scanShare,
      splitShare,
      validateShare,
      workers,
      runner,
      store: databaseUrl ? "PostgreSQL" : "embedded SQLite",
      seed,
      sampleSeconds: sampleMs / 1000,
      drainSeconds: drainMs / 1000,
      documents: `${pool.digital.length} digital, ${pool.scans.length} scans, ${pool.bundles.length} bundles`,
    },
    machine: {
      cores: availableParallelism(),
      loadStart,
      loadEnd,
      load1Mean: during.reduce((s, x) => s + x.load1, 0) / Math.max(1, during.length),
    },
    trafficS,
    drainS,
    interrupted: signal.aborted,
    requests: rows(rec),
    endToEnd: rows(e2e),
    uploads: {
      accepted: ledger.received.size - ledger.children,
      splitChildren: ledger.children,
      received: ledger.received.size,
      finalised: reconciled?.finalised ?? ledger.finalised.size,
      failed: reconciled?.failed ?? ledger.failed.size,
      unfinished: reconciled?.unfinished.length ?? ledger.received.size - ledger.finalised.size - ledger.failed.size,
    },
    errors: { total: rec.totalErrors(), byCause, samples: rec.errorSamples },
    rss: rss ? { ...rss, readyMb, afterDrainMb: afterDrain?.rssMb ?? null } : null,
    queueDepth: { max: depths.length ? Math.max(...depths) : null, end: queueAtEnd },
    heap: heapSummary(during, trafficS),
    server: {
      failuresByCode: metricByLabels(metricsText, "docsift_failures_total"),
      pagesBySource: metricByLabels(metricsText, "docsift_pages_total"),
      log: server.log,
      exitCode: null,
      stopS: 0,
    },
    client: {
      arrivals: lateness.length,
      maxInFlight,
      tickLatenessP99Ms: percentile(late, 99),
      tickLatenessMaxMs: late[late.length - 1] ?? Number.NaN,
    },
    samples,
  };
  return summary;
}

runMain(main);
