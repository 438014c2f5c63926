/**
 * The client registry: creating clients (with their tenant), the bootstrap client, and checking client credentials
 * at the token endpoint. Used by both `docsift serve` and `docsift clients`.
 */
import { randomUUID } from "node:crypto";
import { DocsiftError } from "../domain/errors.js";
import type { ClientRecord, NewClient, Store, Tenant } from "../store/types.js";
import { isScope, SCOPES, type Scope, TENANT_SCOPES } from "./scopes.js";
import { generateClientId, generateSecret, hashSecret, verifySecret } from "./secrets.js";
import type { Principal } from "./tokens.js";

export interface CreatedClient {
  clientId: string;
  clientSecret: string;
  name: string;
  tenantId: string;
  scopes: Scope[];
}

export interface CreateClientOptions {
  name: string;
  scopes?: readonly string[];
  /** Join this existing tenant; default: a new tenant named after the client. */
  tenantId?: string;
  /** Fixed credentials (the bootstrap client); default: generated. */
  clientId?: string;
  clientSecret?: string;
}

/** The scopes named (space or comma separated); none named: TENANT_SCOPES. */
export function parseScopes(values: readonly string[] | undefined): Scope[] {
  if (values === undefined) return [...TENANT_SCOPES];
  const scopes = values.flatMap((v) => v.split(/[\s,]+/)).filter((s) => s.length > 0);
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    throw new DocsiftError("bad_request", `Unknown scope ${unknown.join(", ")}; valid scopes: ${SCOPES.join(", ")}.`);
  }
  return [...new Set(scopes)].filter(isScope);
}

/** The client to store, its new tenant (unless it joins one) and what to tell its creator once. */
async function prepareClient(
  store: Store,
  options: CreateClientOptions,
): Promise<{ client: NewClient; newTenant: Tenant | undefined; created: CreatedClient }> {
  const scopes = parseScopes(options.scopes);
  let tenantId = options.tenantId;
  let newTenant: Tenant | undefined;
  if (tenantId !== undefined) {
    if (!(await store.tenants.get(tenantId))) throw new DocsiftError("not_found", `No tenant "${tenantId}".`);
  } else {
    newTenant = { id: randomUUID(), name: options.name, createdAt: new Date().toISOString() };
    tenantId = newTenant.id;
  }
  const clientId = options.clientId ?? generateClientId();
  const clientSecret = options.clientSecret ?? generateSecret();
  const client = { id: clientId, name: options.name, tenantId, secretHash: await hashSecret(clientSecret), scopes };
  return { client, newTenant, created: { clientId, clientSecret, name: options.name, tenantId, scopes } };
}

export async function createClient(store: Store, options: CreateClientOptions): Promise<CreatedClient> {
  const { client, newTenant, created } = await prepareClient(store, options);
  // Client and new tenant in one transaction: a taken id leaves no tenant behind.
  if (!(await store.clients.createIfAbsent(client, newTenant))) {
    throw new DocsiftError("conflict", `A client "${client.id}" already exists.`);
  }
  return created;
}

/**
 * Every start: with DOCSIFT_BOOTSTRAP_CLIENT=id:secret that client exists with that secret (the env sets the secret
 * at every start); otherwise, when no client exists at all, one is created. Returns the client only when it was just
 * created with a generated secret, so the caller prints it exactly once. Safe when several processes start at once on
 * an empty database: they converge on the one named client, or exactly one of them creates (and prints) the generated
 * one; the others see it taken and go on.
 */
export async function ensureBootstrapClient(
  store: Store,
  spec: string | undefined,
): Promise<CreatedClient | undefined> {
  if (spec) {
    const sep = spec.indexOf(":");
    const id = spec.slice(0, sep);
    const secret = spec.slice(sep + 1);
    if (sep <= 0 || secret.length < 8) {
      throw new DocsiftError(
        "bad_request",
        "DOCSIFT_BOOTSTRAP_CLIENT must be id:secret with a secret of 8+ characters.",
      );
    }
    await ensureNamedClient(store, id, secret);
    return undefined;
  }
  if ((await store.clients.count()) > 0) {
    const generated = await store.clients.bootstrapClientId();
    const client = generated === undefined ? undefined : await store.clients.get(generated);
    if (client) await grantEveryScope(store, client);
    return undefined;
  }
  // The bootstrap client is the operator's: every scope, metrics:read included.
  const { client, newTenant, created } = await prepareClient(store, { name: "bootstrap", scopes: SCOPES });
  return (await store.clients.createBootstrap(client, newTenant)) ? created : undefined;
}

async function ensureNamedClient(store: Store, id: string, secret: string): Promise<void> {
  const existing = await store.clients.get(id);
  if (!existing) {
    const { client, newTenant } = await prepareClient(store, {
      name: id,
      clientId: id,
      clientSecret: secret,
      scopes: SCOPES,
    });
    if (await store.clients.createIfAbsent(client, newTenant)) return;
  }
  // Taken meanwhile by another process starting at once: its row is the one to check (with the same secret, it matches).
  const current = existing ?? (await store.clients.get(id));
  if (!current) throw new Error(`the bootstrap client ${id} was neither created nor found`);
  // A revoked bootstrap client stays revoked: revocation is an operator's decision the env must not undo.
  if (!current.revokedAt && !(await verifySecret(secret, current.secretHash))) {
    await store.clients.setSecretHash(id, await hashSecret(secret));
  }
  await grantEveryScope(store, current);
}

/**
 * The operator's client holds every scope, those a later version added included: a client's scopes are otherwise
 * fixed when it is created, so a bootstrap client from an older version would never get them. A revoked one is left.
 */
async function grantEveryScope(store: Store, client: ClientRecord): Promise<void> {
  const missing = SCOPES.filter((scope) => !client.scopes.includes(scope));
  if (client.revokedAt || missing.length === 0) return;
  await store.clients.setScopes(client.id, [...client.scopes, ...missing]);
}

const INVALID_CLIENT = "Unknown client or wrong secret.";
/** Hashed once, checked against for unknown ids so the response time does not reveal which ids exist. */
let dummyHash: Promise<string> | undefined;

/** Checks client credentials; unknown id, wrong secret and revoked client look the same to the caller. */
export async function authenticateClient(store: Store, clientId: string, secret: string): Promise<Principal> {
  const client: ClientRecord | undefined = await store.clients.get(clientId);
  dummyHash ??= hashSecret(generateSecret());
  const ok = await verifySecret(secret, client ? client.secretHash : await dummyHash);
  if (!client || !ok || client.revokedAt) throw new DocsiftError("invalid_client", INVALID_CLIENT);
  return { clientId: client.id, tenantId: client.tenantId, scopes: client.scopes.filter(isScope) };
}

/** The client checks the API makes: credentials at the token endpoint, and whether a token's client still stands. */
export interface ClientChecks {
  /** Unknown id, wrong secret and revoked client are the same `invalid_client`. */
  authenticate(clientId: string, secret: string): Promise<Principal>;
  /** False when the client is unknown or revoked. */
  isActive(clientId: string): Promise<boolean>;
}

export function clientChecks(store: Store): ClientChecks {
  return {
    authenticate: (clientId, secret) => authenticateClient(store, clientId, secret),
    isActive: async (clientId) => {
      const client = await store.clients.get(clientId);
      return client !== undefined && !client.revokedAt;
    },
  };
}
