/**
 * Signing secrets. A secret is the Standard Webhooks form, `whsec_` and base64 of 32 random bytes, shown to the client
 * once. Signing needs it in clear, so it cannot be hashed: it is stored sealed with AES-256-GCM under a key derived
 * (HKDF-SHA256) from the installation's own secret material (the first JWT signing key, which every process of an
 * installation shares and which is never removed). A dump of the webhooks table alone does not give the secrets.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

const PREFIX = "whsec_";
const SEALED = "v1.";

export function generateWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString("base64");
}

export interface SecretBox {
  seal(secret: string): string;
  open(sealed: string): string;
}

/** `material`: the installation's secret (key material as text); the same material gives the same box. */
export function secretBox(material: string): SecretBox {
  const key = Buffer.from(hkdfSync("sha256", material, "docsift", "webhook signing secrets v1", 32));
  return {
    seal(secret) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
      return SEALED + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
    },
    open(sealed) {
      if (!sealed.startsWith(SEALED)) throw new Error("unknown webhook secret format");
      const raw = Buffer.from(sealed.slice(SEALED.length), "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    },
  };
}

/**
 * The Standard Webhooks headers of one attempt, signed with every secret given (the current one and, during a
 * rotation's grace period, the previous one): receivers accept any `v1,` signature that matches theirs.
 */
export function signatureHeaders(
  msgId: string,
  at: Date,
  body: string,
  secrets: readonly string[],
): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(msgId, at, body));
  return {
    "webhook-id": msgId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}
