/**
 * BLOB_URL=s3://bucket/prefix against a real S3-compatible server (s3rver, started here on a free port): the blob
 * store itself, then the whole service on PostgreSQL with its blobs in S3.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { storageConfig } from "../../src/runtime/config.js";
import { parseS3Url, s3BlobStore, s3ClientConfig } from "../../src/store/blob-s3.js";
import { invoicePdf, requestJson, startTestServer, upload, uploadForm } from "../helpers/server.js";

const BUCKET = "docsift-test";
let s3: S3rver;
let dir: string;
let endpoint: string;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "docsift-s3rver-"));
  const port = await freePort();
  s3 = new S3rver({ address: "127.0.0.1", port, silent: true, directory: dir, configureBuckets: [{ name: BUCKET }] });
  await s3.run();
  endpoint = `http://127.0.0.1:${port}`;
  // What a deployment sets; s3rver accepts its well-known key pair.
  Object.assign(process.env, {
    S3_ENDPOINT: endpoint,
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "S3RVER",
    AWS_SECRET_ACCESS_KEY: "S3RVER",
  });
});
after(async () => {
  await s3.close();
  await rm(dir, { recursive: true, force: true });
});

async function keys(prefix: string): Promise<string[]> {
  const client = new S3Client(s3ClientConfig(storageConfig().s3));
  try {
    const res = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
    return (res.Contents ?? []).map((o) => o.Key ?? "").sort();
  } finally {
    client.destroy();
  }
}

test("BLOB_URL parsing: bucket and a normalised prefix; anything else is refused", () => {
  assert.deepEqual(parseS3Url("s3://my-bucket"), { bucket: "my-bucket", prefix: "" });
  assert.deepEqual(parseS3Url("s3://my-bucket/a/b/"), { bucket: "my-bucket", prefix: "a/b/" });
  assert.deepEqual(parseS3Url("s3://my.bucket/docsift"), { bucket: "my.bucket", prefix: "docsift/" });
  for (const bad of ["https://bucket/x", "s3://", "s3://UPPER/x", "bucket/x"]) assert.throws(() => parseS3Url(bad));
});

test("the S3 blob store writes, reads back, reports a missing key as ENOENT and deletes", async () => {
  const blobs = s3BlobStore(`s3://${BUCKET}/unit`, storageConfig().s3);
  try {
    const id = "0f6e2a4c-1b7d-4c5e-9a8f-3d2c1b0a9e8d";
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 31) % 251);
    await blobs.put(id, bytes);
    assert.deepEqual(await keys("unit/"), [`unit/${id}`]);
    assert.ok((await blobs.get(id)).equals(Buffer.from(bytes)));
    await blobs.delete(id);
    await assert.rejects(blobs.get(id), (err: NodeJS.ErrnoException) => err.code === "ENOENT");
    await assert.rejects(blobs.get("../etc/passwd"), /invalid blob id/);
  } finally {
    blobs.close();
  }
});

test("the S3 blob store lists its own blobs (for the orphan sweep), not other keys under or beside its prefix", async () => {
  const blobs = s3BlobStore(`s3://${BUCKET}/listed`, storageConfig().s3);
  const beside = s3BlobStore(`s3://${BUCKET}/beside`, storageConfig().s3);
  const before = Date.now() - 60_000;
  try {
    const ids = ["0a1b2c3d-0000-4000-8000-000000000001", "0a1b2c3d-0000-4000-8000-000000000002"];
    for (const id of ids) await blobs.put(id, new Uint8Array([1]));
    await beside.put("0a1b2c3d-0000-4000-8000-000000000003", new Uint8Array([1]));
    const client = new S3Client(s3ClientConfig(storageConfig().s3));
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: "listed/notes/readme.txt", Body: "x" }));
    client.destroy();
    const listed = [];
    for await (const blob of blobs.list()) listed.push(blob);
    assert.deepEqual(listed.map((b) => b.id).sort(), ids);
    assert.ok(
      listed.every((b) => b.storedAt.getTime() > before),
      JSON.stringify(listed),
    );
    assert.equal(await blobs.removeTemporary(new Date()), 0, "S3 writes are whole or absent");
  } finally {
    blobs.close();
    beside.close();
  }
});

test("the service on PostgreSQL keeps its documents in S3, not in the database", async () => {
  const server = await startTestServer({ backend: "postgres", blobUrl: `s3://${BUCKET}/svc`, workers: 1 });
  try {
    const token = await server.token();
    const pdf = await invoicePdf({ number: "S3-7", date: "2024-05-06", total: "77.00" });
    const res = await upload(server, token, uploadForm(pdf, { fieldSet: "invoice" }));
    const fileId = String(res.body.fileId);
    assert.ok(fileId.length > 0, JSON.stringify(res.body));
    const final = await requestJson(`${server.url}/result/final/${fileId}`, { token });
    assert.equal(final.body.status, "FINALISED", JSON.stringify(final.body));
    assert.ok(JSON.stringify(final.body).includes("S3-7"));
    assert.deepEqual(await keys("svc/"), [`svc/${fileId}`]);
    assert.equal(await server.blobCount(), 0, "no bytes in PostgreSQL's blob table");
    // The page image is rendered from the S3 copy.
    const image = await fetch(`${server.url}/result/image/${fileId}?page=1`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(image.status, 200);
    assert.equal(image.headers.get("content-type"), "image/png");
  } finally {
    await server.stop();
  }
});
