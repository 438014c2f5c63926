#!/usr/bin/env node
import { DocsiftError, toErrorBody } from "../domain/errors.js";
import { isUsageError } from "./args.js";

/** Each subcommand lives in its own module and is loaded only when used, so `docsift ocr` never loads the server. */
const COMMANDS: Record<string, { summary: string; load: () => Promise<{ run(argv: string[]): Promise<number> }> }> = {
  ocr: {
    summary: "Print the Document (words with boxes) of a PDF, PNG or JPG as JSON",
    load: () => import("./ocr.js"),
  },
  extract: {
    summary: "Extract fields (invoices, receipts, documents) from PDF, PNG or JPG files locally",
    load: () => import("./extract.js"),
  },
  serve: { summary: "Run the HTTP service (API + processing workers)", load: () => import("./serve.js") },
  clients: { summary: "Create, list or revoke OAuth2 clients", load: () => import("./clients.js") },
  upload: { summary: "Upload files to a docsift service (--wait: their results)", load: () => import("./upload.js") },
  result: { summary: "Print the result of uploaded files from a docsift service", load: () => import("./result.js") },
  files: { summary: "List, describe, download or delete uploaded files", load: () => import("./files.js") },
  worker: { summary: "Process uploads from the shared PostgreSQL queue (no HTTP)", load: () => import("./worker.js") },
  migrate: { summary: "Apply pending PostgreSQL migrations (DATABASE_URL)", load: () => import("./migrate.js") },
  keys: { summary: "Rotate or list the JWT signing keys", load: () => import("./keys.js") },
  watch: { summary: "Upload a folder's new files, write results beside them", load: () => import("./watch.js") },
  webhooks: {
    summary: "List, create or delete webhook endpoints; show their deliveries",
    load: () => import("./webhooks.js"),
  },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return `Usage: docsift <command> [options]\n\nCommands:\n${lines.join("\n")}\n\nRun "docsift <command> --help" for a command's options.\n`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`Unknown command "${name}".\n\n${usage()}`);
    return 2;
  }
  try {
    return await (await command.load()).run(rest);
  } catch (err) {
    return failed(name, err);
  }
}

/**
 * What a command threw: a usage mistake exits 2 naming it; anything else exits 1 with `{error, message}`, and an
 * unexpected failure (whose message is deliberately generic) first gets its stack on stderr, as the message promises.
 */
function failed(name: string, err: unknown): number {
  if (isUsageError(err)) {
    process.stderr.write(`docsift ${name}: ${err.message}\nRun "docsift ${name} --help" for its options.\n`);
    return 2;
  }
  if (!(err instanceof DocsiftError)) process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.stderr.write(`${JSON.stringify(toErrorBody(err))}\n`);
  return 1;
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
