/**
 * The server under soak: one `docsift serve` child process (API and worker threads, as deployed) on a fresh
 * temporary data dir, and on a fresh PostgreSQL schema when a database URL is given. A separate process, so its
 * memory (VmRSS, VmHWM from /proc) is the server's alone, worker threads included; OCR runs in tesseract child
 * processes of its own, which this does not count.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve as resolvePath } from "node:path";
import { createInterface } from "node:readline";
import pg from "pg";
import { withSearchPath } from "../../test/helpers/pg-schema.js";

export interface ServerOptions {
  /** "tsx" runs src/ as the checkout is; "dist" runs the build (`npm run build` first); else a built cli/main.js. */
  runner: string;
  workers: number;
  /** A PostgreSQL server: the soak creates a schema of its own there and drops it at the end. */
  databaseUrl?: string;
  logLevel: string;
}

/** Counts of the server's own log lines at warn and above, and the first few of them. */
export interface ServerLog {
  warn: number;
  error: number;
  samples: string[];
}

export interface SoakServer {
  url: string;
  pid: number;
  admin: { id: string; secret: string };
  log: ServerLog;
  /** The exit code once the process has ended on its own (a crash), else undefined. */
  exited(): number | null | undefined;
  /** SIGTERM (the server drains), SIGKILL after `graceMs`, then the data dir and schema are removed. */
  stop(graceMs?: number): Promise<void>;
}

const ROOT = join(import.meta.dirname, "..", "..");
const LOG_SAMPLES = 10;
const START_TIMEOUT_MS = 120_000;
/** pino levels: 40 warn, 50 error, 60 fatal. */
const WARN = 40;
const ERROR = 50;

interface Schema {
  url: string;
  drop(): Promise<void>;
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh schema on the given server (and pg-boss's beside it), dropped with everything in it at the end. */
async function freshSchema(base: string): Promise<Schema> {
  const name = `docsift_soak_${randomBytes(5).toString("hex")}`;
  await adminQuery(base, `CREATE SCHEMA ${name}`);
  return {
    url: withSearchPath(base, name),
    drop: () => adminQuery(base, `DROP SCHEMA IF EXISTS ${name}, ${name}_pgboss CASCADE`),
  };
}

/**
 * "auto": the build in dist/ when it is at least as new as every file under src/, else tsx. Memory is the reason to
 * prefer the build: under tsx every worker thread carries its own TypeScript loader and compiled modules, which
 * roughly triples the server's RSS, so only the build's numbers say what a deployment uses.
 */
export async function chooseRunner(runner: string): Promise<string> {
  if (runner !== "auto") return runner;
  const built = await stat(join(ROOT, "dist", "cli", "main.js")).catch(() => undefined);
  if (!built) return "tsx";
  const src = join(ROOT, "src");
  const names = await readdir(src, { recursive: true });
  for (const name of names) {
    if ((await stat(join(src, name))).mtimeMs > built.mtimeMs) return "tsx";
  }
  return "dist";
}

function command(runner: string): string[] {
  if (runner === "tsx") return ["--import", "tsx", join(ROOT, "src", "cli", "main.ts")];
  return [runner === "dist" ? join(ROOT, "dist", "cli", "main.js") : resolvePath(runner)];
}

/** Watches the server's JSON log lines: resolves with its URL once it logs that it listens. */
function watchLog(child: ChildProcess, log: ServerLog): Promise<string> {
  return new Promise((resolve, reject) => {
    const onLine = (line: string): void => {
      let parsed: { level?: number; msg?: string; url?: string };
      try {
        parsed = JSON.parse(line) as typeof parsed;
      } catch {
        return;
      }
      if (parsed.msg === "docsift listening" && parsed.url) resolve(parsed.url);
      const level = parsed.level ?? 0;
      if (level < WARN) return;
      if (level >= ERROR) log.error++;
      else log.warn++;
      if (log.samples.length < LOG_SAMPLES) log.samples.push(line.slice(0, 500));
    };
    if (child.stdout) createInterface({ input: child.stdout }).on("line", onLine);
    if (child.stderr) createInterface({ input: child.stderr }).on("line", onLine);
    child.once("exit", (code) => reject(new Error(`docsift serve exited with ${code} before listening`)));
  });
}

export async function startServer(options: ServerOptions): Promise<SoakServer> {
  const entry = command(options.runner);
  const script = entry[entry.length - 1] ?? "";
  if (!existsSync(script)) throw new Error(`${script} does not exist (for --server dist: npm run build)`);
  const dataDir = await mkdtemp(join(tmpdir(), "docsift-soak-"));
  const schema = options.databaseUrl ? await freshSchema(options.databaseUrl) : undefined;
  const admin = { id: "soak-admin", secret: randomBytes(18).toString("base64url") };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DOCSIFT_DATA: dataDir,
    DOCSIFT_BOOTSTRAP_CLIENT: `${admin.id}:${admin.secret}`,
    LOG_LEVEL: options.logLevel,
  };
  if (schema) env.DATABASE_URL = schema.url;
  else delete env.DATABASE_URL;
  const args = [...entry, "serve", "--port", "0", "--workers", String(options.workers)];
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let exitCode: number | null | undefined;
  const ended = new Promise<void>((resolve) =>
    child.once("exit", (code) => {
      exitCode = code;
      resolve();
    }),
  );
  const log: ServerLog = { warn: 0, error: 0, samples: [] };
  const cleanUp = async (): Promise<void> => {
    await rm(dataDir, { recursive: true, force: true });
    await schema?.drop();
  };
  let url: string;
  // A server that neither listens nor exits within this is stuck: kill it, which rejects below.
  const stuck = setTimeout(() => child.kill("SIGKILL"), START_TIMEOUT_MS);
  try {
    url = await watchLog(child, log);
  } catch (err) {
    await cleanUp();
    throw new Error(`${err instanceof Error ? err.message : String(err)}; last log lines:\n${log.samples.join("\n")}`);
  } finally {
    clearTimeout(stuck);
  }
  const pid = child.pid ?? 0;
  return {
    url,
    pid,
    admin,
    log,
    exited: () => exitCode,
    async stop(graceMs = 60_000) {
      if (exitCode === undefined) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
        await ended;
        clearTimeout(timer);
      }
      await cleanUp();
    },
  };
}

/**
 * VmRSS, VmHWM and RssAnon of a process in MiB, from /proc (Linux); undefined once it is gone. RssAnon leaves out
 * mapped files (code, shared libraries), so growth there is the process's own allocations.
 */
export async function readMemory(pid: number): Promise<{ rssMb: number; hwmMb: number; anonMb: number } | undefined> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => undefined);
  if (!status) return undefined;
  const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rssMb: kb("VmRSS") / 1024, hwmMb: kb("VmHWM") / 1024, anonMb: kb("RssAnon") / 1024 };
}
