/**
 * Webhooks as the SDK sees them: the endpoint and delivery shapes of the /webhooks routes, and `verifyWebhook`, the
 * receiver's check of a delivery. Deliveries follow Standard Webhooks, so the check is that specification's own
 * library (`standardwebhooks`): any other Standard Webhooks library verifies them the same way.
 */
import { Webhook } from "standardwebhooks";
import type { EventType as WebhookEventType } from "../domain/event-types.js";

/** The event types an endpoint can subscribe to, and the list of them. */
export { EVENT_TYPES as WEBHOOK_EVENT_TYPES, type EventType as WebhookEventType } from "../domain/event-types.js";

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  /** Why the service stopped delivering (an endpoint failing for longer than the retry window), or null. */
  disabledReason: string | null;
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The answer to creating an endpoint: its signing secret is shown this once. */
export interface CreatedWebhook extends WebhookEndpoint {
  secret: string;
}

export interface WebhookPage {
  webhooks: WebhookEndpoint[];
  next: string | null;
}

export interface WebhookDelivery {
  id: string;
  eventId: string;
  type: WebhookEventType;
  fileId: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatusCode: number | null;
  lastAttemptAt: string | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export interface WebhookDeliveryPage {
  deliveries: WebhookDelivery[];
  next: string | null;
}

/** The body of every delivery. */
export interface WebhookPayload {
  type: WebhookEventType;
  timestamp: string;
  data: { fileId: string } & Record<string, unknown>;
}

/**
 * Checks a delivery's `webhook-signature` against `secret` (the `whsec_...` shown at creation or rotation), its
 * `webhook-timestamp` against replay (5 minutes either way), and returns the parsed body. `payload` must be the raw
 * body as received (a re-serialised object would not match); `headers` may be a Headers, a Node header object, or a
 * plain record. Throws when the delivery is not authentic.
 */
export function verifyWebhook(
  payload: string | Buffer,
  headers: Headers | Record<string, string | string[] | undefined>,
  secret: string,
): WebhookPayload {
  const flat: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return new Webhook(secret).verify(payload, flat) as WebhookPayload;
}
