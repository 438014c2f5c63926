/**
 * Access tokens: JWTs signed with the data dir's Ed25519 key. Verification allows only that algorithm (never `none`,
 * never an HMAC a public key could be abused as), and checks issuer, expiry and the client's revocation.
 */
import { randomUUID } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { DocsiftError } from "../domain/errors.js";
import { isScope, type Scope } from "./scopes.js";
import { JWT_ALG, type SigningKey } from "./signing-key.js";

export const TOKEN_ISSUER = "docsift";
export const TOKEN_TTL_SECONDS = 3600;

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

export async function issueToken(key: SigningKey, principal: Principal, now = new Date()): Promise<IssuedToken> {
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

/** Verifies signature, algorithm, issuer and expiry; any failure is one `invalid_token` with a reason. */
export async function verifyToken(key: SigningKey, token: string): Promise<Principal> {
  try {
    const { payload, protectedHeader } = await jwtVerify(token, key.publicKey, {
      algorithms: [JWT_ALG],
      issuer: TOKEN_ISSUER,
      requiredClaims: ["exp", "sub", "tid"],
    });
    if (protectedHeader.kid !== key.kid)
      throw new DocsiftError("invalid_token", "The token was signed by an unknown key.");
    if (typeof payload.sub !== "string" || typeof payload.tid !== "string" || typeof payload.scope !== "string") {
      throw new DocsiftError("invalid_token", "The token lacks the claims docsift issues.");
    }
    return { clientId: payload.sub, tenantId: payload.tid, scopes: payload.scope.split(" ").filter(isScope) };
  } catch (err) {
    if (err instanceof DocsiftError) throw err;
    if (err instanceof joseErrors.JWTExpired) {
      throw new DocsiftError("invalid_token", "The access token has expired; request a new one at POST /oauth2/token.");
    }
    throw new DocsiftError("invalid_token", "The access token is invalid; request a new one at POST /oauth2/token.");
  }
}
