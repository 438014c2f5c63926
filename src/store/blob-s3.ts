/**
 * Blobs in S3 or an S3-compatible store (BLOB_URL=s3://bucket/prefix). Settings are the usual AWS ones:
 * AWS_REGION, AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or any source of the SDK's default credential chain), and a
 * custom endpoint in S3_ENDPOINT or AWS_ENDPOINT_URL (MinIO, Ceph, s3rver...), which also turns on path-style
 * addressing (S3_FORCE_PATH_STYLE=true|false overrides). `put` resolves once S3 acknowledged the write, which S3
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

/** Client settings from the environment (see the module comment). */
export function s3ConfigFromEnv(env: NodeJS.ProcessEnv = process.env): S3ClientConfig {
  const endpoint = env.S3_ENDPOINT || env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  const pathStyle = env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === "true" : endpoint !== undefined;
  return {
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || "us-east-1",
    endpoint,
    forcePathStyle: pathStyle,
    // Checksums only where S3 requires them: S3-compatible servers often reject the newer trailing-checksum uploads.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  };
}

const SAFE_ID = /^[0-9a-zA-Z-]{8,64}$/;

export function s3BlobStore(url: string, config: S3ClientConfig = s3ConfigFromEnv()): BlobStore & { close(): void } {
  const { bucket, prefix } = parseS3Url(url);
  const client = new S3Client(config);
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
