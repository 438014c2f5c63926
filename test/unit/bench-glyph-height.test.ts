import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { glyphHeight, otsuThreshold } from "../../bench/glyph-height.js";

/** A grey image of `count` boxes `size` px tall (glyph stand-ins) in rows: `ink` on paper of grey 240. */
function glyphImage(width: number, height: number, size: number, count: number, ink = 20): Uint8Array {
  const grey = new Uint8Array(width * height).fill(240);
  const pitchX = Math.round(size * 1.2);
  const pitchY = size * 2;
  let drawn = 0;
  for (let top = size; top + size < height && drawn < count; top += pitchY) {
    for (let left = size; left + pitchX < width && drawn < count; left += pitchX, drawn++) {
      for (let y = top; y < top + size; y++)
        grey.fill(ink, y * width + left, y * width + left + Math.round(size * 0.7));
    }
  }
  return grey;
}

describe("glyph height", () => {
  it("finds the median height of glyph-like blobs and ignores specks and rules", () => {
    const width = 600;
    const height = 400;
    const grey = glyphImage(width, height, 12, 80);
    // A rule across the page and specks: neither is a glyph.
    for (let x = 0; x < width; x++) grey[390 * width + x] = 0;
    for (let i = 0; i < 30; i++) grey[(5 + i) * width + 590] = i % 2 === 0 ? 0 : 240;
    assert.equal(glyphHeight(grey, width, height), 12);
  });

  it("says nothing for a page with too few glyphs", () => {
    assert.equal(glyphHeight(glyphImage(200, 100, 10, 5), 200, 100), null);
    assert.equal(glyphHeight(new Uint8Array(100 * 100).fill(255), 100, 100), null);
  });

  it("splits ink from paper between their levels", () => {
    const grey = new Uint8Array(1000);
    grey.fill(30, 0, 200);
    grey.fill(220, 200);
    const t = otsuThreshold(grey);
    assert.ok(t >= 30 && t < 220);
  });
});
