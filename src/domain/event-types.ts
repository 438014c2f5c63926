/**
 * The event types a tenant's webhooks can receive: the one list the service (webhooks/events.ts builds them), its
 * routes' schema and the SDK and CLI all name.
 */
export const EVENT_TYPES = [
  "file.finalised",
  "file.failed",
  "file.in_progress",
  "task.created",
  "task.resolved",
  "split.completed",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
