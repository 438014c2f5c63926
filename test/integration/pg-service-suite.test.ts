/**
 * The service integration suite again, on PostgreSQL: the same test files run in a child test runner with
 * DOCSIFT_TEST_BACKEND=postgres, so every test server they start uses a fresh PostgreSQL schema (store, blobs)
 * instead of SQLite. The SQLite run is the files' own, when the runner picks them up directly.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const SUITE = ["service-upload", "service-results", "service-auth", "service-split", "service-validate"].map((name) =>
  fileURLToPath(new URL(`./${name}.test.ts`, import.meta.url)),
);

test("the service integration suite passes on PostgreSQL", { timeout: 10 * 60_000 }, async () => {
  // NODE_TEST_CONTEXT would make the child think it is a file of this run and skip its files.
  const { NODE_TEST_CONTEXT: _ignored, ...env } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", ...SUITE], {
    env: { ...env, DOCSIFT_TEST_BACKEND: "postgres" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  assert.equal(code, 0, `the suite failed on PostgreSQL:\n${output}`);
  // Guard against a vacuous pass: the child really ran tests.
  const passed = /# pass (\d+)/.exec(output) ?? /ℹ pass (\d+)/.exec(output);
  assert.ok(passed && Number(passed[1]) > 10, `expected the suite's tests to run:\n${output.slice(-2000)}`);
});
