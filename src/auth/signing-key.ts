/**
 * The JWT signing key: an Ed25519 pair generated into `<data>/jwt-key.json` on first start (mode 0600) and reused
 * after, so tokens survive restarts. Its `kid` lets a future rotation keep old tokens verifiable.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename } from "node:fs/promises";
import { dirname } from "node:path";
import { type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK } from "jose";

export const JWT_ALG = "EdDSA";

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

interface KeyFile {
  kid: string;
  alg: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

export async function loadOrCreateSigningKey(path: string): Promise<SigningKey> {
  const existing = await readKeyFile(path);
  if (existing) return importKeyFile(existing);
  const { privateKey, publicKey } = await generateKeyPair(JWT_ALG, { crv: "Ed25519", extractable: true });
  const file: KeyFile = {
    kid: randomBytes(8).toString("hex"),
    alg: JWT_ALG,
    privateJwk: await exportJWK(privateKey),
    publicJwk: await exportJWK(publicKey),
  };
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${randomBytes(4).toString("hex")}.tmp`;
  const handle = await open(tmp, "wx", 0o600);
  try {
    await handle.writeFile(JSON.stringify(file));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, path);
  // Two processes starting at once on a fresh data dir: whichever rename landed last wins; both use that one.
  return importKeyFile((await readKeyFile(path)) ?? file);
}

async function readKeyFile(path: string): Promise<KeyFile | undefined> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as KeyFile;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

async function importKeyFile(file: KeyFile): Promise<SigningKey> {
  const privateKey = await importJWK(file.privateJwk, JWT_ALG);
  const publicKey = await importJWK(file.publicJwk, JWT_ALG);
  if (privateKey instanceof Uint8Array || publicKey instanceof Uint8Array) {
    throw new Error("jwt-key.json does not hold an asymmetric key pair");
  }
  return { kid: file.kid, privateKey, publicKey };
}
