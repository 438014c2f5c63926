import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Box } from "../../src/document/model.js";
import { groupLines } from "../../src/ingest/lines.js";

const box = (x0: number, y0: number, x1: number, y1: number): Box => ({ x0, y0, x1, y1 });

describe("groupLines", () => {
  it("keeps one line per visual row despite jitter, mixed heights and a wide gap", () => {
    const boxes = [
      box(0.7, 0.102, 0.8, 0.118), // amount far right, slightly lower (OCR jitter)
      box(0.1, 0.1, 0.2, 0.115), // label
      box(0.22, 0.095, 0.3, 0.12), // bigger font on the same row
      box(0.1, 0.13, 0.2, 0.145), // next row
    ];
    assert.deepEqual(groupLines(boxes), [[1, 2, 0], [3]]);
  });

  it("does not merge tightly leaded rows", () => {
    const boxes = [box(0.1, 0.1, 0.3, 0.112), box(0.1, 0.111, 0.3, 0.123), box(0.35, 0.1005, 0.5, 0.1125)];
    assert.deepEqual(groupLines(boxes), [[0, 2], [1]]);
  });

  it("gives a tall rotated margin word its own line instead of swallowing rows", () => {
    const boxes = [box(0.02, 0.1, 0.04, 0.5), box(0.1, 0.2, 0.3, 0.215), box(0.1, 0.23, 0.3, 0.245)];
    const lines = groupLines(boxes);
    assert.equal(lines.length, 3);
    assert.ok(lines.every((l) => l.length === 1));
  });

  it("puts overlapping words of two stacked rows on separate lines", () => {
    // Superscript-like offset: vertically overlapping more than half, but the same horizontal place.
    const boxes = [box(0.1, 0.1, 0.2, 0.12), box(0.1, 0.108, 0.2, 0.128)];
    assert.equal(groupLines(boxes).length, 2);
  });

  it("returns every index exactly once", () => {
    const boxes = Array.from({ length: 50 }, (_, i) =>
      box((i % 5) * 0.2, Math.floor(i / 5) * 0.05, (i % 5) * 0.2 + 0.15, Math.floor(i / 5) * 0.05 + 0.02),
    );
    const lines = groupLines(boxes);
    assert.equal(lines.length, 10);
    assert.deepEqual(
      lines.flat().sort((a, b) => a - b),
      boxes.map((_, i) => i),
    );
  });
});
