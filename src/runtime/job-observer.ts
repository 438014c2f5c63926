/**
 * What a job runner reports, turned into logs (and metrics where the process serves them). `docsift serve` and
 * `docsift worker` log the same events the same way.
 */
import type { Logger } from "pino";
import type { ServiceMetrics } from "../api/metrics.js";
import type { JobObserver } from "../workflows/runner.js";

export function jobObserver(
  log: Logger,
  metrics?: Pick<ServiceMetrics, "processingSeconds" | "failures">,
): JobObserver {
  return {
    finalised: (file, ms) => {
      metrics?.processingSeconds.observe(ms / 1000);
      log.info({ fileId: file.id, ms }, "file finalised");
    },
    failed: (file, code) => {
      metrics?.failures.labels(code).inc();
      log.warn({ fileId: file.id, code }, "file failed");
    },
    retried: (file, attempt, err) => log.error({ fileId: file.id, attempt, err }, "processing attempt crashed"),
  };
}
