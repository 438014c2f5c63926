/**
 * Helpers of the fault tests: `docsift serve` as a child process (its own PATH, environment and, for a full disk, its
 * own mount namespace) with its logs captured, and fake `tesseract` binaries.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { getToken } from "./server.js";

/** Writes an executable `tesseract` shell script into a fresh directory and returns the directory. */
export async function fakeTesseractDir(script: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "docsift-fake-tesseract-"));
  const path = join(dir, "tesseract");
  await writeFile(path, `#!/bin/sh\n${script}\n`);
  await chmod(path, 0o755);
  return dir;
}

export interface LogLine {
  msg?: string;
  level?: number;
  [key: string]: unknown;
}

export interface ChildServer {
  child: ChildProcess;
  url: string;
  dataDir: string;
  /** JSON log lines from stdout, in order, as they arrive. */
  logs: LogLine[];
  /** Everything written on stderr so far (process warnings, tesseract's noise). */
  stderr(): string;
  token(): Promise<string>;
  /** Resolves with the first log line (already seen or still to come) that `match` accepts. */
  waitForLog(match: (line: LogLine) => boolean): Promise<LogLine>;
  exited: Promise<number | null>;
  /** SIGTERM and wait; SIGKILL if it is already wedged; removes the data dir unless `keepData`. */
  stop(keepData?: boolean): Promise<void>;
}

export interface ChildServerOptions {
  env?: Record<string, string>;
  /** Data directory; default: a fresh temporary one. */
  dataDir?: string;
  /**
   * Runs the server under another command: `prefix` is prepended to `node ... serve ...` (e.g. `unshare -m sh -c
   * '...; exec "$@"' sh`). The prefix must exec the server so that signals reach it.
   */
  prefix?: string[];
}

const CLI = ["--import", "tsx", "src/cli/main.ts"];

export async function startChildServer(options: ChildServerOptions = {}): Promise<ChildServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "docsift-faults-")));
  const admin = { id: "faults-admin", secret: randomBytes(18).toString("base64url") };
  const serve = [process.execPath, ...CLI, "serve", "--port", "0", "--data", dataDir];
  const [command, ...args] = [...(options.prefix ?? []), ...serve] as [string, ...string[]];
  const child = spawn(command, args, {
    env: {
      ...process.env,
      LOG_LEVEL: "info",
      DOCSIFT_WORKERS: "1",
      DOCSIFT_BOOTSTRAP_CLIENT: `${admin.id}:${admin.secret}`,
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: LogLine[] = [];
  const waiters: { match: (line: LogLine) => boolean; resolve: (line: LogLine) => void }[] = [];
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    if (!child.stdout) throw new Error("no stdout pipe");
    createInterface({ input: child.stdout }).on("line", (text) => {
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        line = { msg: text };
      }
      logs.push(line);
      for (const w of waiters.filter((w) => w.match(line))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
      if (line.msg === "docsift listening" && typeof line.url === "string") resolve(line.url);
    });
    child.once("exit", (code) => reject(new Error(`serve exited early with ${code}: ${stderr.slice(-2000)}`)));
  });
  return {
    child,
    url,
    dataDir,
    logs,
    stderr: () => stderr,
    token: () => getToken(url, admin.id, admin.secret),
    waitForLog(match) {
      const seen = logs.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    exited,
    async stop(keepData = false) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
        await exited;
        clearTimeout(timer);
      }
      if (!keepData) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The `unshare` arguments that give a child its own mount namespace where it may mount a tmpfs: `-m` as root,
 * `-r -m` (a user namespace mapping us to root) otherwise. Undefined, with the reason, when neither works here.
 */
export function privateMountArgs(): { args: string[] } | { reason: string } {
  const candidates = process.getuid?.() === 0 ? [["-m"], ["-r", "-m"]] : [["-r", "-m"]];
  let reason = "";
  for (const args of candidates) {
    try {
      const probe =
        'd=$(mktemp -d) || exit 1; mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d"; r=$?; rmdir "$d"; exit $r';
      execFileSync("unshare", [...args, "sh", "-c", probe], {
        stdio: ["ignore", "ignore", "pipe"],
      });
      return { args };
    } catch (err) {
      reason = `unshare ${args.join(" ")} + mount -t tmpfs failed: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  return { reason };
}
