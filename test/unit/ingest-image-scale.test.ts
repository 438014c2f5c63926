import assert from "node:assert/strict";
import { describe, it } from "node:test";
import sharp from "sharp";
import {
  contentRegion,
  imageForOcr,
  inspectImage,
  OCR_TARGET_WIDTH,
  ocrScale,
  placeWords,
} from "../../src/ingest/image.js";

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
    const { image, region } = await imageForOcr(bytes, size);
    assert.deepEqual(pgmSize(image), { width: 1600, height: 600 });
    assert.equal(region, null);
  });
});

/** A grey page (paper 235) with "text lines" (rows of dark dashes) in a block, and optional specks. */
function page(
  width: number,
  height: number,
  block: { left: number; top: number; right: number; bottom: number },
  specks: Array<[number, number]> = [],
): Uint8Array {
  const grey = new Uint8Array(width * height).fill(235);
  for (let y = block.top; y < block.bottom; y++) {
    if (y % 8 >= 4) continue; // 4 px of text, 4 px of leading
    for (let x = block.left; x < block.right; x++) if (x % 5 !== 0) grey[y * width + x] = 60;
  }
  for (const [x, y] of specks) grey[y * width + x] = 20;
  return grey;
}

describe("content region of a scanned page", () => {
  it("finds a small receipt on a big blank page, leaving scattered specks out", () => {
    const specks: Array<[number, number]> = [
      [10, 10],
      [390, 20],
      [30, 540],
      [370, 500],
      [200, 550],
    ];
    const region = contentRegion(page(400, 560, { left: 140, top: 120, right: 260, bottom: 400 }, specks), 400, 560);
    assert.ok(region, "cropped");
    assert.ok(region.left <= 140 && region.left >= 140 - 14, `left ${region.left}`);
    assert.ok(region.top <= 120 && region.top >= 120 - 18, `top ${region.top}`);
    assert.ok(region.left + region.width >= 260 && region.left + region.width <= 260 + 14);
    assert.ok(region.top + region.height >= 400 && region.top + region.height <= 400 + 18);
  });

  it("leaves full pages and documents touching the page's side uncropped", () => {
    assert.equal(contentRegion(page(400, 560, { left: 30, top: 30, right: 370, bottom: 530 }), 400, 560), null);
    assert.equal(contentRegion(page(400, 560, { left: 0, top: 100, right: 120, bottom: 500 }), 400, 560), null);
    assert.equal(contentRegion(new Uint8Array(400 * 560).fill(235), 400, 560), null);
  });

  it("crops a real JPEG of a receipt on a big blank page and reads only that part", async () => {
    const stripes = Buffer.alloc(400 * 800, 235);
    for (let y = 0; y < 800; y++) if (y % 40 < 20) stripes.fill(40, y * 400, y * 400 + 400);
    const block = await sharp(stripes, { raw: { width: 400, height: 800, channels: 1 } })
      .png()
      .toBuffer();
    const jpeg = await sharp({ create: { width: 2000, height: 2800, channels: 3, background: "#ebebeb" } })
      .composite([{ input: block, left: 800, top: 1000 }])
      .jpeg()
      .toBuffer();
    const bytes = new Uint8Array(jpeg);
    const size = await inspectImage(bytes, "jpeg");
    const { image, region } = await imageForOcr(bytes, size);
    assert.ok(region, "cropped");
    assert.ok(region.left <= 800 && region.left + region.width >= 1200, JSON.stringify(region));
    assert.ok(region.top <= 1000 && region.top + region.height >= 1800, JSON.stringify(region));
    assert.ok(region.width < 800 && region.height < 1300, JSON.stringify(region));
    const scale = ocrScale(region.width);
    assert.deepEqual(pgmSize(image), {
      width: Math.round(region.width * scale),
      height: Math.round(region.height * scale),
    });
  });

  it("finds the region in the upright image of a photo with an EXIF rotation", async () => {
    const stripes = Buffer.alloc(800 * 400, 235);
    for (let x = 0; x < 800; x++) if (x % 40 < 20) for (let y = 0; y < 400; y++) stripes[y * 800 + x] = 40;
    const block = await sharp(stripes, { raw: { width: 800, height: 400, channels: 1 } })
      .png()
      .toBuffer();
    // Stored 2800 x 2000 with orientation 6: displayed 2000 x 2800, the block at x 1400..1800, y 1000..1800.
    const jpeg = await sharp({ create: { width: 2800, height: 2000, channels: 3, background: "#ebebeb" } })
      .composite([{ input: block, left: 1000, top: 200 }])
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const bytes = new Uint8Array(jpeg);
    const size = await inspectImage(bytes, "jpeg");
    assert.deepEqual(size, { width: 2000, height: 2800 });
    const { region } = await imageForOcr(bytes, size);
    assert.ok(region, "cropped");
    assert.ok(region.left <= 1400 && region.left + region.width >= 1800, JSON.stringify(region));
    assert.ok(region.top <= 1000 && region.top + region.height >= 1800, JSON.stringify(region));
  });

  it("maps boxes read on the region back to ratios of the whole image", () => {
    const words = [{ text: "TOTAL", box: { x0: 0, y0: 0.5, x1: 0.5, y1: 1 } }];
    const placed = placeWords(words, { left: 100, top: 200, width: 200, height: 100 }, { width: 400, height: 400 });
    assert.deepEqual(placed[0]?.box, { x0: 0.25, y0: 0.625, x1: 0.5, y1: 0.75 });
    assert.deepEqual(placeWords(words, null, { width: 400, height: 400 }), words);
  });
});
