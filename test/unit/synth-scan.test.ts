import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { generateDocument } from "../../bench/synth/document.js";
import { degradeToScan } from "../../bench/synth/scan.js";

const dir = mkdtempSync(join(tmpdir(), "synth-scan-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("degradeToScan", () => {
  it("turns a one-page document into a grey 200 dpi JPEG, the same for the same seed", async () => {
    const doc = await generateDocument(3, "receipt", { locale: "en-AU" });
    const page = (await PDFDocument.load(doc.pdf)).getPage(0).getSize();
    const scan = await degradeToScan(doc.pdf, 3);
    assert.equal(scan.format, "jpg");
    const meta = await sharp(scan.bytes).metadata();
    assert.equal(meta.format, "jpeg");
    assert.equal(meta.channels, 1);
    // Rotation only grows the canvas: never smaller than the page at 200 dpi, at most ~6 % larger per side plus.
    const expectedWidth = (page.width * 200) / 72;
    assert.ok(
      meta.width! >= expectedWidth - 2 && meta.width! < expectedWidth * 1.1 + ((page.height * 200) / 72) * 0.06,
    );
    assert.deepEqual(Buffer.from((await degradeToScan(doc.pdf, 3)).bytes), Buffer.from(scan.bytes));
  });

  it("turns a multi-page document into an image-only PDF with the same page count", async () => {
    let seed = 1;
    let doc = await generateDocument(seed, "invoice", { locale: "de-DE" });
    while (doc.pages < 2) doc = await generateDocument(++seed, "invoice", { locale: "de-DE" });
    const scan = await degradeToScan(doc.pdf, seed);
    assert.equal(scan.format, "pdf");
    assert.equal((await PDFDocument.load(scan.bytes)).getPageCount(), doc.pages);
    const path = join(dir, "scan.pdf");
    writeFileSync(path, scan.bytes);
    assert.equal(execFileSync("pdftotext", [path, "-"], { encoding: "utf8" }).trim(), "");
  });
});
