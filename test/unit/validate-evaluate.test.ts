import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Field } from "../../src/domain/result.js";
import type { Condition } from "../../src/domain/validation.js";
import { evaluateConditions } from "../../src/validate/evaluate.js";
import { applyCorrections, parseCorrections } from "../../src/validate/review.js";

const field = (name: string, value: string | null, confidence = 0.9): Field => ({
  name,
  value,
  confidence,
  boundingBox: null,
});

/** Whether the single condition breaks on the single field. */
const breaks = (condition: Condition, f: Field): boolean => evaluateConditions([condition], [f]).length > 0;

describe("evaluateConditions", () => {
  it("field-confidence-range: inclusive at both edges, breached just beyond, null bounds unbounded", () => {
    const c: Condition = { type: "field-confidence-range", field: "invoice.total", min: 0.5, max: 0.8 };
    assert.equal(breaks(c, field("invoice.total", "1.00", 0.5)), false);
    assert.equal(breaks(c, field("invoice.total", "1.00", 0.8)), false);
    assert.equal(breaks(c, field("invoice.total", "1.00", 0.4999)), true);
    assert.equal(breaks(c, field("invoice.total", "1.00", 0.8001)), true);
    const minOnly: Condition = { type: "field-confidence-range", field: "invoice.total", min: 0.5, max: null };
    assert.equal(breaks(minOnly, field("invoice.total", "1.00", 1)), false);
    assert.equal(breaks(minOnly, field("invoice.total", null, 0)), true);
    const none: Condition = { type: "field-confidence-range", field: "invoice.total", min: null, max: null };
    assert.equal(breaks(none, field("invoice.total", null, 0)), false);
  });

  it("field-value-range on amounts: inclusive edges, numeric (not text) order, null values breach", () => {
    const c: Condition = { type: "field-value-range", field: "invoice.total", min: 10, max: 100 };
    assert.equal(breaks(c, field("invoice.total", "10.00")), false);
    assert.equal(breaks(c, field("invoice.total", "100.00")), false);
    assert.equal(breaks(c, field("invoice.total", "9.99")), true);
    assert.equal(breaks(c, field("invoice.total", "100.01")), true);
    assert.equal(breaks(c, field("invoice.total", "20.00")), false, "20 > 100 as text, not as a number");
    assert.equal(breaks(c, field("invoice.total", "-5.00")), true);
    assert.equal(breaks(c, field("invoice.total", null)), true);
    const maxOnly: Condition = { type: "field-value-range", field: "invoice.total", min: null, max: 0 };
    assert.equal(breaks(maxOnly, field("invoice.total", "-1000.00")), false);
    assert.equal(breaks(maxOnly, field("invoice.total", "0.01")), true);
    const unbounded: Condition = { type: "field-value-range", field: "invoice.total", min: null, max: null };
    assert.equal(breaks(unbounded, field("invoice.total", "1.00")), false);
    assert.equal(breaks(unbounded, field("invoice.total", null)), true, "a null value is never inside a range");
  });

  it("field-value-range on dates: ISO bounds, inclusive", () => {
    const c: Condition = { type: "field-value-range", field: "invoice.date", min: "2024-01-01", max: "2024-12-31" };
    assert.equal(breaks(c, field("invoice.date", "2024-01-01")), false);
    assert.equal(breaks(c, field("invoice.date", "2024-12-31")), false);
    assert.equal(breaks(c, field("invoice.date", "2023-12-31")), true);
    assert.equal(breaks(c, field("invoice.date", "2025-01-01")), true);
    assert.equal(breaks(c, field("invoice.date", null)), true);
  });

  it("field-present breaches on null only, and a breach lists field, condition, value and confidence", () => {
    const c: Condition = { type: "field-present", field: "invoice.number" };
    assert.equal(breaks(c, field("invoice.number", "A-1")), false);
    assert.deepEqual(evaluateConditions([c], [field("invoice.number", null, 0)]), [
      { field: "invoice.number", condition: c, value: null, confidence: 0 },
    ]);
    assert.equal(evaluateConditions([c], []).length, 1, "a field missing from the results is not present");
  });

  it("lists every broken condition", () => {
    const fields = [field("invoice.total", "500.00", 0.3), field("invoice.number", null, 0)];
    const breaches = evaluateConditions(
      [
        { type: "field-confidence-range", field: "invoice.total", min: 0.5, max: null },
        { type: "field-value-range", field: "invoice.total", min: null, max: 100 },
        { type: "field-present", field: "invoice.number" },
        { type: "field-present", field: "invoice.total" },
      ],
      fields,
    );
    assert.deepEqual(
      breaches.map((b) => [b.field, b.condition.type]),
      [
        ["invoice.total", "field-confidence-range"],
        ["invoice.total", "field-value-range"],
        ["invoice.number", "field-present"],
      ],
    );
  });
});

describe("review corrections", () => {
  it("corrects listed fields (confidence 1, reviewed) and keeps the others as predicted", () => {
    const box = { pageNum: 1, topLeft: { x: 0.1, y: 0.1 }, bottomRight: { x: 0.2, y: 0.2 }, tokenIds: [1] };
    const predicted = {
      timestamp: "2024-01-01T00:00:00.000Z",
      fields: [{ ...field("invoice.total", "500.00", 0.3), boundingBox: box }, field("invoice.number", "A-1")],
    };
    const corrections = parseCorrections({ fields: [{ name: "invoice.total", value: " 50.00 " }] }, "invoice");
    const out = applyCorrections(predicted, corrections);
    assert.deepEqual(out.fields[0], {
      name: "invoice.total",
      value: "50.00",
      confidence: 1,
      boundingBox: null,
      reviewed: true,
    });
    assert.deepEqual(out.fields[1], predicted.fields[1]);
    assert.throws(
      () => parseCorrections({ fields: [{ name: "supplier.name", value: "x" }] }, "invoice"),
      /not a field/,
    );
    assert.throws(
      () => parseCorrections({ fields: [{ name: "invoice.total", value: 5 }] }, "invoice"),
      /string or null/,
    );
  });
});
