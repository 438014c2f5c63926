/**
 * The command line's contract, on the real CLI: an unknown option or a bad value is a usage error naming it (exit 2,
 * on stderr) for every command; serve, worker and migrate take the same storage options; an unexpected failure is
 * logged with its stack.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, describe, test } from "node:test";
import { createTestSchema, type TestSchema } from "../helpers/pg-schema.js";

const MAIN = join(import.meta.dirname, "../../src/cli/main.ts");

/** The environment without anything that would choose storage or a server for the command. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const name of ["DATABASE_URL", "BLOB_URL", "DOCSIFT_DATA", "DOCSIFT_WORKERS", "PORT"]) {
    if (!(name in extra)) delete env[name];
  }
  return env;
}

function docsift(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, ["--import", "tsx", MAIN, ...args], {
    encoding: "utf8",
    env: cleanEnv(env),
    timeout: 60_000,
  });
}

/** The commands `docsift --help` lists: every one of them is held to the contract. */
function commands(): string[] {
  const out = docsift(["--help"]);
  assert.equal(out.status, 0, out.stderr);
  const section = out.stdout.split("Commands:\n")[1] ?? "";
  return [...section.matchAll(/^ {2}(\S+) /gm)].map((m) => m[1] as string);
}

function assertUsageError(args: string[], named: string, env: NodeJS.ProcessEnv = {}): void {
  const out = docsift(args, env);
  const shown = `docsift ${args.join(" ")} -> ${out.status}\nstdout: ${out.stdout}\nstderr: ${out.stderr}`;
  assert.equal(out.status, 2, shown);
  assert.ok(out.stderr.includes(named), `stderr should name ${named}: ${shown}`);
  assert.doesNotMatch(out.stderr, /"internal"/, shown);
}

describe("usage errors", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "docsift-cli-usage-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("every command answers an unknown option with exit 2 naming it", () => {
    const names = commands();
    for (const expected of ["ocr", "extract", "serve", "clients", "upload", "result", "worker", "migrate", "watch"]) {
      assert.ok(names.includes(expected), `docsift --help lists ${expected}: ${names.join(", ")}`);
    }
    // Credentials set, so that remote commands checking them first get as far as their options.
    const remote = { DOCSIFT_API_KEY: "cli-usage:secret", DOCSIFT_URL: "http://127.0.0.1:9" };
    for (const name of names) assertUsageError([name, "--no-such-option"], "--no-such-option", remote);
    // The two cases: neither is an internal error any more.
    assertUsageError(["serve", "--bogus"], "--bogus");
  });

  test("a bad or missing value is exit 2 naming the option", () => {
    const cases: Array<{ args: string[]; named: string; env?: NodeJS.ProcessEnv }> = [
      { args: ["serve", "--port", "abc"], named: "--port" },
      { args: ["serve", "--port", "70000"], named: "--port" },
      { args: ["serve", "--port"], named: "--port" },
      { args: ["serve", "--workers", "0"], named: "--workers" },
      { args: ["serve"], named: "DOCSIFT_WORKERS", env: { DOCSIFT_WORKERS: "many" } },
      { args: ["worker", "--database-url", "postgres://127.0.0.1:1/x", "--workers", "x"], named: "--workers" },
      { args: ["ocr", "--engine", "paper", "x.pdf"], named: "--engine" },
      { args: ["ocr", "--concurrency", "0", "x.pdf"], named: "--concurrency" },
      { args: ["extract", "--format", "xml", "--product", "invoices", "x.pdf"], named: "--format" },
      { args: ["upload", "--product", "invoices", "--concurrency", "lots", "x.pdf"], named: "--concurrency" },
      { args: ["result", "--timeout", "soon", "some-id"], named: "--timeout" },
      { args: ["watch", "--product", "invoices", "--interval", "often", dir], named: "--interval" },
      { args: ["clients", "create", "--name", "x", "--scopes", "everything", "--data", dir], named: "--scopes" },
    ];
    for (const { args, named, env } of cases) assertUsageError(args, named, env);
  });

  test("worker --data is a storage option: without a database URL it asks for one, not about --data", () => {
    const out = docsift(["worker", "--data", dir]);
    assert.equal(out.status, 2, out.stderr);
    assert.match(out.stderr, /--database-url or DATABASE_URL is required/);
    assert.doesNotMatch(out.stderr, /unknown option/);
  });

  test("an unexpected failure prints its stack on stderr before {error, message}, exit 1", () => {
    // The data directory cannot be created under a file: a failure no usage check foresees.
    const out = docsift(["clients", "list", "--data", "/dev/null/data"]);
    assert.equal(out.status, 1, out.stderr);
    assert.match(out.stderr, /ENOTDIR/);
    assert.match(out.stderr, /\n {4}at /, "the stack is logged");
    const last = out.stderr.trim().split("\n").at(-1) ?? "";
    assert.equal(JSON.parse(last).error, "internal");
  });
});

/** Starts a long-running command and resolves with its log lines once one has `msg` equal to `ready`. */
function startUntil(args: string[], ready: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, ...args], {
    env: cleanEnv({ LOG_LEVEL: "info", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const started = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (line.includes(`"msg":"${ready}"`)) resolve();
    });
    exited.then((code) => reject(new Error(`docsift ${args.join(" ")} exited with ${code}: ${stderr}`)));
  });
  return { child, started, exited };
}

describe("serve, worker and migrate take the same storage options", () => {
  let schema: TestSchema;
  let dir: string;
  before(async () => {
    schema = await createTestSchema();
    dir = mkdtempSync(join(tmpdir(), "docsift-cli-storage-"));
  });
  after(async () => {
    await schema.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("each --help lists --data, --database-url and --blob-url", () => {
    for (const name of ["serve", "worker", "migrate"]) {
      const out = docsift([name, "--help"]);
      assert.equal(out.status, 0, out.stderr);
      for (const option of ["--data DIR", "--database-url URL", "--blob-url URL"]) {
        assert.ok(out.stdout.includes(option), `${name} --help lists ${option}`);
      }
    }
  });

  test("migrate, worker and serve run on --database-url with --data given", { timeout: 120_000 }, async () => {
    const storage = ["--data", join(dir, "data"), "--database-url", schema.url];
    const migrated = docsift(["migrate", ...storage]);
    assert.equal(migrated.status, 0, migrated.stderr);
    assert.ok(Array.isArray(JSON.parse(migrated.stdout).applied), migrated.stdout);

    const worker = startUntil(["worker", ...storage, "--workers", "1"], "docsift worker ready", {});
    await worker.started;
    const api = startUntil(["serve", ...storage, "--no-worker", "--port", "0", "--workers", "1"], "docsift listening", {
      DOCSIFT_BOOTSTRAP_CLIENT: "cli-usage:cli-usage-secret",
    });
    await api.started;
    worker.child.kill("SIGTERM");
    api.child.kill("SIGTERM");
    assert.equal(await worker.exited, 0, "the worker drains and exits 0");
    assert.equal(await api.exited, 0, "the API drains and exits 0");
  });
});
