/**
 * OCR faults at the engine level, with real engines: a `tesseract` binary that crashes (SIGSEGV) or hangs, placed
 * first on PATH, in front of the real tesseract.js; and bytes neither the real tesseract CLI nor tesseract.js can
 * read, so both fail. The service-level behaviour (FINALISED through the fallback, FAILED with a reason) is in
 * test/e2e/faults-ocr.test.ts.
 */
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { delimiter } from "node:path";
import { after, before, describe, it } from "node:test";
import { DocsiftError } from "../../src/domain/errors.js";
import { createOcrEngine, type OcrEngine } from "../../src/ingest/index.js";
import { type OcrFallbackNotice, withOcrFallback } from "../../src/ingest/ocr/fallback.js";
import { fakeTesseractDir } from "../helpers/faults.js";
import { makeTextPdf, SAMPLE_LINES, scanAsJpeg } from "../helpers/pdf-fixtures.js";

describe("OCR fallback: the tesseract CLI fails, tesseract.js reads the page", () => {
  const originalPath = process.env.PATH;
  const dirs: string[] = [];
  const engines: OcrEngine[] = [];
  let scan: Buffer;

  /** The CLI engine with the fake first on PATH, tesseract.js behind it; notices collected. */
  async function engineWithFake(
    script: string,
    pageTimeoutMs?: number,
  ): Promise<{ engine: OcrEngine; notices: OcrFallbackNotice[] }> {
    const dir = await fakeTesseractDir(script);
    dirs.push(dir);
    process.env.PATH = `${dir}${delimiter}${originalPath ?? ""}`;
    const notices: OcrFallbackNotice[] = [];
    const engine = withOcrFallback(
      createOcrEngine("tesseract-cli", pageTimeoutMs),
      () => createOcrEngine("tesseract-js"),
      (n) => notices.push(n),
    );
    engines.push(engine);
    return { engine, notices };
  }

  before(async () => {
    scan = await scanAsJpeg((await makeTextPdf([SAMPLE_LINES])).bytes);
  });

  after(async () => {
    process.env.PATH = originalPath;
    await Promise.all(engines.map((e) => e.close?.()));
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it("a binary killed by SIGSEGV: the page is read by tesseract.js and the failure reported", async () => {
    const { engine, notices } = await engineWithFake("ulimit -c 0\nkill -SEGV $$");
    const result = await engine.recognise(scan);
    const words = result.words.map((w) => w.text);
    assert.ok(words.includes("INV-2024-0042"), `the fallback read the page: ${words.join(" ")}`);
    assert.equal(notices.length, 1);
    assert.equal(notices[0]?.failed, "tesseract-cli");
    assert.equal(notices[0]?.fallback, "tesseract-js");
    assert.match(notices[0]?.reason ?? "", /SIGSEGV/);
  });

  it("a binary that exits 1 with garbage on stdout: same fallback", async () => {
    const { engine, notices } = await engineWithFake("echo 'level\tgarbage'\necho 'boom: bad things' >&2\nexit 1");
    const result = await engine.recognise(scan);
    assert.ok(result.words.some((w) => w.text === "INV-2024-0042"));
    assert.equal(notices.length, 1);
    assert.match(notices[0]?.reason ?? "", /exit 1.*boom: bad things/);
  });

  it("a binary that hangs past the page time limit: timeout, no fallback", async () => {
    const { engine, notices } = await engineWithFake("exec sleep 30", 300);
    await assert.rejects(engine.recognise(scan), (err: unknown) => {
      assert.ok(err instanceof DocsiftError);
      assert.equal(err.code, "timeout");
      return true;
    });
    assert.equal(notices.length, 0, "a slow page is not retried on the slower engine");
  });

  it("both engines fail (bytes no engine can read): ocr_failed naming both reasons", async () => {
    process.env.PATH = originalPath;
    const notices: OcrFallbackNotice[] = [];
    const engine = withOcrFallback(
      createOcrEngine("tesseract-cli"),
      () => createOcrEngine("tesseract-js"),
      (n) => notices.push(n),
    );
    engines.push(engine);
    const unreadable = Buffer.from("not an image, only text pretending to be one. ".repeat(20));
    await assert.rejects(engine.recognise(unreadable), (err: unknown) => {
      assert.ok(err instanceof DocsiftError);
      assert.equal(err.code, "ocr_failed");
      assert.match(err.message, /tesseract exit 1/);
      assert.match(err.message, /tesseract-js fallback failed too: tesseract\.js could not read the page/);
      return true;
    });
    assert.equal(notices.length, 1);
  });
});
