/**
 * Blobs in S3 or an S3-compatible store (BLOB_URL=s3://bucket/prefix). Region, endpoint and addressing come in as
 * S3Settings (runtime/config.ts); credentials come from the SDK's default credential chain (AWS_ACCESS_KEY_ID /
 * AWS_SECRET_ACCESS_KEY, profiles, instance roles). `put` resolves once S3 acknowledged the write, which S3
 * only does for durably stored objects, and an object appears whole or not at all: there are no partial writes to remove.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import type { BlobStore } from "./types.js";

export interface S3Location {
  bucket: string;
  /** Key prefix, empty or ending in "/". */
  prefix: string;
}

export function parseS3Url(url: string): S3Location {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!match?.[1]) throw new Error(`BLOB_URL must look like s3://bucket/prefix, got ${JSON.stringify(url)}`);
  const rest = (match[2] ?? "").replace(/^\/+|\/+$/g, "");
  return { bucket: match[1], prefix: rest ? `${rest}/` : "" };
}

/** Where the S3 client connects (runtime/config.ts reads them from the usual AWS variables). */
export interface S3Settings {
  region: string;
  /** A custom endpoint (MinIO, Ceph, s3rver...); undefined: AWS's own. */
  endpoint: string | undefined;
  forcePathStyle: boolean;
}

export function s3ClientConfig(settings: S3Settings): S3ClientConfig {
  return {
    ...settings,
    // Checksums only where S3 requires them: S3-compatible servers often reject the newer trailing-checksum uploads.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  };
}

const SAFE_ID = /^[0-9a-zA-Z-]{8,64}$/;

export function s3BlobStore(url: string, settings: S3Settings): BlobStore & { close(): void } {
  const { bucket, prefix } = parseS3Url(url);
  const client = new S3Client(s3ClientConfig(settings));
  const keyOf = (id: string): string => {
    // Ids come from our own UUIDs; the check keeps a bug elsewhere from addressing someone else's keys.
    if (!SAFE_ID.test(id)) throw new Error(`invalid blob id ${JSON.stringify(id)}`);
    return `${prefix}${id}`;
  };
  return {
    async put(id, bytes) {
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: keyOf(id), Body: bytes, ContentLength: bytes.byteLength }),
      );
    },
    async get(id) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(id) }));
        if (!res.Body) throw new Error(`blob ${id}: empty response`);
        return Buffer.from(await res.Body.transformToByteArray());
      } catch (err) {
        if (err instanceof NoSuchKey) throw Object.assign(new Error(`blob ${id} not found`), { code: "ENOENT" });
        throw err;
      }
    },
    async delete(id) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(id) }));
    },
    async *list() {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          const id = object.Key?.slice(prefix.length);
          // Only our own keys: anything else under the prefix (another tool's, a deeper "folder") is left alone.
          if (id && SAFE_ID.test(id) && object.LastModified) yield { id, storedAt: object.LastModified };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    removeTemporary: async () => 0,
    close: () => client.destroy(),
  };
}
