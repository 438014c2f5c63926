/** The operator's webhook settings (runtime/config.ts parses them from DOCSIFT_WEBHOOK_*). */
import type { TargetPolicy } from "./address.js";
import { DEFAULT_RETRY_BASE_MS, DEFAULT_RETRY_HOURS } from "./schedule.js";

export interface WebhookSettings extends TargetPolicy {
  /** First retry delay, ms, doubled per attempt (DOCSIFT_WEBHOOK_RETRY_BASE_MS). */
  retryBaseMs: number;
  /** Retry window of a delivery, and failure span after which an endpoint is disabled (DOCSIFT_WEBHOOK_RETRY_HOURS). */
  retryHours: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  allowHttp: false,
  allowPrivate: false,
  retryBaseMs: DEFAULT_RETRY_BASE_MS,
  retryHours: DEFAULT_RETRY_HOURS,
};
