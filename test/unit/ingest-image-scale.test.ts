import assert from "node:assert/strict";
import { describe, it } from "node:test";
import sharp from "sharp";
import { imageForOcr, inspectImage, OCR_TARGET_WIDTH, ocrScale } from "../../src/ingest/image.js";

/** Width and height of a binary PGM from its header. */
function pgmSize(pgm: Buffer): { width: number; height: number } {
  const [, width, height] = /^P5\s+(\d+)\s+(\d+)/.exec(pgm.subarray(0, 32).toString("latin1")) ?? [];
  return { width: Number(width), height: Number(height) };
}

describe("OCR image scaling", () => {
  it("enlarges narrow images towards the target width, never beyond 2x, and never shrinks", () => {
    assert.equal(ocrScale(OCR_TARGET_WIDTH / 2), 2);
    assert.equal(ocrScale(400), 2);
    assert.equal(ocrScale(1000), 1.6);
    assert.equal(ocrScale(OCR_TARGET_WIDTH), 1);
    assert.equal(ocrScale(4000), 1);
    for (let width = 50; width < 5000; width += 37) {
      const scale = ocrScale(width);
      assert.ok(scale >= 1 && scale <= 2);
      assert.ok(width * scale <= Math.max(OCR_TARGET_WIDTH, width) + 1e-9);
    }
  });

  it("produces a grey PGM of the scaled size from a real JPEG", async () => {
    const jpeg = await sharp({ create: { width: 800, height: 300, channels: 3, background: "#f0f0f0" } })
      .jpeg()
      .toBuffer();
    const bytes = new Uint8Array(jpeg);
    const size = await inspectImage(bytes, "jpeg");
    const pgm = await imageForOcr(bytes, size);
    assert.deepEqual(pgmSize(pgm), { width: 1600, height: 600 });
  });
});
