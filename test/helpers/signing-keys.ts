/** A test server's JWT signing key set, read and changed through its own store (either backend). */
import type { JWK } from "jose";
import { rotateSigningKey } from "../../src/auth/signing-key.js";
import { RETIRED_KEY_GRACE_SECONDS } from "../../src/auth/tokens.js";
import type { TestServer } from "./server.js";

export interface ServerKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

/** The key the server signs with, private part included: to make tokens the server would never issue. */
export async function serverSigningKey(server: Pick<TestServer, "service">): Promise<ServerKey> {
  const newest = (await server.service.store.signingKeys.list()).at(-1);
  if (!newest) throw new Error("the server has no signing key");
  return {
    kid: newest.kid,
    privateJwk: JSON.parse(newest.privateJwk) as JWK,
    publicJwk: JSON.parse(newest.publicJwk) as JWK,
  };
}

/**
 * Rotates as if long ago: the keys current until now count as retired for twice their grace, so the tokens they
 * signed are refused (by a process once it has read the set again). Returns the new key's kid.
 */
export function retireSigningKeysLongAgo(server: Pick<TestServer, "service">): Promise<string> {
  return rotateSigningKey(
    server.service.store.signingKeys,
    new Date(Date.now() - 2 * RETIRED_KEY_GRACE_SECONDS * 1000),
  );
}
