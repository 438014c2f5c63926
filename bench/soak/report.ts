/**
 * The soak's summary: built from the recorders and samples (pure), printed as a table and written as JSON.
 */
import type { ServerLog } from "./server.js";
import {
  type ErrorSample,
  type LatencySummary,
  type Recorder,
  type RssSample,
  type RssSummary,
  slope,
  summarise,
} from "./stats.js";

export interface KindRow extends LatencySummary {
  count: number;
  ok: number;
  expected4xx: number;
  errors: number;
}

export interface Sample extends RssSample {
  queueDepth: number | null;
  /** The server's main-thread JS heap in use (nodejs_heap_size_used_bytes; worker threads not included). */
  heapUsedMb: number | null;
  load1: number;
}

export interface SoakSummary {
  config: Record<string, string | number | boolean>;
  machine: { cores: number; loadStart: number[]; loadEnd: number[]; load1Mean: number };
  /** Seconds of traffic, then of the drain (waiting for files still in flight). */
  trafficS: number;
  drainS: number;
  interrupted: boolean;
  requests: Record<string, KindRow>;
  endToEnd: Record<string, KindRow>;
  uploads: {
    accepted: number;
    splitChildren: number;
    received: number;
    finalised: number;
    failed: number;
    unfinished: number;
  };
  errors: { total: number; byCause: Record<string, number>; samples: ErrorSample[] };
  rss: (RssSummary & { readyMb: number; afterDrainMb: number | null }) | null;
  queueDepth: { max: number | null; end: number | null };
  heap: HeapSummary | null;
  server: {
    failuresByCode: Record<string, number>;
    pagesBySource: Record<string, number>;
    log: ServerLog;
    exitCode: number | null;
    stopS: number;
  };
  client: { arrivals: number; maxInFlight: number; tickLatenessP99Ms: number; tickLatenessMaxMs: number };
  samples: Sample[];
}

export interface HeapSummary {
  startMb: number;
  endMb: number;
  lastHalfSlopeMbPerMin: number;
}

/** The main thread's JS heap over the traffic: after GC noise, a leak in the API process shows as a slope here. */
export function heapSummary(samples: readonly Sample[], durationS: number): HeapSummary | null {
  const points = samples.flatMap((s) => (s.heapUsedMb === null ? [] : [{ t: s.t, y: s.heapUsedMb }]));
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return null;
  const secondHalf = points.filter((p) => p.t >= durationS / 2).map((p) => ({ x: p.t / 60, y: p.y }));
  return { startMb: first.y, endMb: last.y, lastHalfSlopeMbPerMin: slope(secondHalf) };
}

export function rows(rec: Recorder): Record<string, KindRow> {
  const out: Record<string, KindRow> = {};
  for (const [kind, s] of [...rec.kinds].sort(([a], [b]) => a.localeCompare(b))) {
    out[kind] = { count: s.count, ok: s.ok, expected4xx: s.expected4xx, errors: s.errors, ...summarise(s.latencies) };
  }
  return out;
}

const ms = (v: number): string => (Number.isNaN(v) ? "-" : v < 10 ? v.toFixed(1) : v.toFixed(0));
const mb = (v: number | null | undefined): string =>
  v === null || v === undefined || Number.isNaN(v) ? "-" : v.toFixed(1);
const pad = (s: string | number, n: number): string => String(s).padStart(n);

function table(title: string, data: Record<string, KindRow>, withOutcomes: boolean): string[] {
  const head = withOutcomes ? `${pad("ok", 7)}${pad("4xx*", 7)}${pad("errors", 8)}` : "";
  const lines = [
    `${title}`,
    `  ${"kind".padEnd(18)}${pad("count", 7)}${head}${pad("p50", 9)}${pad("p95", 9)}${pad("p99", 9)}${pad("max", 9)}  (ms)`,
  ];
  for (const [kind, r] of Object.entries(data)) {
    const outcomes = withOutcomes ? `${pad(r.ok, 7)}${pad(r.expected4xx, 7)}${pad(r.errors, 8)}` : "";
    lines.push(
      `  ${kind.padEnd(18)}${pad(r.count, 7)}${outcomes}${pad(ms(r.p50), 9)}${pad(ms(r.p95), 9)}${pad(ms(r.p99), 9)}${pad(ms(r.max), 9)}`,
    );
  }
  return lines;
}

