import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { degrees, PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { createOcrEngine, ingest, type OcrEngine, type OcrWord } from "../../src/ingest/index.js";
import { withPdf } from "../../src/ingest/pdf-open.js";
import { fullPageJpeg, loadScanSource } from "../../src/ingest/pdf-scan-image.js";
import { OCR_DPI, type OcrImagePath, pdfPageOcrImage } from "../../src/ingest/rasterise.js";
import {
  A4,
  drawLines,
  makeImagePdf,
  makeTextPdf,
  SAMPLE_LINES,
  scanAsJpeg,
  wordRecall,
} from "../helpers/pdf-fixtures.js";

/** The OCR image of page 1 by the path ingest chooses, and by the pdf.js render it falls back to. */
async function bothPaths(pdf: Uint8Array): Promise<{ chosen: OcrImagePath; fast: Buffer; rendered: Buffer }> {
  const source = await loadScanSource(pdf);
  return withPdf(pdf, async (doc) => {
    const fast = await pdfPageOcrImage(doc, source, 1, OCR_DPI);
    const rendered = await pdfPageOcrImage(doc, undefined, 1, OCR_DPI);
    assert.equal(rendered.path, "render");
    return { chosen: fast.path, fast: fast.image, rendered: rendered.image };
  });
}

/** Each word of `b` paired with the first unused word of `a` with the same text. */
function pairs(a: OcrWord[], b: OcrWord[]): [OcrWord, OcrWord][] {
  const pool = [...a];
  return b.flatMap((w) => {
    const i = pool.findIndex((p) => p.text === w.text);
    return i < 0 ? [] : [[pool.splice(i, 1)[0]!, w] as [OcrWord, OcrWord]];
  });
}

/** The header line and grey samples of a binary PGM as pgm() writes it ("P5\nW H\n255\n" then pixels). */
function pgmPixels(pgm: Buffer): { header: string; data: Buffer } {
  const first = pgm.indexOf(10);
  const second = pgm.indexOf(10, first + 1);
  const third = pgm.indexOf(10, second + 1);
  return { header: pgm.subarray(0, third).toString("latin1"), data: pgm.subarray(third + 1) };
}

describe("ingest: scanned PDF pages decode their embedded JPEG natively", () => {
  let scan: Buffer;
  let engine: OcrEngine;

  before(async () => {
    const { bytes } = await makeTextPdf([SAMPLE_LINES]);
    scan = await scanAsJpeg(bytes);
    engine = createOcrEngine("tesseract-cli");
  });

  after(async () => {
    await engine.close?.();
  });

  async function assertSameAsRender(pdf: Uint8Array): Promise<void> {
    const { chosen, fast, rendered } = await bothPaths(pdf);
    assert.equal(chosen, "embedded-jpeg");
    const [viaJpeg, viaRender] = [await engine.recognise(fast), await engine.recognise(rendered)];
    assert.ok(
      viaRender.words.some((w) => w.text === "INV-2024-0042"),
      "the rendered page reads upright",
    );
    const texts = (r: { words: OcrWord[] }) => r.words.map((w) => w.text);
    const recall = wordRecall(texts(viaRender), texts(viaJpeg));
    assert.ok(recall >= 0.97, `same words: ${texts(viaJpeg).join(" ")} vs ${texts(viaRender).join(" ")}`);
    const matched = pairs(viaRender.words, viaJpeg.words);
    assert.ok(matched.length >= 0.97 * viaRender.words.length);
    for (const [r, j] of matched)
      for (const k of ["x0", "y0", "x1", "y1"] as const)
        assert.ok(Math.abs(r.box[k] - j.box[k]) <= 0.01, `${j.text} ${k}: ${j.box[k]} vs ${r.box[k]}`);
    // And ingest itself reads the page the same way.
    const doc = await ingest(pdf, { ocr: engine });
    assert.ok(wordRecall(texts(viaJpeg), texts(doc.pages[0]!)) >= 0.97);
  }

  it("a full-page JPEG scan: same words and boxes as the render", async () => {
    await assertSameAsRender(await makeImagePdf([scan]));
  });

  it("a landscape-stored scan on a /Rotate 90 page: turned upright like the render", async () => {
    // The scanner stored the page lying on its side; /Rotate 90 turns it upright for display.
    const sideways = await sharp(scan).rotate(270).jpeg({ quality: 90 }).toBuffer();
    const stored = await PDFDocument.load(await makeImagePdf([sideways], { width: A4.height, height: A4.width }));
    stored.getPage(0).setRotation(degrees(90));
    await assertSameAsRender(await stored.save());
  });

  it("a scan drawn upside down (negative matrix height): the same pixels as the render", async () => {
    const doc = await PDFDocument.create();
    const jpeg = await doc.embedJpg(scan);
    doc.addPage([A4.width, A4.height]).drawImage(jpeg, { x: 0, y: A4.height, width: A4.width, height: -A4.height });
    const { chosen, fast, rendered } = await bothPaths(await doc.save());
    assert.equal(chosen, "embedded-jpeg");
    const [a, b] = [pgmPixels(fast), pgmPixels(rendered)];
    assert.equal(a.header, b.header, "same size");
    let diff = 0;
    for (let i = 0; i < a.data.length; i++) diff += Math.abs(a.data[i]! - b.data[i]!);
    // Two JPEG decoders and grey formulas differ by a level or two; a wrong orientation differs by tens.
    assert.ok(diff / a.data.length < 3, `mean grey difference ${(diff / a.data.length).toFixed(2)}`);
  });

  it("anything but a lone full-page JPEG is rendered", async () => {
    const png = await sharp(scan).png().toBuffer();
    const flate = await PDFDocument.create();
    const image = await flate.embedPng(png);
    flate.addPage([A4.width, A4.height]).drawImage(image, { x: 0, y: 0, width: A4.width, height: A4.height });
    const halfPage = await PDFDocument.create();
    const jpeg = await halfPage.embedJpg(scan);
    halfPage.addPage([A4.width, A4.height]).drawImage(jpeg, { x: 0, y: 0, width: A4.width / 2, height: A4.height });
    const stamped = await drawLines(await makeImagePdf([scan]), [{ text: "COPY", x: 60, y: 60, size: 12 }]);
    for (const pdf of [await flate.save(), await halfPage.save(), stamped]) {
      const source = await loadScanSource(pdf);
      assert.ok(source, "pdf-lib opens it");
      assert.equal(fullPageJpeg(source, 1), undefined);
    }
  });
});
