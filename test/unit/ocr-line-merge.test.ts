import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { PlacedChar } from "../../src/ingest/ocr/ctc.js";
import {
  type LineWord,
  mergeLine,
  pageWorthRereading,
  segmentsOf,
  shouldReread,
} from "../../src/ingest/ocr/line-merge.js";
import { parseTesseractTsv } from "../../src/ingest/ocr/tsv.js";

/** Characters of `text` evenly spread from x = `from`, `step` pixels apart, each with probability `prob`. */
function spread(text: string, from: number, step: number, prob = 0.5): PlacedChar[] {
  return [...text].map((c, i) => ({ text: c, x: from + i * step, prob }));
}

const word = (left: number, right: number, text: string, confidence: number): LineWord => ({
  left,
  right,
  text,
  confidence,
});

/** A 40 px line: characters farther than 60 px from every word are dropped. */
const H = 40;

describe("mergeLine", () => {
  it("gives each character to the word whose span holds it and takes the re-read text and its lowest probability", () => {
    const words = [word(0, 100, "T0TAI", 0.5), word(150, 250, "l2.5O", 0.4)];
    const chars = [...spread("TOTAL", 10, 20, 0.75), { text: " ", x: 125, prob: 0.5 }, ...spread("12.50", 160, 20)];
    chars[7]!.prob = 0.25;
    assert.deepEqual(mergeLine(words, chars, H), [
      { word: 0, text: "TOTAL", confidence: 0.75 },
      { word: 1, text: "12.50", confidence: 0.25 },
    ]);
  });

  it("gives a character outside every span to the nearest word, dropping it at 1.5 line heights or more", () => {
    const words = [word(100, 200, "ab", 0.5), word(300, 400, "cd", 0.5)];
    const chars: PlacedChar[] = [
      { text: "x", x: 40, prob: 0.5 }, // 60 px left of the first word: dropped
      { text: "a", x: 41, prob: 0.5 }, // 59 px: kept
      { text: "b", x: 240, prob: 0.5 }, // 40 px from the first word, 60 from the second
      { text: "c", x: 260, prob: 0.5 }, // 60 from the first, 40 from the second
      { text: "d", x: 459, prob: 0.5 }, // 59 px right of the last word: kept
      { text: "y", x: 460, prob: 0.5 }, // 60 px: dropped
    ];
    assert.deepEqual(
      mergeLine(words, chars, H).map((w) => w.text),
      ["ab", "cd"],
    );
  });

  it("keeps a word tesseract read surer than the re-reading by more than the margin, and one that got no characters", () => {
    const words = [word(0, 100, "Jalan", 0.71), word(150, 250, "Tarnpoi", 0.7), word(300, 400, "7/4", 0.2)];
    // Every re-read character at 0.5: "Jalan" at 0.71 beats it by more than 0.2, "Tarnpoi" at 0.7 does not.
    const chars = [...spread("Jaian", 10, 20), ...spread("Tampoi", 160, 15)];
    assert.deepEqual(mergeLine(words, chars, H), [
      { word: 0, text: "Jalan", confidence: 0.71 },
      { word: 1, text: "Tampoi", confidence: 0.5 },
      { word: 2, text: "7/4", confidence: 0.2 },
    ]);
  });

  it("cuts a line into segments at gaps wider than SEGMENT_GAP line heights", () => {
    const words = [word(0, 100, "TOTAL", 0.5), word(120, 200, "RM", 0.5), word(500, 600, "12.50", 0.5)];
    assert.deepEqual(segmentsOf(words, 100), [[0, 1], [2]]);
    assert.deepEqual(segmentsOf(words, 200), [[0, 1, 2]]);
    assert.deepEqual(segmentsOf([], 100), []);
  });

  it("splits a re-read word where a space falls between its characters, at the midpoint of the two", () => {
    const words = [word(0, 200, "SHAHALAM", 0.6)];
    const chars: PlacedChar[] = [
      { text: " ", x: 2, prob: 0.5 },
      ...spread("SHAH", 10, 20, 0.875),
      { text: " ", x: 85, prob: 0.25 },
      ...spread("ALAM", 100, 20, 0.75),
      { text: " ", x: 190, prob: 0.5 },
    ];
    chars[2]!.prob = 0.625;
    assert.deepEqual(mergeLine(words, chars, H), [
      { word: 0, text: "SHAH", confidence: 0.625, split: { left: 0, right: 85 } },
      { word: 0, text: "ALAM", confidence: 0.75, split: { left: 85, right: 200 } },
    ]);
  });

  it("splits at every inner space and keeps the cuts inside the word's span", () => {
    // The last two characters sit right of the word (nearest-word rule): the cut before them stops at its edge.
    const words = [word(0, 100, "a1b2c3", 0.5)];
    const chars: PlacedChar[] = [
      ...spread("ab", 10, 20),
      { text: " ", x: 40, prob: 0.5 },
      ...spread("cd", 60, 10),
      { text: " ", x: 90, prob: 0.5 },
      ...spread("ef", 150, 5),
    ];
    assert.deepEqual(
      mergeLine(words, chars, H).map((w) => [w.text, w.split]),
      [
        ["ab", { left: 0, right: 45 }],
        ["cd", { left: 45, right: 100 }],
        ["ef", { left: 100, right: 100 }],
      ],
    );
  });

  it("does not split a word tesseract was sure of", () => {
    const words = [word(0, 200, "SHAHALAM", 0.93)];
    const chars = [...spread("SHAH", 10, 20), { text: " ", x: 85, prob: 0.5 }, ...spread("ALAM", 100, 20)];
    assert.deepEqual(mergeLine(words, chars, H), [{ word: 0, text: "SHAHALAM", confidence: 0.93 }]);
  });

  it("repairs digit/letter confusions in the re-read text as in tesseract's", () => {
    const words = [word(0, 100, "Sesslon", 0.5), word(150, 250, "RMl2.5O", 0.5)];
    const chars = [...spread("Se5sion", 10, 10), ...spread("RMI2.5O", 160, 10)];
    assert.deepEqual(
      mergeLine(words, chars, H).map((w) => w.text),
      ["Session", "RM12.50"],
    );
  });
});

