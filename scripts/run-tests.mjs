// Runs every test/**/*.test.ts (or the files/folders given) with node's built-in runner through tsx.
// Node 20's --test does not glob .ts files itself, hence this small launcher.
// One file at a time: fault tests restart the shared PostgreSQL, which must not cut another file's connections.
// On failure the runner's diagnostics (such as an error a file raised after its tests ended, which fails the file
// as a whole with only "test failed") and the last lines of other output (a crashed file's native stack) are repeated
// after the summary, where a truncated CI log still shows them.
import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

function collect(path) {
  if (statSync(path).isDirectory())
    return readdirSync(path)
      .sort()
      .flatMap((name) => collect(join(path, name)));
  return path.endsWith(".test.ts") ? [path] : [];
}

const roots = process.argv.slice(2);
const files = (roots.length > 0 ? roots : ["test"]).flatMap(collect);
if (files.length === 0) {
  console.error("no test files found");
  process.exit(1);
}
const child = spawn(
  process.execPath,
  ["--import", "tsx", "--test", "--test-concurrency=1", "--test-reporter=spec", ...files],
  { stdio: ["inherit", "pipe", "inherit"] },
);
/** The spec reporter's "ℹ" lines that carry an error or warning (not tests' own diagnostics, not the counts). */
const DIAGNOSTIC = /^ℹ .*(error|warning|uncaught|unhandled)/i;
const diagnostics = [];
/** The last lines that are no test result: what test files wrote themselves, such as a crashed file's native stack. */
const RESULT = /^\s*(✔|✖|▶|ℹ|﹣)/;
const otherTail = [];
/** Set once the runner's own summary of failures begins: those lines are already at the end. */
let summarising = false;
createInterface({ input: child.stdout }).on("line", (line) => {
  process.stdout.write(`${line}\n`);
  summarising ||= line.startsWith("✖ failing tests:");
  if (DIAGNOSTIC.test(line)) diagnostics.push(line);
  else if (!summarising && line.trim() !== "" && !RESULT.test(line)) {
    otherTail.push(line);
    if (otherTail.length > 40) otherTail.shift();
  }
});
child.on("close", (code, signal) => {
  const status = code ?? 1;
  if (status !== 0 && diagnostics.length > 0) {
    console.log(`\nDiagnostics reported outside tests (${diagnostics.length}):`);
    for (const line of diagnostics.slice(-40)) console.log(line);
  }
  if (status !== 0 && otherTail.length > 0) {
    console.log(`\nThe last ${otherTail.length} lines of other output (a crashed file's stack shows here):`);
    for (const line of otherTail) console.log(line);
  }
  if (signal) console.error(`test runner ended by ${signal}`);
  process.exit(status);
});
