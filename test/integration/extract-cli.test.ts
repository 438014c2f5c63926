import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { resolveFields } from "../../src/catalog/lookup.js";
import { makeTextPdf, SAMPLE_LINES } from "../helpers/pdf-fixtures.js";

const MAIN = join(import.meta.dirname, "../../src/cli/main.ts");

function docsift(...args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", MAIN, ...args], { encoding: "utf8" });
}

interface Line {
  file: string;
  fileId?: string;
  status: string;
  results?: { timestamp: string; fields: Array<{ name: string; value: string | null; confidence: number }> };
  error?: { error: string; message: string };
  timings?: { pages: number; ingestMs: number; extractMs: number };
}

describe("docsift extract", () => {
  let dir: string;
  let pdf: string;
  let text: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "docsift-extract-"));
    pdf = join(dir, "invoice.pdf");
    text = join(dir, "notes.txt");
    writeFileSync(pdf, (await makeTextPdf([SAMPLE_LINES])).bytes);
    writeFileSync(text, "just some text\n");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("prints one jsonl line per file in input order, a FAILED line for a bad file, and exits 1", () => {
    const out = docsift("extract", "--product", "invoices", "--format", "jsonl", "--timings", text, pdf);
    assert.equal(out.status, 1, out.stderr);
    const lines = out.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Line);
    assert.equal(lines.length, 2);
    const [failed, done] = lines as [Line, Line];
    assert.equal(failed.file, text);
    assert.equal(failed.status, "FAILED");
    assert.equal(failed.error?.error, "unsupported_type");
    assert.equal(typeof failed.error?.message, "string");
    assert.equal(done.file, pdf);
    assert.equal(done.status, "FINALISED");
    assert.match(done.fileId ?? "", /^[0-9a-f-]{36}$/);
    assert.ok(!Number.isNaN(Date.parse(done.results?.timestamp ?? "")));
    assert.deepEqual(
      done.results?.fields.map((f) => f.name),
      resolveFields({ products: ["invoices"] }).map((f) => f.name),
    );
    const value = (name: string) => done.results?.fields.find((f) => f.name === name)?.value;
    assert.equal(value("invoice.number"), "INV-2024-0042");
    assert.equal(value("invoice.total"), "1234.56");
    assert.equal(value("invoice.currency"), "EUR");
    assert.equal(done.timings?.pages, 1);
    assert.ok((done.timings?.extractMs ?? -1) >= 0);
  });

  it("prints a pretty JSON array by default and exits 0 when every file succeeds", () => {
    const out = docsift("extract", "--field-set", "document", pdf);
    assert.equal(out.status, 0, out.stderr);
    assert.ok(out.stdout.startsWith("[\n"));
    const lines = JSON.parse(out.stdout) as Line[];
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.results?.fields.find((f) => f.name === "document.type")?.value, "invoice");
    assert.equal(lines[0]?.timings, undefined);
  });

  it("rejects a locale that is not a BCP 47 tag with a usage error", () => {
    const out = docsift("extract", "--field-set", "document", "--locale", "de_DE!", pdf);
    assert.equal(out.status, 2);
    assert.match(out.stderr, /^docsift extract: --locale "de_DE!" is not a BCP 47 language tag/);
    assert.equal(out.stdout, "");
  });

  it("rejects an unknown product with a usage error", () => {
    const out = docsift("extract", "--product", "passports", pdf);
    assert.equal(out.status, 2);
    assert.match(out.stderr, /^docsift extract: .*passports/);
  });
});
