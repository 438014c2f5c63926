import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { OPS } from "pdfjs-dist/legacy/build/pdf.mjs";
import { largestImageArea } from "../../src/ingest/pdf-images.js";

describe("largestImageArea", () => {
  it("measures an image by the transformation it is painted under, through save/restore and forms", () => {
    const fns = [
      OPS.save,
      OPS.transform,
      OPS.paintImageXObject, // 600 x 800 page-sized scan
      OPS.restore,
      OPS.paintFormXObjectBegin,
      OPS.transform,
      OPS.paintImageXObject, // 2 x (10 x 10) inside a form scaled by 2: 20 x 20
      OPS.paintFormXObjectEnd,
      OPS.paintImageXObject, // back at identity: 1 x 1
    ];
    const args: unknown[] = [
      null,
      [600, 0, 0, 800, 0, 0],
      ["img1", 100, 100],
      null,
      [
        [2, 0, 0, 2, 0, 0],
        [0, 0, 10, 10],
      ],
      [10, 0, 0, 10, 0, 0],
      ["img2", 10, 10],
      null,
      ["img3", 1, 1],
    ];
    assert.equal(largestImageArea(fns, args), 480_000);
    assert.equal(largestImageArea(fns.slice(3), args.slice(3)), 400);
  });

  it("counts rotated and flipped images by absolute area, and pages without images as 0", () => {
    assert.equal(largestImageArea([OPS.transform, OPS.paintImageMaskXObject], [[0, -300, 400, 0, 0, 0], []]), 120_000);
    assert.equal(largestImageArea([OPS.save, OPS.transform, OPS.restore], [null, [2, 0, 0, 2, 0, 0], null]), 0);
  });
});
