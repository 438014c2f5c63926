import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ctcAlphabet, ctcGreedyDecode, placeChars, toAscii } from "../../src/ingest/ocr/ctc.js";

/** Blank, three characters, two wide forms and the space: small enough to write probabilities by hand. */
const ALPHABET = ["", "a", "b", "1", "Ｒ", "，", " "];

/** One softmax row per step, the named class winning with probability `p` and the rest sharing what is left. */
function steps(...winners: [string, number][]): Float32Array {
  const rows = new Float32Array(winners.length * ALPHABET.length);
  winners.forEach(([text, p], t) => {
    const best = ALPHABET.indexOf(text);
    assert.ok(best >= 0, `"${text}" is in the alphabet`);
    for (let c = 0; c < ALPHABET.length; c++)
      rows[t * ALPHABET.length + c] = c === best ? p : (1 - p) / (ALPHABET.length - 1);
  });
  return rows;
}

const decode = (...winners: [string, number][]) => ctcGreedyDecode(steps(...winners), winners.length, ALPHABET);

describe("ctcGreedyDecode", () => {
  it("skips blanks and merges a class repeated on consecutive steps, keeping the first step and its probability", () => {
    const chars = decode(["", 0.9], ["a", 0.75], ["a", 0.5], ["", 0.9], ["b", 0.625], ["", 0.9]);
    assert.deepEqual(
      chars.map((c) => [c.text, c.step, c.prob]),
      [
        ["a", 1, 0.75],
        ["b", 4, 0.625],
      ],
    );
  });

  it("reads a character twice when a blank separates its two runs", () => {
    assert.deepEqual(
      decode(["1", 0.5], ["", 0.5], ["1", 0.5], ["1", 0.5]).map((c) => [c.text, c.step]),
      [
        ["1", 0],
        ["1", 2],
      ],
    );
  });

  it("reads the space class as a space character", () => {
    assert.deepEqual(
      decode(["a", 0.5], ["", 0.5], [" ", 0.5], ["", 0.5], ["b", 0.5]).map((c) => c.text),
      ["a", " ", "b"],
    );
  });

  it("maps full-width forms and CJK punctuation to ASCII", () => {
    assert.deepEqual(
      decode(["Ｒ", 0.5], ["，", 0.5]).map((c) => c.text),
      ["R", ","],
    );
    assert.equal(toAscii("ＲＭ１２．５０（ｘ）：。"), "RM12.50(x):.");
    assert.equal(toAscii("（）"), "()");
  });

  it("places each character at its step's centre in image pixels", () => {
    // 96 input pixels in 8 steps of 12; the crop started at x = 100 and was scaled by 0.5 (so a step is 24 px).
    const chars = decode(["a", 0.5], ["", 0.5], ["", 0.5], ["b", 0.5], ["", 0.5], ["", 0.5], ["", 0.5], ["1", 0.5]);
    const placed = placeChars(chars, { cropLeft: 100, scale: 0.5, inputWidth: 96, steps: 8 });
    assert.deepEqual(
      placed.map((c) => [c.text, c.x]),
      [
        ["a", 112],
        ["b", 184],
        ["1", 280],
      ],
    );
  });
});

describe("ctcAlphabet", () => {
  it("puts the blank first and the space last around the dictionary's lines", () => {
    assert.deepEqual(ctcAlphabet("a\nb\n1\n"), ["", "a", "b", "1", " "]);
    assert.deepEqual(ctcAlphabet("a\nb"), ["", "a", "b", " "]);
  });
});
