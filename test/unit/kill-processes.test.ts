/**
 * killAndAwait resolves only once every process it killed has ended, so "no child left running" holds the moment a
 * task's rejection is seen (SIGKILL alone returns while the target still runs).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { killAndAwait } from "../../src/workflows/threads/kill-processes.js";
import { isRunning } from "../helpers/processes.js";

test("every killed process has ended when killAndAwait resolves; an ended pid is no error", async () => {
  const children = Array.from({ length: 8 }, () => spawn("sleep", ["1000"], { stdio: "ignore" }));
  const pids = children.map((child) => child.pid ?? 0);
  assert.ok(pids.every((pid) => pid > 0 && isRunning(pid)));
  await killAndAwait([...pids, 2 ** 22 + 1]);
  assert.deepEqual(
    pids.filter((pid) => isRunning(pid)),
    [],
  );
});
