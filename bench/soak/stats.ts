/**
 * The soak's bookkeeping, pure: per-kind request outcomes and latencies, percentiles, and the RSS series with its
 * growth over the second half of the run (a leak shows as a steady slope there, after warm-up has settled).
 */

/** How one request ended: as intended (2xx, or a 4xx the soak asked for), or an error. */
export type Outcome = "ok" | "expected-4xx" | "error";

export interface KindStats {
  count: number;
  ok: number;
  expected4xx: number;
  errors: number;
  /** Milliseconds of every request of this kind, in arrival order. */
  latencies: number[];
}

export interface ErrorSample {
  atSeconds: number;
  kind: string;
  detail: string;
}

/** Keeps the first errors verbatim (enough to diagnose) and only counts the rest. */
const ERROR_SAMPLES = 20;

export class Recorder {
  readonly kinds = new Map<string, KindStats>();
  readonly errorSamples: ErrorSample[] = [];
  /** Errors that are not tied to one request (a FAILED file, a lost upload), by cause. */
  readonly otherErrors = new Map<string, number>();

  constructor(private readonly startedAt: number) {}

  record(kind: string, outcome: Outcome, ms: number, detail = ""): void {
    let stats = this.kinds.get(kind);
    if (!stats) {
      stats = { count: 0, ok: 0, expected4xx: 0, errors: 0, latencies: [] };
      this.kinds.set(kind, stats);
    }
    stats.count++;
    stats.latencies.push(ms);
    if (outcome === "ok") stats.ok++;
    else if (outcome === "expected-4xx") stats.expected4xx++;
    else {
      stats.errors++;
      this.sample(kind, detail);
    }
  }

  /** An error found by checking a file rather than by a request's status. */
  fileError(cause: string, detail: string): void {
    this.otherErrors.set(cause, (this.otherErrors.get(cause) ?? 0) + 1);
    this.sample(cause, detail);
  }

  totalErrors(): number {
    let n = 0;
    for (const s of this.kinds.values()) n += s.errors;
    for (const c of this.otherErrors.values()) n += c;
    return n;
  }

  private sample(kind: string, detail: string): void {
    if (this.errorSamples.length >= ERROR_SAMPLES) return;
    const atSeconds = Math.round((performance.now() - this.startedAt) / 1000);
    this.errorSamples.push({ atSeconds, kind, detail: detail.slice(0, 300) });
  }
}

/** Nearest-rank percentile of an ascending array; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

export interface LatencySummary {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function summarise(latencies: readonly number[]): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

export interface RssSample {
  /** Seconds since the soak's traffic started. */
  t: number;
  /** VmRSS, VmHWM and RssAnon in MiB. */
  rssMb: number;
  hwmMb: number;
  anonMb: number;
}

export interface RssSummary {
  startMb: number;
  endMb: number;
  peakMb: number;
  /** RSS at the first sample of the second half. */
  midMb: number;
  /** endMb - midMb. */
  lastHalfGrowthMb: number;
  /** Least-squares slope over the second half's samples, MiB per minute: noise-tolerant, unlike end - mid. */
  lastHalfSlopeMbPerMin: number;
  /** The same slope for RssAnon alone. */
  anonLastHalfSlopeMbPerMin: number;
}

/** Least-squares slope of y over x; 0 for fewer than two distinct x. */
export function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** Start, end, peak and second-half growth of the samples taken during the traffic (`durationS` long). */
export function summariseRss(samples: readonly RssSample[], durationS: number): RssSummary | undefined {
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (!first || !last) return undefined;
  const secondHalf = samples.filter((s) => s.t >= durationS / 2);
  const mid = secondHalf[0] ?? last;
  return {
    startMb: first.rssMb,
    endMb: last.rssMb,
    peakMb: Math.max(...samples.map((s) => Math.max(s.rssMb, s.hwmMb))),
    midMb: mid.rssMb,
    lastHalfGrowthMb: last.rssMb - mid.rssMb,
    lastHalfSlopeMbPerMin: slope(secondHalf.map((s) => ({ x: s.t / 60, y: s.rssMb }))),
    anonLastHalfSlopeMbPerMin: slope(secondHalf.map((s) => ({ x: s.t / 60, y: s.anonMb }))),
  };
}
