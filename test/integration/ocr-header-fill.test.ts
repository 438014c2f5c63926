import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import sharp from "sharp";
import { renderPage } from "../../src/ingest/index.js";
import type { OcrResult } from "../../src/ingest/ocr/engine.js";
import { fillHeader, withHeaderFill } from "../../src/ingest/ocr/header-fill.js";
import { paddleRecogniser } from "../../src/ingest/ocr/line-recogniser.js";
import { findLines } from "../../src/ingest/ocr/paddle-engine.js";
import type { RawWord } from "../../src/ingest/page-builder.js";
import type { GreyImage } from "../../src/ingest/pgm.js";
import { type ExpectedWord, makeTextPdf, type TextLine } from "../helpers/pdf-fixtures.js";

/** A receipt strip (three times as tall as wide): a large name line, then the header and the body in small print. */
const SIZE = { width: 220, height: 660 };
const LINES: TextLine[] = [
  { text: "POPULAR BOOK", x: 40, y: 610, size: 22 },
  { text: "CO. (M) SDN BHD", x: 40, y: 580, size: 12 },
  { text: "NO 8, JALAN DESA", x: 40, y: 562, size: 12 },
  { text: "56000 KUALA LUMPUR", x: 40, y: 544, size: 12 },
  { text: "MILO 1KG 2 31.80", x: 40, y: 400, size: 12 },
  { text: "ROTI 1 2.50", x: 40, y: 382, size: 12 },
  { text: "TOTAL 34.30", x: 40, y: 300, size: 12 },
  { text: "CASH 20.00", x: 40, y: 282, size: 12 },
  { text: "THANK YOU", x: 40, y: 100, size: 12 },
];

const lineTexts = (result: OcrResult): string[] =>
  (result.lines ?? []).map((line) => line.map((i) => result.words[i]!.text).join(" "));

/**
 * A reading of the strip as tesseract gives one of a poor photo: every word of the lines from `from` on, read at
 * 0.8 (a doubtful page), and what `extra` adds (specks where the name is printed).
 */
function reading(image: GreyImage, expected: readonly ExpectedWord[], from: number, extra: RawWord[] = []): OcrResult {
  const words: RawWord[] = [];
  const lines: number[][] = [];
  let next = 0;
  LINES.forEach((line, i) => {
    const count = line.text.split(" ").length;
    const mine = expected.slice(next, next + count);
    next += count;
    if (i < from) return;
    lines.push(mine.map((_, k) => words.length + k));
    for (const w of mine) words.push({ text: w.text, box: w.box, confidence: 0.8 });
  });
  for (const w of extra) {
    lines.unshift([words.length]);
    words.push(w);
  }
  return { width: image.width, height: image.height, words, lines };
}

describe("header lines tesseract read nothing of, read by PaddleOCR (real detector and recogniser)", () => {
  let image: GreyImage;
  let expected: ExpectedWord[];

  before(async () => {
    const made = await makeTextPdf([LINES], SIZE);
    expected = made.expected[0]!;
    const { data, info } = await sharp(await renderPage(made.bytes, 1, { dpi: 200 }))
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    image = { width: info.width, height: info.height, data };
  });

  it("reads the name line tesseract missed, in place of its specks, before the lines under it", async () => {
    const name = expected.slice(0, 2).map((w) => w.box);
    const speck: RawWord = {
      text: "~",
      confidence: 0.1,
      box: { x0: name[0]!.x0, x1: name[0]!.x0 + 0.02, y0: name[0]!.y0, y1: name[0]!.y1 },
    };
    const filled = await fillHeader(reading(image, expected, 1, [speck]), image, paddleRecogniser, findLines);
    assert.deepEqual(lineTexts(filled), [
      "POPULAR BOOK",
      "CO. (M) SDN BHD",
      "NO 8, JALAN DESA",
      "56000 KUALA LUMPUR",
      "MILO 1KG 2 31.80",
      "ROTI 1 2.50",
      "TOTAL 34.30",
      "CASH 20.00",
      "THANK YOU",
    ]);
    const popular = filled.words.find((w) => w.text === "POPULAR")!;
    assert.ok(Math.abs(popular.box.x0 - name[0]!.x0) < 0.05, JSON.stringify(popular.box));
    assert.ok(popular.box.y0 < name[0]!.y1 && popular.box.y1 > name[0]!.y0, JSON.stringify(popular.box));
  });

  it("leaves lines tesseract read, however doubtfully, to the re-reader", async () => {
    const read = reading(image, expected, 0);
    const filled = await fillHeader(read, image, paddleRecogniser, findLines);
    assert.deepEqual(lineTexts(filled), lineTexts(read));
    assert.equal(filled.words.length, read.words.length);
  });

  it("fills doubtful strips only: office-shaped, surely read and nearly empty pages keep their reading", async () => {
    const missing = reading(image, expected, 1);
    const unchanged = async (result: OcrResult) => result;
    const office: GreyImage = { width: image.height, height: image.height, data: new Uint8Array(image.height ** 2) };
    assert.equal(await withHeaderFill(unchanged)(missing, async () => office), missing);
    const sure = { ...missing, words: missing.words.map((w) => ({ ...w, confidence: 0.97 })) };
    assert.equal(await withHeaderFill(unchanged)(sure, async () => image), sure);
    // Ingest reads a nearly empty page again with its contrast stretched (faint-page.ts): that reading is filled.
    const nearlyEmpty = reading(image, expected, 4);
    assert.ok(nearlyEmpty.words.length < 20);
    assert.equal(await withHeaderFill(unchanged)(nearlyEmpty, async () => image), nearlyEmpty);
    const filled = await withHeaderFill(unchanged)(missing, async () => image);
    assert.equal(lineTexts(filled)[0], "POPULAR BOOK");
  });
});
