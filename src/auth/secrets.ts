/** Client secrets: generated with 256 bits of entropy, stored only as scrypt hashes, compared in constant time. */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

const KEY_LENGTH = 32;
// N=2^14 is scrypt's interactive-login cost: ~30 ms, paid once per token request, not per API call.
const PARAMS = { N: 16384, r: 8, p: 1 } as const;

function derive(secret: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, KEY_LENGTH, { ...params, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export function generateSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function generateClientId(): string {
  return `dsc_${randomBytes(10).toString("hex")}`;
}

/** Format: `scrypt$N$r$p$salt$hash` (base64url), so the cost can be raised later without breaking old hashes. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(secret, salt, PARAMS);
  return ["scrypt", PARAMS.N, PARAMS.r, PARAMS.p, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await derive(secret, Buffer.from(salt, "base64url"), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
