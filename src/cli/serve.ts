/** `docsift serve`: the HTTP service on the embedded default (SQLite + blobs under the data directory). */
import { DEFAULT_MAX_QUEUE } from "../api/queue-bound.js";
import { ConfigError, DEFAULT_RESULT_WAIT_MS, loadConfig } from "../runtime/config.js";
import { startServer } from "../runtime/process.js";
import { HELP_OPTION, parseCommandLine, STORAGE_HELP, STORAGE_OPTIONS } from "./args.js";
import { untilSignal } from "./signals.js";

const HELP = `Usage: docsift serve [options]

Runs the HTTP API with extraction in a pool of worker threads; SQLite and blobs live under the data directory.

Options (environment variable in brackets):
  --port N              port to listen on [PORT] (default 8080)
  --host H              interface to bind [HOST] (default 127.0.0.1; 0.0.0.0 to accept remote connections)
  --workers N           processing threads [DOCSIFT_WORKERS] (default: the number of cores)
  --no-worker           API only: jobs run in "docsift worker" processes (needs a database URL)
${STORAGE_HELP}
  -h, --help            show this help

Other environment:
  DOCSIFT_BOOTSTRAP_CLIENT=id:secret   ensure this client exists with this secret (all scopes)
  DOCSIFT_RESULT_WAIT_MS=MS            default and cap of a blocking GET /result/final wait (default ${DEFAULT_RESULT_WAIT_MS})
  LOG_LEVEL=level                      pino level: fatal, error, warn, info (default), debug, trace, silent
  DOCSIFT_RATE_LIMIT=N/WINDOW          requests per client, uploads aside (default 3000/60s; off disables)
  DOCSIFT_UPLOAD_RATE_LIMIT=N/WINDOW   uploads per client (default 600/60s; off disables)
  DOCSIFT_TOKEN_RATE_LIMIT=N/WINDOW    failed token requests per client address (default 120/60s; off disables)
  DOCSIFT_RETENTION_DAYS=N             delete files uploaded more than N days ago, in the background (default off)
  DOCSIFT_MAX_QUEUE=N                  files waiting or running past which uploads get 503 (default ${DEFAULT_MAX_QUEUE}; 0 = no bound)
  DOCSIFT_TRUST_PROXY=true|ADDRS       believe X-Forwarded-For from any proxy (true) or these addresses/CIDRs
  DOCSIFT_RENDER_THREADS, DOCSIFT_RENDER_QUEUE, DOCSIFT_PAGE_CACHE_MB   page-image renders (see the README)
  DOCSIFT_INSPECT_TIMEOUT_MS, DOCSIFT_INSPECT_MEMORY_MB               upload-time file checks (see the README)

Rate limits are per process: behind a balancer each API process grants the full budget.
With no client in the data directory, the first start creates one and prints its id and secret once.
SIGTERM or SIGINT drains: stop accepting, finish running jobs, exit 0. Queued files resume at the next start.
`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandLine(argv, {
    port: { type: "string" },
    host: { type: "string" },
    workers: { type: "string" },
    "no-worker": { type: "boolean", default: false },
    ...STORAGE_OPTIONS,
    ...HELP_OPTION,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const config = loadConfig(values);
  const service = await startServer(config).catch((err: unknown) => {
    if (err instanceof ConfigError) throw err;
    // Start-up failures (port in use, unreadable data dir) are operator errors: say what happened.
    process.stderr.write(`docsift serve: cannot start: ${err instanceof Error ? err.message : String(err)}\n`);
    return undefined;
  });
  if (!service) return 1;
  if (service.bootstrap) {
    process.stdout.write(
      `${JSON.stringify({
        note: "First start: created a client with all scopes. The secret is shown only now; store it safely.",
        clientId: service.bootstrap.clientId,
        clientSecret: service.bootstrap.clientSecret,
      })}\n`,
    );
  }
  service.app.log.info({ url: service.url }, "docsift listening");
  return untilSignal(service.stop, service.app.log);
}
