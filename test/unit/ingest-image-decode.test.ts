import assert from "node:assert/strict";
import { describe, it } from "node:test";
import sharp from "sharp";
import { findContentRegion, imageForOcr, inspectImage } from "../../src/ingest/image.js";

/** A `width` x `height` page (paper 235) with a block of dark stripes, as PNG or JPEG bytes. */
async function receiptOnPage(width: number, height: number, format: "png" | "jpeg"): Promise<Uint8Array> {
  const stripes = Buffer.alloc(200 * 400, 235);
  for (let y = 0; y < 400; y++) if (y % 20 < 10) stripes.fill(40, y * 200, y * 200 + 200);
  const block = await sharp(stripes, { raw: { width: 200, height: 400, channels: 1 } })
    .resize({ width: Math.round(width / 5), kernel: "nearest" })
    .png()
    .toBuffer();
  const page = sharp({ create: { width, height, channels: 3, background: "#ebebeb" } }).composite([
    { input: block, left: Math.round(width * 0.4), top: Math.round(height * 0.3) },
  ]);
  return new Uint8Array(await (format === "png" ? page.png() : page.jpeg()).toBuffer());
}

describe("image decoded once for its content region and OCR", () => {
  it("finds the content region on grey pixels already decoded as on the image's bytes", async () => {
    const bytes = await receiptOnPage(1000, 1400, "png");
    const size = await inspectImage(bytes, "png");
    const { data, info } = await sharp(bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
    const fromPixels = await findContentRegion({ width: info.width, height: info.height, data }, size);
    assert.ok(fromPixels, "cropped");
    assert.deepEqual(fromPixels, await findContentRegion(bytes, size));
  });

  it("gives the same OCR pixels and region whether the image is decoded once (PNG) or twice (a wide JPEG)", async () => {
    for (const [width, format] of [
      [1000, "png"],
      [1000, "jpeg"],
      [2000, "jpeg"],
    ] as const) {
      const bytes = await receiptOnPage(width, Math.round(width * 1.4), format);
      const size = await inspectImage(bytes, format);
      const { image, region } = await imageForOcr(bytes, size);
      assert.ok(region, `${format} ${width}: cropped`);
      // What OCR read before the image was decoded once: the bytes' grey pipeline, cut and enlarged.
      const scale = Math.min(2, Math.max(1, 1600 / region.width));
      let expected = sharp(bytes).rotate().flatten({ background: "#ffffff" }).greyscale().extract(region);
      if (scale > 1.01) expected = expected.resize({ width: Math.round(region.width * scale), kernel: "lanczos3" });
      const pixels = await expected.raw().toBuffer();
      assert.ok(image.subarray(image.length - pixels.length).equals(pixels), `${format} ${width}: same pixels`);
    }
  });
});
