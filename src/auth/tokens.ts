/**
 * Access tokens: JWTs signed with the newest key of the installation's key set (signing-key.ts). Verification finds
 * the token's key by its `kid`, allows only that key's algorithm (never `none`, never an HMAC a public key could be
 * abused as), and checks issuer, expiry and the client's revocation. A retired key verifies for
 * RETIRED_KEY_GRACE_SECONDS after its retirement, so the tokens it signed live out their lifetime and no longer.
 */
import { randomUUID } from "node:crypto";
import { decodeProtectedHeader, errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { DocsiftError } from "../domain/errors.js";
import { isScope, type Scope } from "./scopes.js";
import { JWT_ALG, type KeySet } from "./signing-key.js";

export const TOKEN_ISSUER = "docsift";
export const TOKEN_TTL_SECONDS = 3600;
/**
 * A token signed just before a rotation lives TOKEN_TTL_SECONDS after it; the minute more allows for the clocks of
 * the machines that signed, rotated and verify disagreeing a little.
 */
export const RETIRED_KEY_GRACE_SECONDS = TOKEN_TTL_SECONDS + 60;

/** Who is calling: the verified claims every authorised route works with. */
export interface Principal {
  clientId: string;
  tenantId: string;
  scopes: Scope[];
}

export interface IssuedToken {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
}

export async function issueToken(keys: KeySet, principal: Principal, now = new Date()): Promise<IssuedToken> {
  const key = await keys.signingKey();
  const iat = Math.floor(now.getTime() / 1000);
  const scope = principal.scopes.join(" ");
  const accessToken = await new SignJWT({ scope, tid: principal.tenantId })
    .setProtectedHeader({ alg: JWT_ALG, kid: key.kid, typ: "JWT" })
    .setIssuer(TOKEN_ISSUER)
    .setSubject(principal.clientId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + TOKEN_TTL_SECONDS)
    .setJti(randomUUID())
    .sign(key.privateKey);
  return { access_token: accessToken, token_type: "Bearer", expires_in: TOKEN_TTL_SECONDS, scope };
}

/** Verifies key, signature, algorithm, issuer and expiry; any failure is one `invalid_token` with a reason. */
export async function verifyToken(keys: KeySet, token: string): Promise<Principal> {
  // Outside the try below: a store that cannot be read is its own error (503), not the token's fault.
  const key = await keys.find(kidOf(token));
  if (!key || (key.retiredAt !== null && Date.now() - key.retiredAt > RETIRED_KEY_GRACE_SECONDS * 1000)) {
    throw new DocsiftError(
      "invalid_token",
      "The token was signed by an unknown or retired key; request a new one at POST /oauth2/token.",
    );
  }
  try {
    const { payload } = await jwtVerify(token, key.publicKey, {
      algorithms: [JWT_ALG],
      issuer: TOKEN_ISSUER,
      requiredClaims: ["exp", "sub", "tid"],
    });
    if (typeof payload.sub !== "string" || typeof payload.tid !== "string" || typeof payload.scope !== "string") {
      throw new DocsiftError("invalid_token", "The token lacks the claims docsift issues.");
    }
    return { clientId: payload.sub, tenantId: payload.tid, scopes: payload.scope.split(" ").filter(isScope) };
  } catch (err) {
    if (err instanceof DocsiftError) throw err;
    if (err instanceof joseErrors.JWTExpired) {
      throw new DocsiftError("invalid_token", "The access token has expired; request a new one at POST /oauth2/token.");
    }
    throw invalidToken();
  }
}

function kidOf(token: string): string {
  try {
    const { kid } = decodeProtectedHeader(token);
    if (typeof kid === "string") return kid;
  } catch {
    // Not a JWS at all: refused below like any other malformed token.
  }
  throw invalidToken();
}

const invalidToken = (): DocsiftError =>
  new DocsiftError("invalid_token", "The access token is invalid; request a new one at POST /oauth2/token.");
