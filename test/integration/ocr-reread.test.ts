import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import sharp from "sharp";
import { renderPage } from "../../src/ingest/index.js";
import type { OcrEngine, OcrResult } from "../../src/ingest/ocr/engine.js";
import { type LineRecogniser, paddleRecogniser, readLine } from "../../src/ingest/ocr/line-recogniser.js";
import { rereadLines, withLineRereading } from "../../src/ingest/ocr/rereading.js";
import { createTesseractCli } from "../../src/ingest/ocr/tesseract-cli.js";
import { type GreyImage, parsePgm, pgm } from "../../src/ingest/pgm.js";
import { type ExpectedWord, makeTextPdf } from "../helpers/pdf-fixtures.js";

const LINES = ["TOTAL 12.50", "SHAH ALAM 40150"];
/** A receipt-sized strip, 14 pt text. */
const SIZE = { width: 260, height: 90 };

/** The strip rendered at `dpi` as grey pixels. */
async function render(bytes: Uint8Array, dpi: number): Promise<GreyImage> {
  const { data, info } = await sharp(await renderPage(bytes, 1, { dpi }))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/**
 * A poor photo of the strip: 72 dpi, blurred, with fixed pseudo-random noise. On it tesseract doubts some words
 * (below 0.95) yet the recogniser still reads every line.
 */
async function degrade(image: GreyImage): Promise<GreyImage> {
  const blurred = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } })
    .blur(0.6)
    .toColourspace("b-w")
    .raw()
    .toBuffer();
  let seed = 42;
  const noise = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed / 2 ** 32 - 0.5) * 40;
  };
  const data = Uint8Array.from(blurred, (v) => Math.max(0, Math.min(255, Math.round(v + noise()))));
  return { width: image.width, height: image.height, data };
}

const lineTexts = (result: OcrResult): string[] =>
  (result.lines ?? []).map((line) => line.map((i) => result.words[i]!.text).join(" "));

/** An engine that returns a reading made earlier (the benchmark's cached tesseract output, in effect). */
const cachedEngine = (result: OcrResult): OcrEngine => ({ name: "cached", recognise: async () => result });

describe("line re-reading with PaddleOCR's recogniser (real model, real tesseract)", () => {
  let expected: ExpectedWord[];
  let clean: GreyImage;
  let poor: Buffer;
  let first: OcrResult;

  before(async () => {
    const made = await makeTextPdf([LINES.map((text, i) => ({ text, x: 20, y: 55 - 30 * i, size: 14 }))], SIZE);
    expected = made.expected[0]!;
    clean = await render(made.bytes, 200);
    const degraded = await degrade(await render(made.bytes, 72));
    poor = pgm(degraded.width, degraded.height, degraded.data);
    first = await createTesseractCli().recognise(poor);
  });

  it("reads each line of a clean image exactly", async () => {
    let next = 0;
    for (const text of LINES) {
      const count = text.split(" ").length;
      const words = expected.slice(next, next + count).map((w) => w.box);
      next += count;
      const chars = await readLine(clean, {
        left: Math.floor(Math.min(...words.map((b) => b.x0)) * clean.width),
        top: Math.floor(Math.min(...words.map((b) => b.y0)) * clean.height),
        right: Math.ceil(Math.max(...words.map((b) => b.x1)) * clean.width),
        bottom: Math.ceil(Math.max(...words.map((b) => b.y1)) * clean.height),
      });
      assert.equal(
        chars
          .map((c) => c.text)
          .join("")
          .trim(),
        text,
      );
      assert.ok(
        chars.every((c, i) => i === 0 || c.x > chars[i - 1]!.x),
        "characters run left to right",
      );
    }
  });

  it("re-reads tesseract's doubtful lines on a poor image, keeping tesseract's word boxes", async () => {
    assert.equal(first.lines?.length, LINES.length, `tesseract's lines: ${JSON.stringify(lineTexts(first))}`);
    assert.ok(
      first.words.some((w) => w.confidence < 0.95),
      "tesseract doubts a word (else nothing is re-read)",
    );
    const reread = await withLineRereading(cachedEngine(first)).recognise(poor);
    assert.deepEqual(lineTexts(reread), LINES);
    assert.notDeepEqual(reread.words, first.words, "doubtful words took the re-reading");
    first.lines!.forEach((line, k) => {
      const after = reread.lines![k]!;
      assert.equal(after.length, line.length, "no word was split");
      assert.deepEqual(
        after.map((i) => reread.words[i]!.box),
        line.map((i) => first.words[i]!.box),
      );
    });
    // The decorator around the real CLI gives what rereadLines gives on tesseract's reading.
    const decorated = await withLineRereading(createTesseractCli()).recognise(poor);
    assert.deepEqual(decorated, reread);
  });

  it("leaves the inner engine's reading alone: re-reading off, or no doubtful line", async () => {
    assert.deepEqual(await createTesseractCli().recognise(poor), first, "off: tesseract's own reading, unchanged");
    const sure: OcrResult = { ...first, words: first.words.map((w) => ({ ...w, confidence: 0.95 })) };
    let reads = 0;
    const counting: LineRecogniser = {
      readLine: (...args) => {
        reads++;
        return paddleRecogniser.readLine(...args);
      },
    };
    assert.equal(await withLineRereading(cachedEngine(sure), counting).recognise(poor), sure);
    assert.equal(reads, 0);
  });

  it("stops between lines when the signal is aborted, with the signal's reason", async () => {
    const stop = new AbortController();
    const reason = new Error("client went away");
    let reads = 0;
    const abortingAfterOne: LineRecogniser = {
      async readLine(...args) {
        reads++;
        const chars = await paddleRecogniser.readLine(...args);
        stop.abort(reason);
        return chars;
      },
    };
    const doubtful: OcrResult = { ...first, words: first.words.map((w) => ({ ...w, confidence: 0.5 })) };
    await assert.rejects(
      withLineRereading(cachedEngine(doubtful), abortingAfterOne).recognise(poor, stop.signal),
      reason,
    );
    assert.equal(reads, 1);
    await assert.rejects(withLineRereading(createTesseractCli()).recognise(poor, stop.signal), reason);
  });

  it("keeps the first reading and warns once when the recogniser fails", async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => void warnings.push(w);
    process.on("warning", onWarning);
    try {
      const failing: LineRecogniser = { readLine: async () => Promise.reject(new Error("model file missing")) };
      assert.equal(await withLineRereading(cachedEngine(first), failing).recognise(poor), first);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    assert.deepEqual(
      warnings.map((w) => [(w as NodeJS.ErrnoException).code, /model file missing/.test(w.message)]),
      [["DOCSIFT_OCR_REREAD", true]],
    );
  });

  it("rereadLines refuses an image of another size than the reading", async () => {
    const image = parsePgm(poor)!;
    await assert.rejects(
      rereadLines(first, { ...image, width: image.width - 1 }, paddleRecogniser),
      /The image is \d+x\d+, the OCR result/,
    );
  });
});

