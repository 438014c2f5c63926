/**
 * The data directory holds every tenant's documents, the database and the signing keys: `docsift serve` creates it
 * owner-only (0700) and the SQLite database with its -wal and -shm files 0600, even under the usual umask 022 that
 * would leave them world-readable.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";

const MAIN = join(import.meta.dirname, "../../src/cli/main.ts");

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), "docsift-perms-"));
});
after(() => rmSync(root, { recursive: true, force: true }));

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8).padStart(4, "0");

test("serve under umask 022: data dir 0700, database, WAL and SHM 0600", { timeout: 60_000 }, async () => {
  const dataDir = join(root, "new", "data");
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "info" };
  for (const name of ["DATABASE_URL", "BLOB_URL", "DOCSIFT_DATA"]) delete env[name];
  // A shell sets the umask for the server alone; exec keeps the pid, so SIGTERM reaches node.
  const command = `umask 022 && exec "${process.execPath}" --import tsx "${MAIN}" serve --data "${dataDir}" --port 0 --workers 1`;
  const child = spawn("sh", ["-c", command], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  try {
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout }).on("line", (line) => {
        if (line.includes('"msg":"docsift listening"')) resolve();
      });
      exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
    });
    // While the server runs, the WAL and the shared-memory index exist beside the database.
    assert.equal(modeOf(dataDir), "0700", "data directory");
    for (const name of ["docsift.sqlite", "docsift.sqlite-wal", "docsift.sqlite-shm"]) {
      assert.equal(modeOf(join(dataDir, name)), "0600", name);
    }
  } finally {
    child.kill("SIGTERM");
    assert.equal(await exited, 0, stderr);
  }
});
