/** Prometheus metrics, one registry per app so several apps (tests, benchmarks) never share counters. */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

export interface ServiceMetrics {
  registry: Registry;
  requestDuration: Histogram<"method" | "route" | "status_code">;
  pages: Counter<"source">;
  ocrSeconds: Counter;
  processingSeconds: Histogram;
  failures: Counter<"code">;
  /** Page images rendered (a render that reached a thread), served from the cache, refused (render queue full). */
  pageRenders: Counter;
  pageCacheHits: Counter;
  pageRendersRejected: Counter;
  /** Files deleted by the retention sweep (DOCSIFT_RETENTION_DAYS). */
  retentionDeleted: Counter;
  /** Crash leftovers removed by the orphan sweep: `temporary` (partial writes) or `blob` (no file row). */
  orphansRemoved: Counter<"kind">;
  /** Webhook delivery attempts by outcome: `delivered`, `retry` (failed, due again later), `failed` (given up). */
  webhookDeliveries: Counter<"outcome">;
}

/** What the webhook gauges read at each scrape: the outbox's pending deliveries and the oldest one's event time. */
export type WebhookBacklog = () => Promise<{ pending: number; oldestCreatedAt: string | null }>;

/** Gauges of the webhook outbox (every process's deliveries: the outbox is shared), read when scraped. */
export function watchWebhookBacklog(metrics: ServiceMetrics, read: WebhookBacklog): void {
  let last: Promise<{ pending: number; oldestCreatedAt: string | null }> | undefined;
  // One read serves both gauges of a scrape.
  const backlog = () => {
    last ??= read().finally(() => {
      last = undefined;
    });
    return last;
  };
  new Gauge({
    name: "docsift_webhook_retry_queue_depth",
    help: "Webhook deliveries pending (waiting for their first attempt or a retry).",
    registers: [metrics.registry],
    async collect() {
      this.set((await backlog()).pending);
    },
  });
  new Gauge({
    name: "docsift_webhook_oldest_undelivered_seconds",
    help: "Age of the oldest event not yet delivered to one of its endpoints (0 when none waits).",
    registers: [metrics.registry],
    async collect() {
      const { oldestCreatedAt } = await backlog();
      this.set(oldestCreatedAt === null ? 0 : Math.max(0, (Date.now() - Date.parse(oldestCreatedAt)) / 1000));
    },
  });
}

/** `renderBacklog`: page images rendering or waiting for a render thread (this process). */
export function createMetrics(queueDepth: () => number, renderBacklog: () => number): ServiceMetrics {
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
  new Gauge({
    name: "docsift_page_render_backlog",
    help: "Page images rendering or waiting for a render thread.",
    registers: [registry],
    collect() {
      this.set(renderBacklog());
    },
  });
  return {
    registry,
    pageRenders: new Counter({
      name: "docsift_page_renders_total",
      help: "Page images rendered (GET /result/image), cache hits and abandoned requests aside.",
      registers: [registry],
    }),
    pageCacheHits: new Counter({
      name: "docsift_page_cache_hits_total",
      help: "Page images served from the page cache.",
      registers: [registry],
    }),
    pageRendersRejected: new Counter({
      name: "docsift_page_renders_rejected_total",
      help: "Page image requests refused with 503 because the render queue was full.",
      registers: [registry],
    }),
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
    orphansRemoved: new Counter({
      name: "docsift_orphans_removed_total",
      help: "Crash leftovers removed by the orphan sweep: partial temporary files and blobs without a file.",
      labelNames: ["kind"],
      registers: [registry],
    }),
    webhookDeliveries: new Counter({
      name: "docsift_webhook_deliveries_total",
      help: "Webhook delivery attempts by outcome: delivered, retry (failed, due again), failed (retries spent).",
      labelNames: ["outcome"],
      registers: [registry],
    }),
    retentionDeleted: new Counter({
      name: "docsift_retention_deleted_files_total",
      help: "Files deleted because they were older than DOCSIFT_RETENTION_DAYS.",
      registers: [registry],
    }),
  };
}
