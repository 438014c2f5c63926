/**
 * What an Idempotency-Key stands for: the fingerprint of one upload (its bytes and its parameters as the service
 * normalised them) and how long the key is remembered. Pure: the same upload sent as a form or as JSON, with
 * `fieldSet=invoice` or `fieldSets=["invoice"]`, with object keys in any order, has the same fingerprint.
 */
import { createHash } from "node:crypto";
import { storedOptions } from "../domain/stored-workflow-plan.js";
import type { UploadRequest } from "./receive.js";

/** A key names its upload for 24 hours after the upload; after that the same key starts a new upload. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** JSON with object keys sorted at every level, so equal values have equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** sha256 hex over the bytes' own sha256 and the canonical parameters (the file name included: it is stored). */
export function uploadFingerprint(upload: Omit<UploadRequest, "idempotencyKey">): string {
  const params = canonicalJson({
    selection: upload.selection,
    workflow: upload.plan.workflow,
    // The options as stored: the same text as before plans were typed, so keys taken then still match.
    options: storedOptions(upload.plan),
    locale: upload.locale,
    tags: upload.tags,
    parentDocId: upload.parentDocId ?? undefined,
    fileName: upload.fileName,
  });
  const bytes = createHash("sha256").update(upload.bytes).digest("hex");
  return createHash("sha256").update(`docsift-upload-v1\n${bytes}\n${params}`).digest("hex");
}

/** Whether a key used for an upload at `uploadedAt` (ISO) is past the retention window at `now` (epoch ms). */
export function keyExpired(uploadedAt: string, now: number): boolean {
  return now - Date.parse(uploadedAt) > IDEMPOTENCY_RETENTION_MS;
}
