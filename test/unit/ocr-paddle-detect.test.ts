import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { boxesFromProbabilities, detectionSize } from "../../src/ingest/ocr/paddle-detect.js";

/** A probability map of `width` x `height` with `value` over each rectangle [left, top, right, bottom). */
function map(width: number, height: number, rects: [number, number, number, number, number][]): Float32Array {
  const probs = new Float32Array(width * height);
  for (const [left, top, right, bottom, value] of rects)
    for (let y = top; y < bottom; y++) for (let x = left; x < right; x++) probs[y * width + x] = value;
  return probs;
}

describe("DB post-processing", () => {
  it("boxes each confident region, grown by area * 1.5 / perimeter, and drops faint or tiny ones", () => {
    const probs = map(100, 60, [
      [10, 10, 50, 20, 0.9], // a line: 40 x 10
      [60, 40, 90, 46, 0.8], // another: 30 x 6
      [10, 40, 30, 50, 0.4], // above the pixel threshold, below the box threshold: noise
      [95, 5, 97, 30, 0.95], // 2 pixels wide: too thin
    ]);
    const boxes = boxesFromProbabilities(probs, 100, 60).sort((a, b) => a.top - b.top);
    assert.equal(boxes.length, 2, JSON.stringify(boxes));
    // 40 x 10: grows by 400 * 1.5 / 100 = 6 on each side.
    assert.deepEqual({ ...boxes[0], score: undefined }, { left: 4, top: 4, right: 56, bottom: 26, score: undefined });
    assert.ok(Math.abs(boxes[0]!.score - 0.9) < 1e-6);
    // 30 x 6 grows by 180 * 1.5 / 72 = 3.75, clipped to the map.
    assert.deepEqual({ ...boxes[1], score: undefined }, { left: 56, top: 36, right: 94, bottom: 50, score: undefined });
  });

  it("joins diagonal neighbours into one region", () => {
    const probs = map(20, 20, [
      [2, 2, 8, 8, 0.9],
      [8, 8, 14, 14, 0.9],
    ]);
    assert.equal(boxesFromProbabilities(probs, 20, 20).length, 1);
  });

  it("reads pages at most maxSide long, sides multiples of 32, never enlarged", () => {
    assert.deepEqual(detectionSize(1654, 2339, 1600), { width: 1120, height: 1600 });
    assert.deepEqual(detectionSize(457, 1170, 1600), { width: 448, height: 1184 });
    assert.deepEqual(detectionSize(10, 10, 1600), { width: 32, height: 32 });
  });
});
