/**
 * The test launcher (scripts/run-tests.mjs, `npm test`) on two throwaway test files: one passes, one passes and then
 * leaves a listening server open, so its process never ends. The launcher must kill the hung file at its per-file
 * limit (DOCSIFT_TEST_FILE_TIMEOUT_S), name it with the handles still open, go on, and end with the summed counts.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

test("a file that never ends is killed at its time limit, named with its open handles", async () => {
  const dir = await mkdtemp(join(tmpdir(), "docsift-launcher-"));
  try {
    await writeFile(
      join(dir, "hangs.test.ts"),
      `import { createServer } from "node:net";
import { test } from "node:test";
test("passes, then leaves a server listening", () => {
  createServer().listen(0, "127.0.0.1");
});
`,
    );
    await writeFile(
      join(dir, "passes.test.ts"),
      `import { test } from "node:test";
test("one", () => {});
test("two", () => {});
`,
    );
    // NODE_TEST_CONTEXT would make the launcher's runners think they are files of this run.
    const { NODE_TEST_CONTEXT: _ignored, ...env } = process.env;
    const started = Date.now();
    const child = spawn(process.execPath, ["scripts/run-tests.mjs", dir], {
      cwd: REPO,
      env: { ...env, DOCSIFT_TEST_FILE_TIMEOUT_S: "3" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    // A launcher without a limit would wait for the hung file forever: give up well before this test's own limit.
    const giveUp = setTimeout(() => process.kill(-(child.pid ?? 0), "SIGKILL"), 45_000);
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    clearTimeout(giveUp);
    const seconds = (Date.now() - started) / 1000;

    assert.ok(seconds < 40, `the launcher took ${seconds} s:\n${output}`);
    assert.equal(code, 1, output);
    assert.match(output, /hangs\.test\.ts was still running after 3 s \(DOCSIFT_TEST_FILE_TIMEOUT_S\) and was killed/);
    assert.match(output, /test file process \d+: .*TCPServerWrap/, "the open server is named");
    assert.match(output, /Failed files \(1\):\n✖ .*hangs\.test\.ts/);
    const tail = output.trimEnd().split("\n").slice(-3);
    assert.deepEqual(tail, ["# pass 2", "# fail 1", "2 passed, 1 failed"], output);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
