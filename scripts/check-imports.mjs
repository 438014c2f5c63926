/**
 * The layering of src/ (shared/design.md, "The house"): each top-level folder imports only the folders listed for it
 * below (and itself, node: and npm packages). Prints every import against the map as `file -> target` and exits 1.
 *
 * Imports are read with TypeScript's own pre-processor (static, type-only, export-from and dynamic `import()` alike;
 * comments and strings never count), so the check needs no dependency of its own: dependency-cruiser would add a
 * package tree and a config format for what is one table and a directory walk here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const SRC = resolve(import.meta.dirname, "../src");
const LAYERS =
  "cli runtime api workflows extract einvoice split validate ingest store queue auth client catalog document webhooks domain";
/** layer -> the layers it may import. Files directly in src/ (the library entry) may import anything. */
const ALLOWED = {
  cli: LAYERS.split(" "),
  runtime: LAYERS.split(" ").filter((layer) => layer !== "cli"),
  api: ["workflows", "auth", "catalog", "domain"],
  workflows: "extract einvoice split validate ingest store queue auth catalog document webhooks domain".split(" "),
  auth: ["store", "catalog", "domain"],
  extract: ["document", "catalog", "domain"],
  einvoice: ["extract", "document", "catalog", "domain"],
  split: ["extract", "ingest", "validate", "document", "catalog", "domain"],
  validate: ["catalog", "domain", "document"],
  ingest: ["document", "catalog", "domain"],
  // The outbox rows of a state change are written with it, so the store builds them (webhooks: pure policy).
  store: ["domain", "catalog", "document", "webhooks"],
  queue: ["domain"],
  client: ["catalog", "domain"],
  catalog: ["domain"],
  document: ["domain"],
  webhooks: ["domain"],
  domain: [],
};

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) yield path;
  }
}

/** The top-level folder of a path under src/; undefined for a file directly in src/. */
const layerOf = (path) => {
  const parts = relative(SRC, path).split(/[\\/]/);
  return parts.length > 1 ? parts[0] : undefined;
};

const violations = [];
for (const file of sources(SRC)) {
  const from = layerOf(file);
  if (from === undefined) continue;
  const allowed = ALLOWED[from];
  for (const { fileName } of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
    if (!fileName.startsWith(".")) continue;
    const target = resolve(dirname(file), fileName);
    const to = relative(SRC, target).startsWith("..") ? "(outside src)" : layerOf(target);
    if (to === from) continue;
    if (to !== undefined && allowed?.includes(to)) continue;
    violations.push(
      `${relative(SRC, file)} -> ${relative(SRC, target)}${allowed ? "" : ` (layer ${from} has no rule)`}`,
    );
  }
}
if (violations.length > 0) {
  console.error(`${violations.length} import(s) against the layering (scripts/check-imports.mjs):`);
  for (const v of violations) console.error(`  ${v}`);
  process.exit(1);
}
console.log("imports follow the layering");
