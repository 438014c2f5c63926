/**
 * Specks on a scanned page: a lone character OCR read and doubted (a logo's edge, dirt) is no line of the page, and on a
 * skewed page it does not open the row the rest of a printed line then joins; words whose boxes OCR let overlap a
 * little stay one line. Pages are built here.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document, Word } from "../../src/document/model.js";
import { buildLayout } from "../../src/extract/layout.js";

const WIDTH = 1000;
const HEIGHT = 1400;
/** The page's skew (dy/dx in pixels): enough for extraction to regroup rows on levelled coordinates. */
const SLOPE = 0.01;

function page(
  printed: readonly (readonly [string, number])[][],
  specks: readonly [string, number, number][],
): Document {
  const words: Word[] = [];
  const place = (text: string, x: number, top: number, confidence: number): number => {
    const width = text.length * 9;
    const y = top + SLOPE * (x + width / 2);
    words.push({
      id: words.length,
      text,
      box: { x0: x / WIDTH, y0: y / HEIGHT, x1: (x + width) / WIDTH, y1: (y + 14) / HEIGHT },
      source: "ocr",
      confidence,
    });
    return words.length - 1;
  };
  const lines = printed.map((cells, r) => {
    const ids: number[] = [];
    for (const [text, x] of cells) {
      let cursor = x;
      for (const token of text.split(" ")) {
        ids.push(place(token, cursor, 60 + r * 30, 0.93));
        cursor += token.length * 9 + 9;
      }
    }
    return ids;
  });
  const speckLines = specks.map(([text, x, top]) => [place(text, x, top, 0.01)]);
  const box = { x0: 0, y0: 0, x1: 1, y1: 1 };
  return {
    type: "png",
    pages: [
      {
        pageNum: 1,
        width: WIDTH,
        height: HEIGHT,
        source: "ocr",
        words,
        lines: [...speckLines, ...lines].map((wordIds) => ({ wordIds, box })),
      },
    ],
  };
}

const PRINTED: [string, number][][] = [
  [
    ["Liberty Supply Co. Inc.", 100],
    ["Tax Invoice", 700],
  ],
  [["8825 Elm Street", 100]],
  [["Suite 430", 100]],
  [["Denver, CO 80202", 100]],
  [["Bill to", 100]],
  [["Summit Supply Co. Inc.", 100]],
];

describe("layout: specks on a scanned page", () => {
  it("keeps a line whole when a speck overlapping its first word stands at its height", () => {
    // "s" read at 0.01 over the middle of "Liberty", a degree sign far right: the dirt of a logo.
    const layout = buildLayout(
      page(PRINTED, [
        ["s", 124, 58],
        ["°", 880, 62],
      ]),
    );
    const rows = layout.pages[0]?.rows.map((row) => row.map((s) => s.text).join(" | ")) ?? [];
    assert.equal(rows[0], "Liberty Supply Co. Inc. | Tax Invoice");
    assert.ok(!layout.segments.some((s) => s.words.every((w) => w.confidence < 0.5)), rows.join("\n"));
  });

  it("keeps a line whole when OCR ran a word's box a little into the next word's", () => {
    const document = page(PRINTED, []);
    const liberty = document.pages[0]?.words.find((w) => w.text === "Liberty");
    // A bold name's box 12 px too wide: it reaches 3 px into "Supply".
    if (liberty) liberty.box.x1 += 12 / WIDTH;
    const rows = buildLayout(document).pages[0]?.rows.map((row) => row.map((s) => s.text).join(" | ")) ?? [];
    assert.equal(rows[0], "Liberty Supply Co. Inc. | Tax Invoice");
  });

  it("keeps a lone character read with confidence, and a rule's piece read alone", () => {
    const document = page(PRINTED, []);
    const words = document.pages[0]?.words ?? [];
    const add = (text: string, confidence: number, x: number): void => {
      words.push({
        id: words.length,
        text,
        box: { x0: x, y0: 0.9, x1: x + 0.01, y1: 0.91 },
        source: "ocr",
        confidence,
      });
      document.pages[0]?.lines.push({ wordIds: [words.length - 1], box: { x0: 0, y0: 0.9, x1: 1, y1: 0.91 } });
    };
    add("1", 0.95, 0.9);
    add("_", 0.3, 0.1);
    const texts = buildLayout(document).segments.map((s) => s.text);
    assert.ok(texts.includes("1") && texts.includes("_"), texts.join(" / "));
  });
});
