// Preloaded (--import) into every test process by scripts/run-tests.mjs: on SIGUSR2, which the launcher's watchdog
// sends before it kills a file that ran past its time limit, appends what still keeps this process alive
// (sockets, timers, child processes, and each worker thread with its own active handles) to the file named by
// DOCSIFT_TEST_HANDLES_FILE, so the launcher can say why a file hung. Plain JavaScript: it must load before tsx.
import { appendFileSync } from "node:fs";

const target = process.env.DOCSIFT_TEST_HANDLES_FILE;
if (target) {
  // The runner's own process has no NODE_TEST_CONTEXT; the process running the file's tests has.
  const role = process.env.NODE_TEST_CONTEXT ? "test file process" : "test runner process";
  // A signal listener does not keep the event loop alive, so this never holds a finished process open itself.
  process.on("SIGUSR2", () => {
    // Worker threads are no "resource" of the main thread: the diagnostic report lists them, with their own handles.
    const threads = process.report.getReport().workers.map((worker, i) => {
      const handles = worker.libuv.filter((h) => h.is_active && h.is_referenced).map((h) => h.type);
      return `  worker thread ${i + 1}: ${summarise(handles)}`;
    });
    const lines = [`${role} ${process.pid}: ${summarise(process.getActiveResourcesInfo())}`, ...threads];
    appendFileSync(target, `${lines.join("\n")}\n`);
  });
}

/** "TCPSocketWrap x3, Timeout" from a list of handle kinds. */
function summarise(kinds) {
  const counts = new Map();
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => (n > 1 ? `${kind} x${n}` : kind)).join(", ") || "(none)";
}
