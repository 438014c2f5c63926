/** OAuth2 scopes a client can hold; each route names the one it needs. */
export const SCOPES = ["fileupload:all", "result:all", "validate:annotation"] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
