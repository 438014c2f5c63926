/** docsift/client: the typed SDK of the docsift HTTP API. */
export { DocsiftClient, type DocsiftClientOptions } from "./client.js";
export { type ApiErrorCode, DocsiftApiError, DocsiftWaitTimeoutError } from "./errors.js";
export type * from "./types.js";
export { MAX_UPLOAD_BYTES, type UploadSource } from "./upload-body.js";
export {
  type CreatedWebhook,
  verifyWebhook,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookEndpoint,
  type WebhookEventType,
  type WebhookPage,
  type WebhookPayload,
} from "./webhooks.js";
