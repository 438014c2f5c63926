/**
 * `docsift migrate` on a fresh PostgreSQL schema: the first run applies every migration, a second applies none, and
 * the processes that need a shared database refuse to start without one.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import pg from "pg";
import { createTestSchema, type TestSchema } from "../helpers/pg-schema.js";

const CLI = ["--import", "tsx", "src/cli/main.ts"];
let schema: TestSchema;

before(async () => {
  schema = await createTestSchema("docsift_migrate");
});
after(() => schema.drop());

async function docsift(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...CLI, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test("docsift migrate applies pending migrations once, into the URL's schema", async () => {
  const env = { ...process.env, DATABASE_URL: schema.url };
  const first = await docsift(["migrate"], env);
  assert.equal(first.code, 0, first.stderr);
  const applied = (JSON.parse(first.stdout) as { applied: string[] }).applied;
  assert.ok(applied.length >= 2 && applied[0] === "0001_initial", first.stdout);
  const second = await docsift(["migrate"], env);
  assert.deepEqual(JSON.parse(second.stdout), { applied: [] });

  const client = new pg.Client({ connectionString: schema.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1",
      [schema.name],
    );
    const tables = rows.map((r) => r.table_name);
    for (const t of ["blobs", "clients", "files", "results", "tenants"]) assert.ok(tables.includes(t), t);
  } finally {
    await client.end();
  }
});

test("migrate, worker and serve --no-worker need DATABASE_URL", async () => {
  const { DATABASE_URL: _unset, ...env } = process.env;
  assert.equal((await docsift(["migrate"], env)).code, 2);
  assert.equal((await docsift(["worker"], env)).code, 2);
  const serve = await docsift(["serve", "--no-worker", "--port", "0", "--data", "/tmp/docsift-unused"], env);
  // An operator's mistake, like the two above: exit 2 naming what is missing.
  assert.equal(serve.code, 2);
  assert.match(serve.stderr, /needs DATABASE_URL/);
});
