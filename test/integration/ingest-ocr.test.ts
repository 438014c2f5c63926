import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import type { Page } from "../../src/document/model.js";
import { createOcrEngine, ingest, type OcrEngine } from "../../src/ingest/index.js";
import { withPdf } from "../../src/ingest/pdf-open.js";
import {
  concatPdfs,
  type ExpectedWord,
  exifOrientation6Jpeg,
  makeImagePdf,
  makeTextPdf,
  SAMPLE_LINES,
  scanAsJpeg,
  withGarbageTextLayer,
  wordRecall,
} from "../helpers/pdf-fixtures.js";

/** One OCR'd page per engine (plus one for orientation): OCR costs about a second a page. */
describe("ingest: OCR of scanned pages and images", () => {
  let textPdf: Uint8Array;
  let expected: ExpectedWord[];
  let scan: Buffer;
  const engines: OcrEngine[] = [];

  before(async () => {
    const made = await makeTextPdf([SAMPLE_LINES]);
    textPdf = made.bytes;
    expected = made.expected[0]!;
    scan = await scanAsJpeg(textPdf);
  });

  after(async () => {
    await Promise.all(engines.map((e) => e.close?.()));
  });

  function assertReads(page: Page): void {
    assert.equal(page.source, "ocr");
    const recall = wordRecall(
      expected.map((w) => w.text),
      page.words.map((w) => w.text),
    );
    assert.ok(recall >= 0.95, `found ${(recall * 100).toFixed(1)} % of the words: ${page.words.map((w) => w.text)}`);
    assert.ok(page.words.every((w) => w.source === "ocr" && w.confidence >= 0 && w.confidence <= 1 && w.text.trim()));
    // OCR boxes land where the words were drawn (looser than the text layer: OCR boxes hug ink, not font metrics).
    const total = page.words.find((w) => w.text === "INV-2024-0042");
    const drawn = expected.find((w) => w.text === "INV-2024-0042")!;
    assert.ok(total, "the invoice number is read");
    assert.ok(Math.abs(total.box.x0 - drawn.box.x0) < 0.02 && Math.abs(total.box.y0 - drawn.box.y0) < 0.02);
    const byId = new Map(page.words.map((w) => [w.id, w.text]));
    const lines = page.lines.map((l) => l.wordIds.map((id) => byId.get(id)).join(" "));
    assert.ok(lines.includes("Total Amount Due 1234.56 EUR"), `lines: ${JSON.stringify(lines)}`);
  }

  it("tesseract CLI: a two-page PDF with one text page and one scanned page, page by page", async () => {
    const engine = createOcrEngine("tesseract-cli");
    engines.push(engine);
    // The scanned page also carries an invisible garbage text layer (private-use glyphs): it must be OCR'd anyway.
    const scannedPage = await withGarbageTextLayer(await makeImagePdf([scan]), "Invoice Number 999 Total 1.00");
    const layer = await withPdf(scannedPage, async (doc) => (await doc.getPage(1)).getTextContent());
    const layerText = layer.items.map((item) => ("str" in item ? item.str : "")).join("");
    assert.match(layerText, /^[\uE000-\uF8FF]{10,}/u, "the fixture's text layer decodes to private-use glyphs");
    const mixed = await concatPdfs(textPdf, scannedPage);
    const sources: string[] = [];
    const doc = await ingest(mixed, { ocr: engine, onPage: (p) => (sources[p.pageNum - 1] = p.source) });
    assert.deepEqual(
      doc.pages.map((p) => p.source),
      ["text", "ocr"],
    );
    assert.deepEqual(sources, ["text", "ocr"]);
    assertReads(doc.pages[1]!);
    const ids = doc.pages.flatMap((p) => p.words.map((w) => w.id));
    assert.equal(new Set(ids).size, ids.length, "word ids are unique across text and OCR pages");
  });

  it("tesseract.js: the rasterised page as a PNG", async () => {
    const engine = createOcrEngine("tesseract-js");
    engines.push(engine);
    const png = await sharp(scan).png().toBuffer();
    const doc = await ingest(png, { ocr: engine });
    assert.equal(doc.type, "png");
    const page = doc.pages[0]!;
    const meta = await sharp(png).metadata();
    assert.deepEqual([page.width, page.height], [meta.width, meta.height]);
    assertReads(page);
  });

  it("a JPG with EXIF orientation 6 is read upright", async () => {
    const engine = createOcrEngine("tesseract-cli");
    const rotated = await exifOrientation6Jpeg(scan);
    const stored = await sharp(rotated).metadata();
    assert.ok(stored.width! > stored.height!, "stored sideways");
    const doc = await ingest(rotated, { ocr: engine });
    const page = doc.pages[0]!;
    assert.equal(doc.type, "jpeg");
    assert.ok(page.height > page.width, "page size is the upright (displayed) size");
    assertReads(page);
  });

  it("a page over its OCR time limit has its process killed and fails with a typed error; abort stops too", async () => {
    const engine = createOcrEngine("tesseract-cli");
    await assert.rejects(ingest(scan, { ocr: createOcrEngine("tesseract-cli", 50) }), { code: "timeout" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("client went away")), 50);
    await assert.rejects(ingest(scan, { ocr: engine, signal: controller.signal }), /client went away/);
    const scannedPdf = await makeImagePdf([scan]);
    const later = new AbortController();
    setTimeout(() => later.abort(new Error("shutting down")), 50);
    await assert.rejects(ingest(scannedPdf, { ocr: engine, signal: later.signal }), /shutting down/);
  });
});
