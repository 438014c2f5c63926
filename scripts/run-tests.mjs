// Runs every test/**/*.test.ts (or the files/folders given) with node's built-in runner through tsx.
// Node 20's --test does not glob .ts files itself, hence this small launcher.
// One file at a time: fault tests restart the shared PostgreSQL, which must not cut another file's connections.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

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
const result = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", "--test-concurrency=1", "--test-reporter=spec", ...files],
  {
    stdio: "inherit",
  },
);
process.exit(result.status ?? 1);