export function formatSummary(s: SoakSummary): string {
  const c = s.config;
  const load = (l: number[]): string => l.map((v) => v.toFixed(2)).join(" ");
  const lines = [
    `docsift soak${s.interrupted ? " (INTERRUPTED)" : ""}: ${(s.trafficS / 60).toFixed(1)} min of traffic at ${c.rate} ` +
      `uploads/min (scans ${c.scanShare}, split ${c.splitShare}, validate ${c.validateShare}), server ` +
      `${c.runner} with ${c.workers} worker threads on ${c.store}; drain ${s.drainS.toFixed(0)} s`,
    `machine: ${s.machine.cores} cores, load average ${load(s.machine.loadStart)} at start, ` +
      `${load(s.machine.loadEnd)} at end, 1-min mean during traffic ${s.machine.load1Mean.toFixed(2)}`,
    "",
    ...table("requests by kind (4xx* = provoked on purpose, not errors):", s.requests, true),
    "",
    ...table("upload -> FINALISED by document class:", s.endToEnd, false),
    "",
    `uploads: ${s.uploads.accepted} accepted + ${s.uploads.splitChildren} split children = ${s.uploads.received} received; ` +
      `${s.uploads.finalised} FINALISED, ${s.uploads.failed} FAILED, ${s.uploads.unfinished} unfinished`,
    `queue depth (docsift_queue_depth): max ${s.queueDepth.max ?? "-"}, at end of traffic ${s.queueDepth.end ?? "-"}`,
  ];
  const r = s.rss;
  if (r) {
    lines.push(
      `server RSS (MiB): ready ${mb(r.readyMb)}, start ${mb(r.startMb)}, end ${mb(r.endMb)}, peak ${mb(r.peakMb)} (VmHWM), ` +
        `after drain ${mb(r.afterDrainMb)}`,
      `  second half: ${mb(r.midMb)} -> ${mb(r.endMb)} (${r.lastHalfGrowthMb >= 0 ? "+" : ""}${mb(r.lastHalfGrowthMb)}), ` +
        `slope ${r.lastHalfSlopeMbPerMin.toFixed(2)} MiB/min (RssAnon alone ${r.anonLastHalfSlopeMbPerMin.toFixed(2)} MiB/min)`,
    );
  }
  if (r && c.runner === "tsx") {
    lines.push("  (server run through tsx: its loader in every worker thread inflates RSS; use a build for memory)");
  }
  if (s.heap) {
    lines.push(
      `server main-thread JS heap used (MiB): start ${mb(s.heap.startMb)}, end ${mb(s.heap.endMb)}, ` +
        `second-half slope ${s.heap.lastHalfSlopeMbPerMin.toFixed(2)} MiB/min`,
    );
  }
  const sv = s.server;
  lines.push(
    `server: failures_total ${JSON.stringify(sv.failuresByCode)}, pages ${JSON.stringify(sv.pagesBySource)}, ` +
      `log lines warn ${sv.log.warn} / error ${sv.log.error}, exit ${sv.exitCode} after SIGTERM in ${sv.stopS.toFixed(1)} s`,
    `client: ${s.client.arrivals} arrivals, max ${s.client.maxInFlight} flows in flight, scheduler lateness ` +
      `p99 ${ms(s.client.tickLatenessP99Ms)} ms, max ${ms(s.client.tickLatenessMaxMs)} ms`,
    "",
    `ERRORS: ${s.errors.total} (target 0)${Object.keys(s.errors.byCause).length ? ` ${JSON.stringify(s.errors.byCause)}` : ""}`,
  );
  for (const e of s.errors.samples) lines.push(`  [${e.atSeconds}s] ${e.kind}: ${e.detail}`);
  for (const l of sv.log.samples) lines.push(`  server log: ${l}`);
  return lines.join("\n");
}
