/**
 * `docsift worker`: runs jobs only (no HTTP), against the PostgreSQL store and queue that API processes share. Any
 * number of these may run on any number of machines; each takes at most `--workers` jobs at once.
 */
import { loadConfig } from "../runtime/config.js";
import { startWorker } from "../runtime/process.js";
import { HELP_OPTION, parseCommandLine, STORAGE_HELP, STORAGE_OPTIONS } from "./args.js";
import { untilSignal } from "./signals.js";

const HELP = `Usage: docsift worker [options]

Processes uploaded files from the shared PostgreSQL queue; API processes ("docsift serve --no-worker") take uploads
and answer results. Start as many workers, on as many machines, as the load needs.

Options (environment variable in brackets):
  --workers N           processing threads = jobs at once [DOCSIFT_WORKERS] (default: the number of cores)
${STORAGE_HELP}
  -h, --help            show this help

A database URL is required (the API processes' database); a blob URL must match theirs.

Environment:
  PGBOSS_SCHEMA=name                      pg-boss's schema (default pgboss)
  DOCSIFT_JOB_EXPIRE_SECONDS=N            a job active longer is re-delivered elsewhere (default 900)
  DOCSIFT_QUEUE_MAINTENANCE_SECONDS=N     how often expired jobs are looked for (default 30)
  DOCSIFT_JOB_RETRIES=N                   deliveries retried before a job is dead-lettered and its file FAILED (6)
  DOCSIFT_JOB_RETRY_DELAY_SECONDS=N       first retry delay, doubled each time (default 2)
  DOCSIFT_QUEUE_POLL_SECONDS=N            idle poll (new jobs also wake workers via NOTIFY; default 2)
  AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, S3_ENDPOINT or AWS_ENDPOINT_URL, S3_FORCE_PATH_STYLE
                                          S3 settings with a blob URL (a custom endpoint implies path style)
  LOG_LEVEL=level                         pino level (default info)

SIGTERM or SIGINT drains: stop taking jobs, finish running ones, exit 0. A worker killed outright loses nothing:
its jobs are re-delivered to another worker once they expire.
`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandLine(argv, { workers: { type: "string" }, ...STORAGE_OPTIONS, ...HELP_OPTION });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const worker = await startWorker(loadConfig(values));
  worker.log.info({ pid: process.pid, threads: worker.threads }, "docsift worker ready");
  return untilSignal(worker.stop, worker.log);
}
