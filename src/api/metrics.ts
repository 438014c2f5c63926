/** Prometheus metrics, one registry per app so several apps (tests, benchmarks) never share counters. */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

export interface ServiceMetrics {
  registry: Registry;
  requestDuration: Histogram<"method" | "route" | "status_code">;
  pages: Counter<"source">;
  ocrSeconds: Counter;
  processingSeconds: Histogram;
  failures: Counter<"code">;
}

export function createMetrics(queueDepth: () => number): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: "docsift_queue_depth",
    help: "Files waiting for or in processing.",
    registers: [registry],
    collect() {
      this.set(queueDepth());
    },
  });
  return {
    registry,
    requestDuration: new Histogram({
      name: "docsift_http_request_duration_seconds",
      help: "HTTP request duration by route and status.",
      labelNames: ["method", "route", "status_code"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers: [registry],
    }),
    pages: new Counter({
      name: "docsift_pages_total",
      help: "Pages ingested, by source (text layer or OCR).",
      labelNames: ["source"],
      registers: [registry],
    }),
    ocrSeconds: new Counter({
      name: "docsift_ocr_seconds_total",
      help: "Seconds spent ingesting pages by OCR.",
      registers: [registry],
    }),
    processingSeconds: new Histogram({
      name: "docsift_processing_seconds",
      help: "Time from a job's start to FINALISED.",
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 40, 80],
      registers: [registry],
    }),
    failures: new Counter({
      name: "docsift_failures_total",
      help: "Files that ended FAILED, by error code.",
      labelNames: ["code"],
      registers: [registry],
    }),
  };
}
