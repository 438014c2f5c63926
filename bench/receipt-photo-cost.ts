/**
 * bench:ingest's real-photo case: the marginal CPU cost of one receipt photo through `docsift extract` (the CLI,
 * files in parallel on every core) against bare `tesseract IMAGE - --psm 6` on the same photos in the same run.
 *
 * Receipts: `count` JPG/PNG files of a labelled folder (receipts-dev), drawn by a seeded shuffle of the sorted file
 * names, never chosen by hand. Marginal cost: the CLI is run once on the photos and once on them listed twice; the
 * difference over `count` is what one more receipt costs, with the fixed costs of a run (Node and tsx start-up, the
 * line recogniser's model load) cancelled out. Bare tesseract runs the same photos two at a time with
 * OMP_THREAD_LIMIT=1, as docsift runs it (the cheaper way: OpenMP threads add CPU without saving any).
 *
 * CPU time is this process's children once reaped (the CLI with every tesseract it ran) plus the line recogniser's
 * process, which the CLI leaves to exit on its own after the CLI itself: it is read from /proc while it runs (idle
 * once the last line is read, so its last reading is its total).
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { mapConcurrent } from "../src/ingest/concurrency.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));
/** Linux clock ticks per second for /proc times (CLK_TCK is 100 on every mainstream kernel build). */
const TICKS_PER_SECOND = 100;
/** How often the recogniser's process is read while the CLI runs (ms). */
const POLL_MS = 100;

/** The `count` image files of `dir` a seeded shuffle (mulberry32) of their sorted names puts first. */
export function pickPhotos(dir: string, count: number, seed: number): string[] {
  const files = readdirSync(dir)
    .filter((f) => /\.(jpe?g|png)$/i.test(f))
    .sort();
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = files.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [files[i], files[j]] = [files[j]!, files[i]!];
  }
  return files.slice(0, count).map((f) => join(dir, f));
}

/** Fields 3 onwards of /proc/<pid>/stat (after the parenthesised command name), or undefined when it is gone. */
function statFields(pid: number | "self"): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  } catch {
    return undefined;
  }
}

/** CPU ms of this process's reaped children so far (cutime + cstime, fields 16 and 17 of proc(5)). */
function reapedChildrenMs(): number {
  const fields = statFields("self");
  return fields ? ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND : 0;
}

/** CPU ms of the line recogniser processes that are children of `parent` (own time and their reaped children's). */
function recogniserMs(parent: number, seen: Map<number, number>): void {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (!fields || Number(fields[1]) !== parent) continue;
    let cmdline = "";
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
    } catch {
      continue;
    }
    if (!cmdline.includes("recogniser-child")) continue;
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    seen.set(Number(entry), Math.max(seen.get(Number(entry)) ?? 0, (ticks * 1000) / TICKS_PER_SECOND));
  }
}

/** Runs `cmd` to completion; its CPU ms (with its reaped children and the recogniser it started) and wall ms. */
function measured(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ cpu: number; wall: number }> {
  return new Promise((resolve, reject) => {
    const before = reapedChildrenMs();
    const started = performance.now();
    const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"], env, cwd: REPO });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    const seen = new Map<number, number>();
    const poll = setInterval(() => {
      if (child.pid !== undefined) recogniserMs(child.pid, seen);
    }, POLL_MS);
    child.on("error", reject);
    child.on("close", (code) => {
      clearInterval(poll);
      const wall = performance.now() - started;
      if (code !== 0) return reject(new Error(`${cmd} exited ${code}: ${stderr.trim().slice(-500)}`));
      const recogniser = [...seen.values()].reduce((a, b) => a + b, 0);
      resolve({ cpu: reapedChildrenMs() - before + recogniser, wall });
    });
  });
}

const cliArgs = (files: string[]): string[] => [
  "--import",
  "tsx",
  join(REPO, "src/cli/main.ts"),
  "extract",
  "--product",
  "receipts",
  "--format",
  "jsonl",
  ...files,
];

/** One round: marginal docsift CPU and wall per receipt, and bare tesseract's, in ms. */
interface Round {
  docsiftCpu: number;
  docsiftWall: number;
  tesseractCpu: number;
  tesseractWall: number;
}

async function round(photos: string[], cores: number): Promise<Round> {
  const env = { ...process.env, NODE_NO_WARNINGS: "1" };
  const once = await measured(process.execPath, cliArgs(photos), env);
  const twice = await measured(process.execPath, cliArgs([...photos, ...photos]), env);
  const bareEnv = { ...process.env, OMP_THREAD_LIMIT: "1" };
  // CPU of the whole batch: one run's own delta would also hold a neighbour reaped meanwhile.
  const bareCpu = reapedChildrenMs();
  const bareStarted = performance.now();
  await mapConcurrent(photos, cores, (photo) => measured("tesseract", [photo, "-", "--psm", "6"], bareEnv));
  const bareWall = performance.now() - bareStarted;
  return {
    docsiftCpu: (twice.cpu - once.cpu) / photos.length,
    docsiftWall: (twice.wall - once.wall) / photos.length,
    tesseractCpu: (reapedChildrenMs() - bareCpu) / photos.length,
    tesseractWall: bareWall / photos.length,
  };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The case's report lines, or a line saying why it was skipped. */
export async function receiptPhotoCase(options: {
  dir: string;
  count: number;
  seed: number;
  rounds: number;
  cores: number;
  target: number;
}): Promise<string> {
  const { dir, count, seed, rounds, cores, target } = options;
  const title = `(d) real receipt photos: marginal cost of \`docsift extract\` per receipt vs bare \`tesseract IMAGE - --psm 6\``;
  if (!existsSync(dir)) return `${title}\n  skipped: ${dir} not found (--photos DIR)`;
  if (!existsSync("/proc/self/stat")) return `${title}\n  skipped: CPU time is read from /proc (Linux only)`;
  const photos = pickPhotos(dir, count, seed);
  const results: Round[] = [];
  for (let i = 0; i < rounds; i++) results.push(await round(photos, cores));
  const ms = (v: number): string => `${v.toFixed(0).padStart(6)} ms`;
  const ratios = results.map((r) => r.docsiftCpu / r.tesseractCpu);
  const ratio = median(ratios);
  const names = photos.map((p) => p.slice(p.lastIndexOf("/") + 1)).join(" ");
  return [
    `${title}\n  ${photos.length} photos of ${dir} (seed ${seed}): ${names}`,
    ...results.map(
      (r, i) =>
        `  round ${i + 1}: docsift cpu ${ms(r.docsiftCpu)} wall ${ms(r.docsiftWall)}   tesseract cpu ${ms(r.tesseractCpu)} wall ${ms(r.tesseractWall)}   (per receipt, ${cores} at a time)   cpu ratio ${ratios[i]!.toFixed(2)}x`,
    ),
    `  ratio: cpu median ${ratio.toFixed(2)}x ${ratio <= target ? "ok" : "OVER"}   (target <= ${target}x)`,
  ].join("\n");
}
