import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type TextRun, wordsFromRuns } from "../../src/ingest/pdf-text.js";

/** A 1000 x 1000 point page with y up, as in PDF user space. */
const toRatio = (x: number, y: number): [number, number] => [x / 1000, 1 - y / 1000];
const styles = { mono: { fontFamily: "monospace", ascent: 0.8, descent: -0.2 } };

function run(str: string, x: number, y: number, size: number, width: number, rotate = false): TextRun {
  return { str, transform: rotate ? [0, size, -size, 0, x, y] : [size, 0, 0, size, x, y], width, fontName: "mono" };
}

describe("wordsFromRuns", () => {
  it("splits a run at spaces by glyph widths; boxes span ascent to descent", () => {
    // Monospace, 10 characters of 6 points each.
    const { words } = wordsFromRuns([run("Total 9.50", 100, 500, 10, 60)], styles, toRatio);
    assert.deepEqual(
      words.map((w) => w.text),
      ["Total", "9.50"],
    );
    const [total, amount] = words;
    assert.ok(Math.abs(total!.box.x0 - 0.1) < 1e-6 && Math.abs(total!.box.x1 - 0.13) < 1e-6);
    assert.ok(Math.abs(amount!.box.x0 - 0.136) < 1e-6 && Math.abs(amount!.box.x1 - 0.16) < 1e-6);
    assert.ok(Math.abs(total!.box.y0 - (1 - 0.508)) < 1e-6 && Math.abs(total!.box.y1 - (1 - 0.498)) < 1e-6);
  });

  it("glues a word continued in the next touching run, but not across a gap", () => {
    const { words } = wordsFromRuns(
      [run("1", 100, 500, 10, 6), run("/1", 106, 500, 10, 12), run("EUR", 140, 500, 10, 18)],
      styles,
      toRatio,
    );
    assert.deepEqual(
      words.map((w) => w.text),
      ["1/1", "EUR"],
    );
    assert.ok(Math.abs(words[0]!.box.x1 - 0.118) < 1e-6);
  });

  it("follows the run's direction for rotated text", () => {
    const [word] = wordsFromRuns([run("Up", 500, 100, 10, 12, true)], styles, toRatio).words;
    // Runs upwards from (500, 100): 12 points tall, from x = 500 - ascent to 500 - descent.
    assert.ok(Math.abs(word!.box.y1 - 0.9) < 1e-6 && Math.abs(word!.box.y0 - 0.888) < 1e-6, JSON.stringify(word));
    assert.ok(Math.abs(word!.box.x0 - 0.492) < 1e-6 && Math.abs(word!.box.x1 - 0.502) < 1e-6, JSON.stringify(word));
  });

  it("skips empty runs; a zero-width run gets widths estimated from its characters, and says so", () => {
    const { words, issues } = wordsFromRuns([run("   ", 0, 0, 10, 18), run("xy z", 100, 500, 10, 0)], styles, toRatio);
    assert.deepEqual(
      words.map((w) => w.text),
      ["xy", "z"],
    );
    // Monospace at 10 points: 0.55 em per character.
    assert.ok(Math.abs(words[1]!.box.x1 - (100 + 4 * 5.5) / 1000) < 1e-6, JSON.stringify(words));
    assert.deepEqual([...issues], ["zero_width_runs"]);
  });

  it("leaves control characters out of words and measures around them (NUL cannot be measured)", () => {
    const sans = { sans: { fontFamily: "sans-serif", ascent: 0.8, descent: -0.2 } };
    const { words, issues } = wordsFromRuns(
      [{ str: "INV\u0000-7781 \u0000 Total\u0007", transform: [10, 0, 0, 10, 100, 500], width: 100, fontName: "sans" }],
      sans,
      toRatio,
    );
    assert.deepEqual(
      words.map((w) => w.text),
      ["INV-7781", "Total"],
    );
    assert.deepEqual([...issues].sort(), ["guessed_widths", "unmapped_characters"]);
    assert.ok(words.every((w) => w.box.x1 > w.box.x0 && w.box.x1 <= 0.2 + 1e-9));
  });

  it("leaves out a run whose position is not a number", () => {
    const { words, issues } = wordsFromRuns([run("x", Number.NaN, 0, 10, 6)], styles, toRatio);
    assert.deepEqual(words, []);
    assert.deepEqual([...issues], ["bad_geometry"]);
  });
});