describe("re-reading on a page tesseract read surely (real model, real tesseract)", () => {
  const PAGE = [
    "INVOICE F20260026",
    "Date 31/01/2026",
    "Due date 02/03/2026",
    "Order PO201925478",
    "Net amount 100.00",
    "VAT 20 % 20.00",
    "Paid already 0.00",
    "TOTAL 120.00",
  ];
  let image: Buffer;
  let first: OcrResult;

  before(async () => {
    const made = await makeTextPdf([PAGE.map((text, i) => ({ text, x: 30, y: 250 - 30 * i, size: 14 }))], {
      width: 300,
      height: 280,
    });
    const clean = await render(made.bytes, 200);
    image = pgm(clean.width, clean.height, clean.data);
    first = await createTesseractCli().recognise(image);
  });

  /**
   * `first` as tesseract reads a box's corner: the words `garbled` names read as guesses at 0.16, the rest sure (the
   * page's mean confidence stays above the bar of pageWorthRereading).
   */
  const withGuesses = (garbled: Record<string, string>): OcrResult => ({
    ...first,
    words: first.words.map((w) =>
      garbled[w.text] === undefined ? { ...w, confidence: 0.99 } : { ...w, text: garbled[w.text]!, confidence: 0.16 },
    ),
  });

  it("re-reads a header word tesseract could not read at all, and only there", async () => {
    assert.deepEqual(lineTexts(first), PAGE, "tesseract reads the clean page");
    const guessed = withGuesses({ F20260026: "ERNIE", "120.00": "ERNIE" });
    const reread = await withLineRereading(cachedEngine(guessed)).recognise(image);
    assert.deepEqual(lineTexts(reread), [...PAGE.slice(0, -1), "TOTAL ERNIE"]);
  });

  it("leaves a sure page's doubtful but legible words, and its short guesses, as tesseract read them", async () => {
    const doubtful: OcrResult = {
      ...first,
      words: first.words.map((w, i) => ({
        ...w,
        text: i === 1 ? "F2O260026" : w.text,
        confidence: 0.99 - 0.5 * +(i === 1),
      })),
    };
    const short = withGuesses({ Date: "Da" });
    let reads = 0;
    const counting: LineRecogniser = {
      readLine: (...args) => {
        reads++;
        return paddleRecogniser.readLine(...args);
      },
    };
    for (const reading of [doubtful, short]) {
      assert.deepEqual(await withLineRereading(cachedEngine(reading), counting).recognise(image), reading);
    }
    assert.equal(reads, 0, "the recogniser's time is spent on no word");
  });
});
