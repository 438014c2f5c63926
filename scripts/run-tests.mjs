// Runs every test/**/*.test.ts (or the files/folders given) with node's built-in runner through tsx.
// Node 20's --test does not glob .ts files itself, hence this small launcher.
// One file at a time, each in its own runner process: fault tests restart the shared PostgreSQL, which must not cut
// another file's connections, and a file that hangs (a handle its teardown left open) must not eat the CI budget.
// Each test has node's --test-timeout (DOCSIFT_TEST_TIMEOUT_S, default 480 s, unless it sets its own), and each file
// a wall-clock limit (DOCSIFT_TEST_FILE_TIMEOUT_S, default 600 s): past it the watchdog asks the file's processes
// what still keeps them alive (test/helpers/open-handles.mjs), kills their process group and fails the file by name.
// The counts of all files are summed into node's summary lines at the end, then a plain `N passed, N failed`.
// On failure the runner's diagnostics (such as an error a file raised after its tests ended, which fails the file
// as a whole with only "test failed") and the last lines of other output (a crashed file's native stack) are repeated
// after the summary, where a truncated CI log still shows them.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

function collect(path) {
  if (statSync(path).isDirectory())
    return readdirSync(path)
      .sort()
      .flatMap((name) => collect(join(path, name)));
  return path.endsWith(".test.ts") ? [path] : [];
}

function seconds(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`${name} must be a number of seconds > 0, got "${raw}"`);
    process.exit(1);
  }
  return n;
}

const roots = process.argv.slice(2);
const files = (roots.length > 0 ? roots : ["test"]).flatMap(collect);
if (files.length === 0) {
  console.error("no test files found");
  process.exit(1);
}
const testTimeoutS = seconds("DOCSIFT_TEST_TIMEOUT_S", 480);
const fileTimeoutS = seconds("DOCSIFT_TEST_FILE_TIMEOUT_S", 600);
/** Time the file's processes get to report their open handles before the watchdog kills them. */
const REPORT_GRACE_MS = 2000;
const PRELOAD = fileURLToPath(new URL("../test/helpers/open-handles.mjs", import.meta.url));
const handlesDir = mkdtempSync(join(tmpdir(), "docsift-test-handles-"));

/** The spec reporter's "ℹ" lines that carry an error or warning (not tests' own diagnostics, not the counts). */
const DIAGNOSTIC = /^ℹ .*(error|warning|uncaught|unhandled)/i;
/** The spec reporter's closing counts of one file's run. */
const COUNT = /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/;
const COUNTED = ["tests", "suites", "pass", "fail", "cancelled", "skipped", "todo"];
/** The last lines that are no test result: what test files wrote themselves, such as a crashed file's native stack. */
const RESULT = /^\s*(✔|✖|▶|ℹ|﹣)/;

const totals = Object.fromEntries(COUNTED.map((name) => [name, 0]));
const diagnostics = [];
const otherTail = [];
const failedFiles = [];
let current;

/** Runs one file in its own process group; resolves with its counts and how it ended. */
function runFile(file, index) {
  const handlesFile = join(handlesDir, `${index}.txt`);
  const child = spawn(
    process.execPath,
    [
      "--import",
      PRELOAD,
      "--import",
      "tsx",
      "--test",
      "--test-reporter=spec",
      `--test-timeout=${testTimeoutS * 1000}`,
      file,
    ],
    {
      stdio: ["inherit", "pipe", "inherit"],
      detached: true,
      env: { ...process.env, DOCSIFT_TEST_HANDLES_FILE: handlesFile },
    },
  );
  current = child;
  const counts = {};
  let summarising = false;
  createInterface({ input: child.stdout }).on("line", (line) => {
    process.stdout.write(`${line}\n`);
    summarising ||= line.startsWith("✖ failing tests:");
    const count = COUNT.exec(line);
    if (count) counts[count[1]] = Number(count[2]);
    else if (DIAGNOSTIC.test(line)) diagnostics.push(`${file}: ${line}`);
    else if (!summarising && line.trim() !== "" && !RESULT.test(line)) {
      otherTail.push(line);
      if (otherTail.length > 40) otherTail.shift();
    }
  });
  let timedOut = false;
  const killGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // ESRCH: the group ended meanwhile.
    }
  };
  /** Resolves once a timed-out group had its grace to report and was killed (the runner may die of SIGUSR2 first). */
  let reported = Promise.resolve();
  const watchdog = setTimeout(() => {
    timedOut = true;
    killGroup("SIGUSR2");
    reported = new Promise((resolve) =>
      setTimeout(() => {
        killGroup("SIGKILL");
        resolve();
      }, REPORT_GRACE_MS),
    );
  }, fileTimeoutS * 1000);
  return new Promise((resolve) => {
    child.on("close", async (code, signal) => {
      clearTimeout(watchdog);
      await reported;
      // Whatever the file's processes left behind (a process they spawned in the group) ends with them.
      killGroup("SIGKILL");
      let handles = "";
      try {
        handles = readFileSync(handlesFile, "utf8").trim();
      } catch {
        // No report: the processes ended before they could write one.
      }
      resolve({ counts, code, signal, timedOut, handles });
    });
  });
}

// Interrupted (Ctrl-C, CI cancel): the running file's group goes too, not just this launcher.
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    if (current?.pid) {
      try {
        process.kill(-current.pid, "SIGKILL");
      } catch {
        // ESRCH: it ended meanwhile.
      }
    }
    process.exit(130);
  });

const started = Date.now();
for (const [index, file] of files.entries()) {
  const { counts, code, signal, timedOut, handles } = await runFile(file, index);
  for (const name of COUNTED) totals[name] += counts[name] ?? 0;
  if (timedOut) {
    const report = handles ? `; still open:\n${handles}` : "; its processes reported no open handles";
    const message = `✖ ${file} was still running after ${fileTimeoutS} s (DOCSIFT_TEST_FILE_TIMEOUT_S) and was killed${report}`;
    console.log(message);
    diagnostics.push(message);
  } else if (signal) console.log(`✖ ${file}: its test runner was ended by ${signal}`);
  // A file that failed without a failing test in its counts (killed, crashed before its summary) fails once itself.
  if (timedOut || code !== 0) {
    failedFiles.push(file);
    if ((counts.fail ?? 0) === 0) {
      totals.fail += 1;
      totals.tests += 1;
    }
  }
}
rmSync(handlesDir, { recursive: true, force: true });

console.log(`\nAll ${files.length} files:`);
for (const name of COUNTED) console.log(`ℹ ${name} ${totals[name]}`);
console.log(`ℹ duration_ms ${Date.now() - started}`);
if (failedFiles.length > 0) {
  if (diagnostics.length > 0) {
    console.log(`\nDiagnostics reported outside tests (${diagnostics.length}):`);
    for (const line of diagnostics.slice(-40)) console.log(line);
  }
  if (otherTail.length > 0) {
    console.log(`\nThe last ${otherTail.length} lines of other output (a crashed file's stack shows here):`);
    for (const line of otherTail) console.log(line);
  }
  console.log(`\nFailed files (${failedFiles.length}):`);
  for (const file of failedFiles) console.log(`✖ ${file}`);
}
console.log(`# pass ${totals.pass}`);
console.log(`# fail ${totals.fail}`);
console.log(`${totals.pass} passed, ${totals.fail} failed`);
process.exit(failedFiles.length > 0 ? 1 : 0);
