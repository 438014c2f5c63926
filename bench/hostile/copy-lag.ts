/**
 * The event-loop lag of the upload path's two whole-file copies alone (`npx tsx bench/hostile/copy-lag.ts
 * [--mb 13] [--rounds 20]`): gathering the form's 64 KiB chunks into one buffer, then the inspection's own copy,
 * done at once (Buffer.concat, new Uint8Array: the code before) and a slice at a time (concatInSlices), in
 * alternation on the same machine, each round under monitorEventLoopDelay with a 1 ms timer ticking meanwhile.
 * Prints, per way, the median and worst of each round's largest event-loop delay and the median wall time.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { concatInSlices } from "../../src/workflows/copy-in-slices.js";
import { runMain } from "../run-main.js";

const { values } = parseArgs({
  options: { mb: { type: "string", default: "13" }, rounds: { type: "string", default: "20" } },
});
const CHUNK = 64 * 1024;

async function atOnce(chunks: Buffer[]): Promise<number> {
  const whole = Buffer.concat(chunks);
  return new Uint8Array(whole).byteLength;
}

async function inSlices(chunks: Buffer[]): Promise<number> {
  const whole = await concatInSlices(chunks);
  return (await concatInSlices([whole])).byteLength;
}

/** The largest event-loop delay (ms) and the wall time (ms) of one run of `copy`, a timer ticking meanwhile. */
async function measure(copy: (chunks: Buffer[]) => Promise<number>, chunks: Buffer[]) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  const ticker = setInterval(() => undefined, 1);
  histogram.enable();
  await new Promise((resolve) => setTimeout(resolve, 5));
  const started = performance.now();
  await copy(chunks);
  const wallMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 5));
  histogram.disable();
  clearInterval(ticker);
  return { lagMs: histogram.max / 1e6, wallMs };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function main(): Promise<number> {
  const size = Number(values.mb) * 1024 * 1024;
  const chunks = Array.from({ length: Math.ceil(size / CHUNK) }, (_, i) => Buffer.alloc(CHUNK, i));
  const ways = { "at once (before)": atOnce, "in slices (after)": inSlices };
  const seen = new Map<string, { lagMs: number[]; wallMs: number[] }>();
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const [name, copy] of Object.entries(ways)) {
      const { lagMs, wallMs } = await measure(copy, chunks);
      const row = seen.get(name) ?? { lagMs: [], wallMs: [] };
      row.lagMs.push(lagMs);
      row.wallMs.push(wallMs);
      seen.set(name, row);
    }
  }
  console.log(`${values.mb} MB in 64 KiB chunks, gathered then copied again; ${values.rounds} rounds each`);
  for (const [name, row] of seen) {
    console.log(
      `${name.padEnd(18)} event-loop delay median ${median(row.lagMs).toFixed(1)} ms, worst ` +
        `${Math.max(...row.lagMs).toFixed(1)} ms; wall median ${median(row.wallMs).toFixed(1)} ms`,
    );
  }
  return 0;
}

runMain(main);
