/** `docsift serve`: the HTTP service on the embedded default (SQLite + blobs under the data directory). */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_MAX_QUEUE, maxQueueFromEnv } from "../api/queue-bound.js";
import { rateLimitsFromEnv } from "../api/rate-limit-hook.js";
import { DEFAULT_RESULT_WAIT_MS, type ServiceConfig, startService } from "../api/service.js";
import { storageOptionsFromEnv } from "../store/open.js";

const HELP = `Usage: docsift serve [options]

Runs the HTTP API with extraction in a pool of worker threads; SQLite and blobs live under the data directory.

Options (environment variable in brackets):
  --port N        port to listen on [PORT] (default 8080)
  --host H        interface to bind [HOST] (default 127.0.0.1; 0.0.0.0 to accept remote connections)
  --data DIR      data directory [DOCSIFT_DATA] (default ./data)
  --workers N     processing threads [DOCSIFT_WORKERS] (default: the number of cores)
  --no-worker     API only: jobs run in "docsift worker" processes (needs DATABASE_URL); the threads then only
                  render page images
  -h, --help      show this help

Other environment:
  DOCSIFT_BOOTSTRAP_CLIENT=id:secret   ensure this client exists with this secret (all scopes)
  DOCSIFT_RESULT_WAIT_MS=MS            default and cap of a blocking GET /result/final wait (default ${DEFAULT_RESULT_WAIT_MS})
  LOG_LEVEL=level                      pino level: fatal, error, warn, info (default), debug, trace, silent
  DATABASE_URL=postgres://...          store and queue in PostgreSQL (migrations run at start) instead of SQLite
  BLOB_URL=s3://bucket/prefix          with DATABASE_URL: blobs in S3 (default: in PostgreSQL)
  DOCSIFT_RATE_LIMIT=N/WINDOW          requests per client, uploads aside (default 3000/60s; off disables)
  DOCSIFT_UPLOAD_RATE_LIMIT=N/WINDOW   uploads per client (default 600/60s; off disables)
  DOCSIFT_TOKEN_RATE_LIMIT=N/WINDOW    POST /oauth2/token per client address (default 120/60s; off disables)
  DOCSIFT_MAX_QUEUE=N                  files waiting or running past which uploads get 503 (default ${DEFAULT_MAX_QUEUE}; 0 = no bound)
  DOCSIFT_TRUST_PROXY=true|ADDRS       believe X-Forwarded-For from any proxy (true) or these addresses/CIDRs

Rate limits are per process: behind a balancer each API process grants the full budget.
With no client in the data directory, the first start creates one and prints its id and secret once.
SIGTERM or SIGINT drains: stop accepting, finish running jobs, exit 0. Queued files resume at the next start.
`;

/** DOCSIFT_TRUST_PROXY: `true` trusts any proxy's X-Forwarded-For; otherwise a comma list of addresses or CIDRs. */
function trustProxyFromEnv(env: NodeJS.ProcessEnv): boolean | string | undefined {
  const raw = env.DOCSIFT_TRUST_PROXY?.trim();
  if (!raw || raw === "false") return undefined;
  return raw === "true" ? true : raw;
}

function positiveInt(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got "${value}"`);
  return n;
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      data: { type: "string" },
      workers: { type: "string" },
      "no-worker": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const env = process.env;
  let limits: Pick<ServiceConfig, "rateLimits" | "maxQueue" | "trustProxy">;
  try {
    limits = { rateLimits: rateLimitsFromEnv(env), maxQueue: maxQueueFromEnv(env), trustProxy: trustProxyFromEnv(env) };
  } catch (err) {
    process.stderr.write(`docsift serve: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  const service = await startService({
    dataDir: resolve(values.data ?? env.DOCSIFT_DATA ?? "./data"),
    host: values.host ?? env.HOST ?? "127.0.0.1",
    port: positiveInt("port", values.port ?? env.PORT, 0) ?? 8080,
    workers: positiveInt("workers", values.workers ?? env.DOCSIFT_WORKERS, 1),
    resultWaitMs: positiveInt("DOCSIFT_RESULT_WAIT_MS", env.DOCSIFT_RESULT_WAIT_MS, 0),
    bootstrapClient: env.DOCSIFT_BOOTSTRAP_CLIENT || undefined,
    logLevel: env.LOG_LEVEL ?? "info",
    ...storageOptionsFromEnv(env),
    runJobs: !values["no-worker"],
    ...limits,
  }).catch((err: unknown) => {
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

  return new Promise<number>((resolveExit) => {
    const shutdown = (signal: NodeJS.Signals): void => {
      service.app.log.info({ signal }, "draining");
      service.stop().then(
        () => resolveExit(0),
        (err: unknown) => {
          service.app.log.error({ err }, "shutdown failed");
          resolveExit(1);
        },
      );
    };
    process.once("SIGTERM", shutdown);
    process.once("SIGINT", shutdown);
  });
}
