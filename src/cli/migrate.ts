/** `docsift migrate`: applies pending PostgreSQL migrations and exits (every process also does this at start). */
import { Kysely, PostgresDialect } from "kysely";
import { createPgPool, migratePostgres } from "../store/postgres/pg-store.js";
import type { PgDatabase } from "../store/postgres/schema.js";
import { HELP_OPTION, parseCommandLine, STORAGE_HELP, STORAGE_OPTIONS, storageFrom, UsageError } from "./args.js";

const HELP = `Usage: docsift migrate [--database-url URL] [options]

Applies pending database migrations to PostgreSQL and prints the ones applied. Safe to run while other docsift
processes are up and from several places at once (an advisory lock serialises them). Every process also migrates at
start; run this first when a deployment must not start on an older schema.

Options (environment variable in brackets), the storage options of serve and worker:
${STORAGE_HELP}
  -h, --help            show this help

Only the database URL matters here: the embedded SQLite store migrates itself whenever it is opened.
`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandLine(argv, { ...STORAGE_OPTIONS, ...HELP_OPTION });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const url = storageFrom(values).storage.databaseUrl;
  if (!url) throw new UsageError("set --database-url or DATABASE_URL (the embedded SQLite store migrates itself)");
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
