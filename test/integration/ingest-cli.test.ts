import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { makeTextPdf, SAMPLE_LINES } from "../helpers/pdf-fixtures.js";

const MAIN = join(import.meta.dirname, "../../src/cli/main.ts");

function docsift(...args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", MAIN, ...args], { encoding: "utf8" });
}

describe("docsift ocr", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "docsift-cli-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("prints the Document as JSON", async () => {
    const file = join(dir, "invoice.pdf");
    writeFileSync(file, (await makeTextPdf([SAMPLE_LINES])).bytes);
    const out = docsift("ocr", file);
    assert.equal(out.status, 0, out.stderr);
    const doc = JSON.parse(out.stdout) as {
      type: string;
      pages: { pageNum: number; width: number; height: number; words: { id: number; text: string; box: object }[] }[];
    };
    assert.equal(doc.type, "pdf");
    assert.equal(doc.pages[0]!.pageNum, 1);
    assert.ok(doc.pages[0]!.words.some((w) => w.text === "INV-2024-0042" && typeof w.id === "number" && w.box));
  });

  it("exits non-zero with a JSON error on stderr for bad input", () => {
    const file = join(dir, "notes.pdf");
    writeFileSync(file, "just some text\n");
    const out = docsift("ocr", file);
    assert.equal(out.status, 1);
    assert.equal(out.stdout, "");
    assert.deepEqual(Object.keys(JSON.parse(out.stderr.trim())), ["error", "message"]);
    assert.equal(JSON.parse(out.stderr.trim()).error, "unsupported_type");
  });

  it("refuses an unknown engine with a usage error naming it", () => {
    const out = docsift("ocr", "x.pdf", "--engine", "magic");
    assert.equal(out.status, 2);
    assert.match(out.stderr, /--engine must be tesseract-cli, tesseract-js or paddle, not "magic"/);
  });
});