describe("shouldReread", () => {
  it("re-reads a line holding a word below 0.93 confidence without accents (mergeLine keeps every other word)", () => {
    assert.equal(shouldReread([{ confidence: 0.93 }, { confidence: 1 }]), false);
    assert.equal(shouldReread([{ confidence: 1 }, { confidence: 0.9299 }]), true);
    assert.equal(shouldReread([{ confidence: 0.4, text: "Köln" }]), false);
    assert.equal(shouldReread([]), false);
  });

  it("re-reads a page only when its mean confidence is below 0.88", () => {
    assert.equal(pageWorthRereading([{ confidence: 0.8 }, { confidence: 0.96 }]), false);
    assert.equal(pageWorthRereading([{ confidence: 0.8 }, { confidence: 0.95 }]), true);
    assert.equal(pageWorthRereading([]), false);
  });
});

describe("mergeLine: words the engine reads better", () => {
  it("keeps a word read at 0.93 or more, and one with accented Latin letters", () => {
    const words = [word(0, 100, "brutto", 0.93), word(150, 250, "réseau", 0.5), word(300, 400, "Tarnpoi", 0.92)];
    const chars = [
      ...spread("bruto", 10, 20, 0.9),
      ...spread("reseau", 160, 15, 0.9),
      ...spread("Tampoi", 310, 15, 0.9),
    ];
    assert.deepEqual(
      mergeLine(words, chars, H).map((m) => m.text),
      ["brutto", "réseau", "Tampoi"],
    );
  });
});

describe("parseTesseractTsv lines", () => {
  it("groups words by tesseract's block, paragraph and line, leaving dropped words out", () => {
    const row = (...cols: (string | number)[]): string => cols.join("\t");
    const tsv = [
      row(1, 1, 0, 0, 0, 0, 0, 0, 400, 200, -1, ""),
      row(5, 1, 1, 1, 1, 1, 20, 40, 100, 20, 95, "Total"),
      row(5, 1, 1, 1, 1, 2, 130, 40, 90, 20, 12, " "),
      row(5, 1, 1, 1, 1, 3, 240, 40, 60, 20, 88, "12.50"),
      row(5, 1, 1, 1, 2, 1, 20, 70, 100, 20, 95, "Cash"),
      row(5, 1, 2, 1, 1, 1, 20, 100, 100, 20, 95, "Thank"),
      row(5, 1, 2, 1, 1, 2, 130, 100, 100, 20, 95, "you"),
    ].join("\n");
    const result = parseTesseractTsv(tsv);
    assert.deepEqual(
      result.words.map((w) => w.text),
      ["Total", "12.50", "Cash", "Thank", "you"],
    );
    assert.deepEqual(result.lines, [[0, 1], [2], [3, 4]]);
  });
});
