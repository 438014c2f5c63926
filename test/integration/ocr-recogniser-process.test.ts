/**
 * The line recogniser runs in a process of its own: onnxruntime aborts the process that hosts it when the worker
 * thread running it is terminated mid-run, which a processing pool does to a task over its time or heap limit.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Worker } from "node:worker_threads";

/** The thread module under tsx, loaded as the processing pool loads its threads from source. */
function startThread(): Worker {
  const api = import.meta.resolve("tsx/esm/api");
  const script = new URL("../helpers/recogniser-thread.ts", import.meta.url).href;
  const code = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(script)}, ${JSON.stringify(script)}));`;
  return new Worker(code, { eval: true });
}

/**
 * Whether the process runs. One that exited after its thread was gone stays a zombie until this process ends (the
 * thread that would have reaped it is gone too): that one runs no more.
 */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
}

describe("the line recogniser's process", () => {
  it("survives its thread being terminated mid-read, and ends with it", async () => {
    const thread = startThread();
    let pid: number | undefined;
    let reads = 0;
    thread.on("message", (message: { pid?: number; running?: boolean; read?: boolean }) => {
      if (message.pid !== undefined && message.running) pid = message.pid;
      if (message.read) reads++;
    });
    for (let waited = 0; reads < 2 && waited < 60_000; waited += 20) await sleep(20);
    assert.ok(reads >= 2, "the thread read lines");
    assert.ok(pid !== undefined && running(pid), "the recogniser runs in a child process");
    assert.notEqual(pid, process.pid);
    // Reads follow each other without a pause: terminating now cuts one in the middle.
    await thread.terminate();
    for (let waited = 0; running(pid) && waited < 10_000; waited += 50) await sleep(50);
    assert.ok(!running(pid), "the recogniser's process ends once its thread is gone");
  });
});
