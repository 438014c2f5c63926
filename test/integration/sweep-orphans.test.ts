/**
 * Leftovers of crashes in the blob store (a partial temporary file of a write cut mid-way, a blob whose row was never
 * inserted) are removed when the service starts, once older than the grace period (DOCSIFT_ORPHAN_GRACE_S, default
 * 1 h), and counted in docsift_orphans_removed_total. Younger ones, which may belong to an upload on its way, and
 * every blob with a file row stay. Both blob stores: files under the data dir (SQLite) and the PostgreSQL table.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { access, mkdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import pg from "pg";
import { createTestSchema, type TestSchema } from "../helpers/pg-schema.js";
import { invoicePdf, startTestServer, type TestServer, upload, uploadForm } from "../helpers/server.js";

const HOUR = 3600_000;

/** Where a test plants leftovers and checks what is left, per blob store. */
interface Leftovers {
  /** A blob without a row, written `ageMs` ago. */
  orphan(id: string, ageMs: number): Promise<void>;
  /** A partial temporary file of a write cut `ageMs` ago (the file store only); returns its name. */
  temporary(id: string, ageMs: number): Promise<string | undefined>;
  /** Makes a stored blob (one with a row) look `ageMs` old, so only its row keeps it. */
  age(id: string, ageMs: number): Promise<void>;
  exists(name: string): Promise<boolean>;
  close(): Promise<void>;
}

function fileLeftovers(dataDir: string): Leftovers {
  const pathOf = (name: string): string => join(dataDir, "blobs", name.slice(0, 2), name);
  const backdate = async (name: string, ageMs: number): Promise<void> => {
    const at = new Date(Date.now() - ageMs);
    await utimes(pathOf(name), at, at);
  };
  const plant = async (name: string, ageMs: number): Promise<void> => {
    await mkdir(join(dataDir, "blobs", name.slice(0, 2)), { recursive: true });
    await writeFile(pathOf(name), "%PDF-1.7 partial");
    await backdate(name, ageMs);
  };
  return {
    orphan: (id, ageMs) => plant(id, ageMs),
    async temporary(id, ageMs) {
      const name = `${id}.a1b2c3d4e5f6.tmp`;
      await plant(name, ageMs);
      return name;
    },
    age: backdate,
    exists: (name) =>
      access(pathOf(name)).then(
        () => true,
        () => false,
      ),
    close: async () => undefined,
  };
}

async function pgLeftovers(schema: TestSchema): Promise<Leftovers> {
  const client = new pg.Client({ connectionString: schema.url });
  await client.connect();
  const at = (ageMs: number): string => new Date(Date.now() - ageMs).toISOString();
  return {
    async orphan(id, ageMs) {
      await client.query("INSERT INTO blobs (id, bytes, created_at) VALUES ($1, $2, $3)", [
        id,
        Buffer.from("%PDF"),
        at(ageMs),
      ]);
    },
    temporary: async () => undefined,
    async age(id, ageMs) {
      await client.query("UPDATE blobs SET created_at = $2 WHERE id = $1", [id, at(ageMs)]);
    },
    async exists(id) {
      const { rows } = await client.query("SELECT 1 FROM blobs WHERE id = $1", [id]);
      return rows.length === 1;
    },
    close: () => client.end(),
  };
}

/** The counter's value per kind, from the server's /metrics. */
async function removedCounts(server: TestServer): Promise<Record<string, number>> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${await server.token()}` } });
  const text = await res.text();
  const counts: Record<string, number> = {};
  for (const match of text.matchAll(/^docsift_orphans_removed_total\{kind="(\w+)"\} (\d+)$/gm)) {
    counts[match[1] ?? ""] = Number(match[2]);
  }
  return counts;
}

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`orphan sweep at start (${backend})`, () => {
    test("old temporary files and blobs without a row go; young ones and stored files stay", async () => {
      const schema = backend === "postgres" ? await createTestSchema() : undefined;
      let server = await startTestServer({ backend, schema, workers: 1 });
      const dataDir = server.dataDir;
      const token = await server.token();
      const pdf = await invoicePdf({ number: "SW-1", date: "2024-05-01", total: "10.00" });
      const kept = String((await upload(server, token, uploadForm(pdf, { fieldSet: "invoice" }))).body.fileId);
      await server.stop(true);

      const leftovers = backend === "postgres" && schema ? await pgLeftovers(schema) : fileLeftovers(dataDir);
      try {
        const oldOrphan = randomUUID();
        const youngOrphan = randomUUID();
        await leftovers.orphan(oldOrphan, 2 * HOUR);
        await leftovers.orphan(youngOrphan, 60_000);
        const oldTemporary = await leftovers.temporary(randomUUID(), 2 * HOUR);
        const youngTemporary = await leftovers.temporary(randomUUID(), 60_000);
        await leftovers.age(kept, 2 * HOUR);

        server = await startTestServer({ backend, schema, dataDir, workers: 1 });
        const expected = { temporary: oldTemporary ? 1 : 0, blob: 1 };
        // The sweep runs in the background of the start: wait for its counts.
        let counts = await removedCounts(server);
        for (let i = 0; i < 100 && (counts.blob ?? 0) < 1; i++) {
          await new Promise((r) => setTimeout(r, 100));
          counts = await removedCounts(server);
        }
        assert.deepEqual(counts, expected);
        assert.equal(await leftovers.exists(oldOrphan), false, "the old orphan blob is removed");
        assert.equal(await leftovers.exists(youngOrphan), true, "a young blob may belong to an upload on its way");
        assert.equal(await leftovers.exists(kept), true, "a blob with a file row stays");
        if (oldTemporary && youngTemporary) {
          assert.equal(await leftovers.exists(oldTemporary), false, "the old partial write is removed");
          assert.equal(await leftovers.exists(youngTemporary), true, "a young temporary file may be a write going on");
        }
        const res = await fetch(`${server.url}/result/final/${kept}`, {
          headers: { authorization: `Bearer ${await server.token()}` },
        });
        assert.equal(((await res.json()) as { status: string }).status, "FINALISED");
      } finally {
        await leftovers.close();
        await server.stop();
      }
    });
  });
}
