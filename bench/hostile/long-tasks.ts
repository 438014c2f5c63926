/**
 * Where the API's event loop was held (`npx tsx bench/hostile/long-tasks.ts DIR [--min-ms 50]`): reads the V8 CPU
 * profiles `bench:hostile --cpu-prof DIR` made the server write, takes the main thread's (the largest profile whose
 * samples include the HTTP server; worker threads write their own files), and prints each stretch of consecutive
 * busy samples (anything but `(idle)`) of at least --min-ms: its length, the file that was in at the time (from
 * DIR/files.json, on the same monotonic clock), and the functions that took most of it (self time), with their
 * script. A stretch is synchronous work of the main thread, or the main thread waiting for a CPU on a loaded machine.
 * They differ in their samples: V8 samples a running thread every interval (1 ms), while a thread that waits for a
 * CPU takes its next sample only when it runs again, so one sample spans the wait. Each stretch therefore also shows
 * its time on a CPU, estimated as samples x the profile's median interval, and the stretches are listed by it.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runMain } from "../run-main.js";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface FileMark {
  name: string;
  fromUs: number;
  toUs: number;
}
interface Stretch {
  fromUs: number;
  toUs: number;
  samples: number;
  /** µs of self time per function, within the stretch. */
  self: Map<string, number>;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { "min-ms": { type: "string", default: "50" }, top: { type: "string", default: "6" } },
});

function frameName(frame: CallFrame): string {
  const script = frame.url.replace(/^.*\/(node_modules\/)?/, "");
  return `${frame.functionName || "(anonymous)"} ${script ? `${script}:${frame.lineNumber + 1}` : ""}`.trim();
}

/** Runs of consecutive non-idle samples; a sample's time is the delta that precedes the next sample. */
function busyStretches(profile: CpuProfile, minUs: number): Stretch[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const stretches: Stretch[] = [];
  let current: Stretch | undefined;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    const spent = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(profile.samples[i] ?? -1);
    const name = node ? frameName(node.callFrame) : "?";
    if (name === "(idle)") {
      if (current && current.toUs - current.fromUs >= minUs) stretches.push(current);
      current = undefined;
      continue;
    }
    current ??= { fromUs: at, toUs: at, samples: 0, self: new Map() };
    current.toUs = at + spent;
    current.samples++;
    current.self.set(name, (current.self.get(name) ?? 0) + spent);
  }
  if (current && current.toUs - current.fromUs >= minUs) stretches.push(current);
  return stretches;
}

/** The main thread's profile: the one that ran fastify (worker threads never load it), largest if several. */
async function mainThreadProfile(dir: string): Promise<{ file: string; profile: CpuProfile }> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".cpuprofile"));
  let best: { file: string; profile: CpuProfile } | undefined;
  for (const file of files) {
    const profile = JSON.parse(await readFile(join(dir, file), "utf8")) as CpuProfile;
    if (!profile.nodes.some((n) => n.callFrame.url.includes("/fastify/"))) continue;
    if (!best || profile.samples.length > best.profile.samples.length) best = { file, profile };
  }
  if (!best) throw new Error(`no profile of the API's main thread (one that ran fastify) in ${dir}`);
  return best;
}

async function main(): Promise<number> {
  const dir = positionals[0];
  if (!dir) throw new Error("usage: long-tasks.ts DIR [--min-ms 50] [--top 6]");
  const { file, profile } = await mainThreadProfile(dir);
  const marks = JSON.parse(await readFile(join(dir, "files.json"), "utf8").catch(() => "[]")) as FileMark[];
  const during = (s: Stretch): string =>
    marks.find((m) => s.fromUs < m.toUs && s.toUs > m.fromUs)?.name ?? "(no file in: start-up, shutdown)";
  const deltas = [...profile.timeDeltas].sort((a, b) => a - b);
  const intervalUs = deltas[Math.floor(deltas.length / 2)] ?? 1000;
  const onCpuMs = (s: Stretch): number => (s.samples * intervalUs) / 1000;
  const stretches = busyStretches(profile, Number(values["min-ms"]) * 1000);
  console.log(
    `${file}: ${stretches.length} busy stretches of >= ${values["min-ms"]} ms on the main thread ` +
      `(median sample interval ${intervalUs} µs)`,
  );
  for (const s of stretches.sort((a, b) => onCpuMs(b) - onCpuMs(a))) {
    const wallMs = (s.toUs - s.fromUs) / 1000;
    console.log(`\n${wallMs.toFixed(0)} ms, about ${onCpuMs(s).toFixed(0)} ms of it on a CPU, during ${during(s)}`);
    const top = [...s.self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top));
    for (const [name, us] of top) console.log(`  ${(us / 1000).toFixed(1).padStart(7)} ms  ${name}`);
  }
  return 0;
}

runMain(main);
