/** OAuth2 scopes a client can hold; each route names the one it needs. */
export const SCOPES = [
  "fileupload:all",
  "result:all",
  "validate:annotation",
  "metrics:read",
  "webhooks:manage",
] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * What a client gets unless its creator names scopes: the work of its own tenant. `metrics:read` (GET /metrics) is
 * left out because the metrics count every tenant's activity: only the operator's monitoring should hold it (and
 * the bootstrap client, which is the operator's). `webhooks:manage` is the tenant's own: its endpoints receive only
 * its own events, which `result:all` can read anyway.
 */
export const TENANT_SCOPES: readonly Scope[] = [
  "fileupload:all",
  "result:all",
  "validate:annotation",
  "webhooks:manage",
];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
