import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document, Page } from "../../src/document/model.js";
import type { BoundingBox, ExtractedField, LineItemsField } from "../../src/domain/result.js";
import { boxesAsUploaded } from "../../src/extract/boxes-as-uploaded.js";

const page = (pageNum: number, rotation?: number): Page => ({
  pageNum,
  // The upright page: 1000 x 600. Turned 90° clockwise to be read, so uploaded 600 x 1000 (turned counter-clockwise).
  width: 1000,
  height: 600,
  source: "ocr",
  words: [],
  lines: [],
  ...(rotation === undefined ? {} : { rotation }),
});

const box = (pageNum: number, x0: number, y0: number, x1: number, y1: number): BoundingBox => ({
  pageNum,
  topLeft: { x: x0, y: y0 },
  bottomRight: { x: x1, y: y1 },
  tokenIds: [1, 2],
});

const near = (got: BoundingBox, expected: BoundingBox): void => {
  const values = (b: BoundingBox) => [b.topLeft.x, b.topLeft.y, b.bottomRight.x, b.bottomRight.y];
  for (const [i, v] of values(got).entries())
    assert.ok(Math.abs(v - values(expected)[i]!) < 1e-9, `${JSON.stringify(got)} vs ${JSON.stringify(expected)}`);
  assert.equal(got.pageNum, expected.pageNum);
  assert.deepEqual(got.tokenIds, expected.tokenIds);
};

describe("boxesAsUploaded: the result's boxes on the pages as uploaded", () => {
  const document: Document = { type: "pdf", pages: [page(1), page(2, 90)] };
  // Upright x 100-200, y 300-360 px about the centre (500, 300): -400..-300, 0..60. Turned back 90° counter-clockwise
  // (x, y) -> (y, -x): 0..60, 300..400, about the uploaded page's centre (300, 500): x 300-360, y 800-900.
  const upright = box(2, 0.1, 0.5, 0.2, 0.6);
  const uploaded = box(2, 0.5, 0.8, 0.6, 0.9);

  it("maps a field's box on a page read turned, and leaves one on a page read as it lies", () => {
    const fields: ExtractedField[] = [
      { name: "invoice.total", value: "1.00", confidence: 0.9, boundingBox: upright },
      { name: "invoice.number", value: "7", confidence: 0.9, boundingBox: box(1, 0.1, 0.5, 0.2, 0.6) },
      { name: "invoice.date", value: null, confidence: 0.5, boundingBox: null },
    ];
    const [total, number, date] = boxesAsUploaded(document, fields);
    near(total!.boundingBox!, uploaded);
    assert.deepEqual(number, fields[1]);
    assert.deepEqual(date, fields[2]);
  });

  it("maps a table's box and each of its rows' cell boxes", () => {
    const table: LineItemsField = {
      name: "invoice.lineItems",
      confidence: 0.8,
      boundingBox: upright,
      value: [
        {
          description: "Widget",
          quantity: "1",
          unit: null,
          unitPrice: "1.00",
          amount: "1.00",
          taxRate: null,
          productCode: null,
          date: null,
          confidence: 0.8,
          boundingBoxes: [{ cell: "amount", ...upright }],
        },
      ],
    };
    const [mapped] = boxesAsUploaded(document, [table]) as [LineItemsField];
    near(mapped.boundingBox!, uploaded);
    const cell = mapped.value[0]!.boundingBoxes[0]!;
    assert.equal(cell.cell, "amount");
    near(cell, uploaded);
  });
});
