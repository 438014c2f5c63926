/**
 * The JWT signing key set: Ed25519 keys, each named by a `kid`, kept in the store (the SQLite database of the data
 * directory, or PostgreSQL), so every process of an installation, on any machine, signs and verifies with the same
 * keys. The newest key signs; `docsift keys rotate` adds a newer one and retires the old, whose tokens stay valid
 * until they expire (tokens.ts decides how long a retired key verifies).
 *
 * Signing reads the set from the store at every token, so a rotation by any process takes effect at the next token.
 * Verification looks the token's `kid` up in a copy held in memory, refreshed every KEY_REFRESH_MS, and reloaded when
 * a token names a key it lacks (a key another process has just added), at most once per RELOAD_MIN_INTERVAL_MS.
 */
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import type { NewSigningKey, SigningKeyRecord, SigningKeyRepository } from "../store/types.js";

export const JWT_ALG = "EdDSA";

/** How stale the verification copy may get: when another process's rotation retires a key here at the latest. */
const KEY_REFRESH_MS = 60_000;
/** Unknown kids reload the set at most this often: a flood of forged kids costs one query a second, not one each. */
const RELOAD_MIN_INTERVAL_MS = 1000;

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
}

export interface VerificationKey {
  publicKey: CryptoKey;
  /** Epoch ms when a newer key replaced it; null while it is the current key. */
  retiredAt: number | null;
}

export interface KeySet {
  /** The newest key of the set, as the store holds it now. */
  signingKey(): Promise<SigningKey>;
  /** The key named `kid`, after one reload of the set if it is not known here; undefined if the set has none. */
  find(kid: string): Promise<VerificationKey | undefined>;
}

/** The single key file docsift wrote before key sets (`<data>/jwt-key.json`). */
interface LegacyKeyFile {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

/**
 * The store's key set, with its first key created if it has none: the key of a `legacyKeyFile`, when that file
 * exists (tokens issued before the upgrade stay valid), else a new one. Of processes starting at once on an empty
 * set, one adds its key and all use that one.
 */
export async function openKeySet(repo: SigningKeyRepository, legacyKeyFile?: string): Promise<KeySet> {
  if ((await repo.list()).length === 0) {
    const legacy = legacyKeyFile === undefined ? undefined : await readLegacyKeyFile(legacyKeyFile);
    await repo.createFirst(legacy ?? (await newSigningKey()));
  }
  return cachedKeySet(repo);
}

/** A new Ed25519 key, created at `now`. */
export async function newSigningKey(now = new Date()): Promise<NewSigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(JWT_ALG, { crv: "Ed25519", extractable: true });
  return {
    kid: randomBytes(8).toString("hex"),
    privateJwk: JSON.stringify(await exportJWK(privateKey)),
    publicJwk: JSON.stringify(await exportJWK(publicKey)),
    createdAt: now.toISOString(),
  };
}

/** Adds a new key that signs from now on and retires the current one at `now`; returns the new key's kid. */
export async function rotateSigningKey(repo: SigningKeyRepository, now = new Date()): Promise<string> {
  const key = await newSigningKey(now);
  await repo.rotate(key);
  return key.kid;
}

function cachedKeySet(repo: SigningKeyRepository): KeySet {
  const keys = new Map<string, VerificationKey>();
  let signing: SigningKey | undefined;
  let loadedAt = 0;
  let reloading: Promise<void> | undefined;

  const load = async (): Promise<SigningKeyRecord[]> => {
    const records = await repo.list();
    loadedAt = Date.now();
    for (const record of records) {
      keys.set(record.kid, {
        publicKey: keys.get(record.kid)?.publicKey ?? (await importKey(record.publicJwk)),
        retiredAt: record.retiredAt === null ? null : Date.parse(record.retiredAt),
      });
    }
    return records;
  };

  // Callers within the interval wait for the next reload and share it, so a key added elsewhere is never missed.
  const reload = (): Promise<void> => {
    reloading ??= (async () => {
      const wait = loadedAt + RELOAD_MIN_INTERVAL_MS - Date.now();
      if (wait > 0) await sleep(wait);
      await load();
    })().finally(() => {
      reloading = undefined;
    });
    return reloading;
  };

  return {
    async signingKey() {
      const newest = (await load()).at(-1);
      if (!newest) throw new Error("the signing key set is empty");
      if (signing?.kid !== newest.kid) signing = { kid: newest.kid, privateKey: await importKey(newest.privateJwk) };
      return signing;
    },
    async find(kid) {
      if (!keys.has(kid) || Date.now() - loadedAt > KEY_REFRESH_MS) await reload();
      return keys.get(kid);
    },
  };
}

async function importKey(jwkText: string): Promise<CryptoKey> {
  const key = await importJWK(JSON.parse(jwkText) as JWK, JWT_ALG);
  if (key instanceof Uint8Array) throw new Error("a signing key of the set is not an asymmetric key");
  return key;
}

async function readLegacyKeyFile(path: string): Promise<NewSigningKey | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  const file = JSON.parse(text) as LegacyKeyFile;
  return {
    kid: file.kid,
    privateJwk: JSON.stringify(file.privateJwk),
    publicJwk: JSON.stringify(file.publicJwk),
    createdAt: new Date().toISOString(),
  };
}
