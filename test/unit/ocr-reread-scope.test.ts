import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { OcrResult } from "../../src/ingest/ocr/engine.js";
import type { LineRecogniser, PixelBox } from "../../src/ingest/ocr/line-recogniser.js";
import { lineRereading, type ReadingRefinement, rereadLines } from "../../src/ingest/ocr/rereading.js";
import type { GreyImage } from "../../src/ingest/pgm.js";

const image: GreyImage = { width: 1000, height: 200, data: new Uint8Array(1000 * 200).fill(255) };

/** Lines of words (left to right, 100 px apart; lines 10 px apart) at the given texts and confidences. */
function page(lines: readonly (readonly [string, number][])[]): OcrResult {
  const words = lines.flatMap((line, l) =>
    line.map(([text, confidence], i) => ({
      text,
      confidence,
      box: { x0: (i * 100 + 10) / 1000, y0: (l * 10 + 2) / 200, x1: (i * 100 + 90) / 1000, y1: (l * 10 + 8) / 200 },
    })),
  );
  let next = 0;
  return { width: image.width, height: image.height, words, lines: lines.map((line) => line.map(() => next++)) };
}

const oneLine = (words: readonly [string, number][]): OcrResult => page([words]);

/** A recogniser that records the boxes it is asked to read and reads nothing. */
function recording(): { recogniser: LineRecogniser; boxes: PixelBox[] } {
  const boxes: PixelBox[] = [];
  const readLine: LineRecogniser["readLine"] = async (_image, box) => {
    boxes.push(box);
    return [];
  };
  return { boxes, recogniser: { readLine } };
}

describe("rereadLines: which segments go to the recogniser", () => {
  it("skips a segment whose every word keeps the engine's reading anyway (0.93 or more, or accented)", async () => {
    const { recogniser, boxes } = recording();
    const result = oneLine([
      ["TOTAL", 0.94],
      ["Köln", 0.4],
      ["12.50", 0.96],
    ]);
    // The page's mean confidence (0.77) is below the page gate: only the segment gate decides.
    assert.deepEqual(await rereadLines(result, image, recogniser), result);
    assert.equal(boxes.length, 0);
  });

  it("reads a segment holding a word below 0.93 without accents", async () => {
    const { recogniser, boxes } = recording();
    await rereadLines(
      oneLine([
        ["TOTAL", 0.94],
        ["l2.5O", 0.92],
        ["Köln", 0.4],
      ]),
      image,
      recogniser,
    );
    assert.equal(boxes.length, 1);
  });

  it("reads, by default, the doubtful lines of the first 30 % and those holding a digit, not other lines below", async () => {
    const { recogniser, boxes } = recording();
    const header: [string, number][] = [["SH0P", 0.5]];
    const letters: [string, number][] = [["THANK", 0.5]];
    const figures: [string, number][] = [
      ["T0TAL", 0.5],
      ["l2.50", 0.5],
    ];
    // 10 lines: the first 3 are the header; below it, lines 3 and 8 hold digits.
    const lines = [header, header, header, figures, letters, letters, letters, letters, figures, letters];
    await rereadLines(page(lines), image, recogniser);
    const lineOf = (box: PixelBox) => Math.floor(box.top / 10);
    // A figures line is two segments (its words stand farther apart than 1.5 line heights).
    assert.deepEqual(boxes.map(lineOf), [0, 1, 2, 3, 3, 8, 8]);
  });

  it("reads only the segments the scope names", async () => {
    const { recogniser, boxes } = recording();
    await rereadLines(oneLine([["T0TAL", 0.5]]), image, recogniser, undefined, () => false);
    assert.equal(boxes.length, 0);
  });
});

describe("rereadLines: the rows a line is cropped from", () => {
  /** One line: 20 px tall words at y 100-120 and, beside them, a logo read as a word 70 px tall (y 70-140). */
  function lineWithLogo(): OcrResult {
    const word = (text: string, x0: number, y0: number, y1: number) => ({
      text,
      confidence: 0.3,
      box: { x0: x0 / 1000, y0: y0 / 200, x1: (x0 + 80) / 1000, y1: y1 / 200 },
    });
    const words = [word("FACTURE", 100, 100, 120), word("F2026", 500, 100, 120), word("©", 600, 70, 140)];
    return { width: image.width, height: image.height, words, lines: [[0, 1, 2]] };
  }

  it("leaves out a word more than twice as tall as the line's text, whose rows would shrink the text read", async () => {
    const { recogniser, boxes } = recording();
    await rereadLines(lineWithLogo(), image, recogniser);
    // Two segments (FACTURE apart; F2026 with the logo, 20 px from it), both cropped to the text's rows.
    assert.deepEqual(
      boxes.map((b) => [b.left, b.top, b.right, b.bottom]),
      [
        [100, 100, 180, 120],
        [500, 100, 680, 120],
      ],
    );
  });

  it("keeps every word's rows when they are alike", async () => {
    const { recogniser, boxes } = recording();
    const result = lineWithLogo();
    result.words[2] = { ...result.words[2]!, box: { ...result.words[2]!.box, y0: 96 / 200, y1: 126 / 200 } };
    await rereadLines(result, image, recogniser);
    assert.deepEqual(
      boxes.map((b) => [b.top, b.bottom]),
      [
        [96, 126],
        [96, 126],
      ],
    );
  });
});

describe("rereadLines: the page's language", () => {
  /** A recogniser that reads `text` across the box it is given, each character sure. */
  function reading(text: string): LineRecogniser {
    return {
      readLine: async (_image, box) =>
        [...text].map((c, i) => ({
          text: c,
          prob: 0.99,
          x: box.left + ((i + 0.5) * (box.right - box.left)) / text.length,
        })),
    };
  }

  it("puts back the ß the recogniser cannot write on a page read in German, not on an English one", async () => {
    const german = { ...oneLine([["Strake", 0.4]]), language: "deu" };
    const read = await rereadLines(german, image, reading("StraBe"));
    assert.equal(read.words[0]?.text, "Straße");
    const english = await rereadLines(oneLine([["Strake", 0.4]]), image, reading("StraBe"));
    assert.equal(english.words[0]?.text, "StraBe");
  });
});

describe("lineRereading after a step that makes the reading surer", () => {
  it("tells whether the page is worth re-reading from the engine's own reading", async () => {
    const { recogniser, boxes } = recording();
    // The engine's reading: mean confidence 0.6, worth re-reading. The step before replaces the doubtful word of
    // the second line with a sure one (as merged-lines.ts does), which lifts the mean above the page gate.
    const engine = page([[["T0TAL", 0.85]], [["eee", 0.1]]]);
    const surer: ReadingRefinement = async (result) => ({
      ...result,
      words: result.words.map((w) => (w.text === "eee" ? { ...w, text: "Birmingham", confidence: 0.99 } : w)),
    });
    const read = await lineRereading("tesseract-cli", recogniser, undefined, surer)(engine, async () => image);
    assert.equal(boxes.length, 1);
    assert.equal(read.words[1]?.text, "Birmingham");
  });
});
