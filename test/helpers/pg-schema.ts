/**
 * A fresh PostgreSQL schema per test run on the machine's server (PG_TEST_URL, default
 * postgres://postgres@127.0.0.1:5432/test): the returned URL pins `search_path` to it, so every table docsift creates
 * lands there, and `drop()` removes it with everything in it.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export const PG_TEST_URL = process.env.PG_TEST_URL || "postgres://postgres@127.0.0.1:5432/test";

export interface TestSchema {
  name: string;
  /** DATABASE_URL for docsift: the test server with search_path set to this schema. */
  url: string;
  drop(): Promise<void>;
}

/** The base URL with `search_path` set (PostgreSQL's `options` startup parameter). */
export function withSearchPath(base: string, schema: string): string {
  const url = new URL(base);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return url.toString();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_TEST_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createTestSchema(prefix = "docsift_test"): Promise<TestSchema> {
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  await admin((c) => c.query(`CREATE SCHEMA ${name}`));
  return {
    name,
    url: withSearchPath(PG_TEST_URL, name),
    drop: async () => {
      // pg-boss keeps its tables beside ours, in "<schema>_pgboss" (see pgQueueSettingsFromEnv).
      await admin((c) => c.query(`DROP SCHEMA IF EXISTS ${name}, ${name}_pgboss CASCADE`));
    },
  };
}
