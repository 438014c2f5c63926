/** `docsift migrate`: applies pending PostgreSQL migrations and exits (every process also does this at start). */
import { parseArgs } from "node:util";
import { Kysely, PostgresDialect } from "kysely";
import { createPgPool, migratePostgres } from "../store/postgres/pg-store.js";
import type { PgDatabase } from "../store/postgres/schema.js";

const HELP = `Usage: docsift migrate [--database-url URL]

Applies pending database migrations to PostgreSQL and prints the ones applied. Safe to run while other docsift
processes are up and from several places at once (an advisory lock serialises them). Every process also migrates at
start; run this first when a deployment must not start on an older schema.

Options (environment variable in brackets):
  --database-url URL   postgres://user:pass@host:5432/db [DATABASE_URL]
  -h, --help           show this help
`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { "database-url": { type: "string" }, help: { type: "boolean", short: "h", default: false } },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const url = values["database-url"] ?? process.env.DATABASE_URL;
  if (!url) {
    process.stderr.write(
      "docsift migrate: set DATABASE_URL or --database-url (the embedded SQLite store migrates itself)\n",
    );
    return 2;
  }
  const db = new Kysely<PgDatabase>({
    dialect: new PostgresDialect({ pool: createPgPool(url, { maxConnections: 1 }) }),
  });
  try {
    const applied = await migratePostgres(db);
    process.stdout.write(`${JSON.stringify({ applied })}\n`);
    return 0;
  } finally {
    await db.destroy();
  }
}
