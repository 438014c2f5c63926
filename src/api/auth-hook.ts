/**
 * Bearer-token authorisation for every route that declares `config.auth`. Runs at onRequest, before any body is
 * read, so an unauthenticated upload is refused before it streams. Verified tokens are cached until they expire;
 * the client's revocation is re-checked at most every REVOCATION_CHECK_MS.
 */
import type { FastifyInstance, FastifyRequest, FastifySchema } from "fastify";
import type { ClientChecks } from "../auth/clients.js";
import type { Scope } from "../auth/scopes.js";
import type { KeySet } from "../auth/signing-key.js";
import { type Principal, verifyToken } from "../auth/tokens.js";
import { DocsiftError } from "../domain/errors.js";

/** `any`: a valid token whatever its scopes (catalog, metrics). */
export type AuthRequirement = Scope | "any";

declare module "fastify" {
  interface FastifyContextConfig {
    auth?: AuthRequirement;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/**
 * A route's options behind a requirement: the auth hook's `config.auth` and the OpenAPI `security` that states it,
 * from one value so the two cannot drift apart.
 */
export function scoped(
  requirement: AuthRequirement,
  schema: FastifySchema,
): { config: { auth: AuthRequirement }; schema: FastifySchema } {
  const scopes = requirement === "any" ? [] : [requirement];
  return { config: { auth: requirement }, schema: { ...schema, security: [{ oauth2: scopes }] } };
}

const REVOCATION_CHECK_MS = 5000;
const CACHE_LIMIT = 10_000;

interface CachedToken {
  principal: Principal;
  expiresAt: number;
  checkedAt: number;
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new DocsiftError("unauthorized", "This route needs a Bearer token.");
  return request.principal;
}

export function registerAuth(app: FastifyInstance, keys: KeySet, clients: ClientChecks): void {
  const cache = new Map<string, CachedToken>();

  const authenticate = async (token: string): Promise<Principal> => {
    const now = Date.now();
    let entry = cache.get(token);
    if (entry && entry.expiresAt <= now) {
      cache.delete(token);
      entry = undefined;
    }
    if (!entry) {
      const principal = await verifyToken(keys, token);
      const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as { exp: number };
      if (cache.size >= CACHE_LIMIT) cache.clear();
      entry = { principal, expiresAt: payload.exp * 1000, checkedAt: 0 };
      cache.set(token, entry);
    }
    if (now - entry.checkedAt > REVOCATION_CHECK_MS) {
      if (!(await clients.isActive(entry.principal.clientId))) {
        cache.delete(token);
        throw new DocsiftError("invalid_token", "The client of this token has been revoked.");
      }
      entry.checkedAt = now;
    }
    return entry.principal;
  };

  app.decorateRequest("principal", null);
  app.addHook("onRequest", async (request) => {
    const requirement = request.routeOptions.config.auth;
    if (!requirement) return;
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match?.[1]) {
      throw new DocsiftError("unauthorized", "Send Authorization: Bearer <token>; get a token at POST /oauth2/token.");
    }
    const principal = await authenticate(match[1]);
    if (requirement !== "any" && !principal.scopes.includes(requirement)) {
      throw new DocsiftError("forbidden", `This route needs the scope ${requirement}.`);
    }
    request.principal = principal;
  });
}
