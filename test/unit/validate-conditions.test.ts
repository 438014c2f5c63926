import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DocsiftError } from "../../src/domain/errors.js";
import { planFromStored, storedOptions } from "../../src/domain/stored-workflow-plan.js";
import { DEFAULT_PRIORITY, parseValidateOptions } from "../../src/validate/conditions.js";

const badRequest = (pattern: RegExp) => (err: unknown) =>
  err instanceof DocsiftError && err.code === "bad_request" && pattern.test(err.message);

const plan = (prediction: Record<string, unknown>, requested = ["invoice", "parties"]) =>
  parseValidateOptions({ prediction }, requested);

describe("parseValidateOptions", () => {
  it("reads conditions, defaults null bounds, submit true and the middle priority", () => {
    const p = plan({
      fieldset: "invoice",
      conditions: [
        { type: "field-confidence-range", field: "invoice.total", min: 0.8 },
        { type: "field-value-range", field: "invoice.total", min: null, max: 500 },
        { type: "field-value-range", field: "invoice.date", min: "2024-01-01", max: "2024-12-31" },
        { type: "field-present", field: "invoice.number" },
      ],
    });
    assert.equal(p.fieldSet, "invoice");
    assert.deepEqual(p.conditions[0], { type: "field-confidence-range", field: "invoice.total", min: 0.8, max: null });
    assert.deepEqual(p.conditions[1], { type: "field-value-range", field: "invoice.total", min: null, max: 500 });
    assert.deepEqual(p.conditions[2], {
      type: "field-value-range",
      field: "invoice.date",
      min: "2024-01-01",
      max: "2024-12-31",
    });
    assert.deepEqual(p.createTask, { submit: true, priority: DEFAULT_PRIORITY });
    assert.deepEqual(planFromStored("validate", storedOptions({ workflow: "validate", options: p })).options, p);
  });

  it("takes createTask and defaults the field set when only one is requested", () => {
    const p = parseValidateOptions(
      {
        prediction: {
          conditions: [{ type: "field-present", field: "receipt.total" }],
          createTask: { submit: false, priority: 90 },
        },
      },
      ["receipt"],
    );
    assert.equal(p.fieldSet, "receipt");
    assert.deepEqual(p.createTask, { submit: false, priority: 90 });
  });

  it("answers 400 naming the wrong condition", () => {
    const present = { type: "field-present", field: "invoice.number" };
    assert.throws(() => parseValidateOptions(null, ["invoice"]), badRequest(/conditions/));
    assert.throws(() => plan({ fieldset: "receipt", conditions: [present] }), badRequest(/"receipt" is not among/));
    assert.throws(() => plan({ conditions: [present] }), badRequest(/fieldset is required/));
    assert.throws(() => plan({ fieldset: "invoice", conditions: [] }), badRequest(/non-empty/));
    assert.throws(
      () => plan({ fieldset: "invoice", conditions: [present, { type: "field-magic", field: "invoice.total" }] }),
      badRequest(/conditions\[1\]: unknown condition type "field-magic"/),
    );
    assert.throws(
      () => plan({ fieldset: "invoice", conditions: [{ type: "field-present", field: "supplier.name" }] }),
      badRequest(/conditions\[0\].*"supplier.name" is not in field set "invoice"/),
    );
    assert.throws(
      () =>
        plan({
          fieldset: "invoice",
          conditions: [{ type: "field-value-range", field: "invoice.total", min: 5, max: 1 }],
        }),
      badRequest(/conditions\[0\] \(field-value-range\) on "invoice.total": min 5 is greater than max 1/),
    );
    assert.throws(
      () =>
        plan({
          fieldset: "invoice",
          conditions: [{ type: "field-value-range", field: "invoice.date", min: "2024-12-01", max: "2024-01-01" }],
        }),
      badRequest(/min "2024-12-01" is greater than max "2024-01-01"/),
    );
    assert.throws(
      () =>
        plan({
          fieldset: "invoice",
          conditions: [{ type: "field-confidence-range", field: "invoice.total", min: 0.9, max: 0.2 }],
        }),
      badRequest(/field-confidence-range.*min 0.9 is greater than max 0.2/),
    );
    assert.throws(
      () =>
        plan({ fieldset: "invoice", conditions: [{ type: "field-confidence-range", field: "invoice.total", max: 2 }] }),
      badRequest(/outside 0..1/),
    );
    assert.throws(
      () => plan({ fieldset: "invoice", conditions: [{ type: "field-value-range", field: "invoice.number", max: 2 }] }),
      badRequest(/amount or date field/),
    );
    assert.throws(
      () => plan({ fieldset: "invoice", conditions: [{ type: "field-value-range", field: "invoice.date", max: 2 }] }),
      badRequest(/ISO date/),
    );
    assert.throws(
      () =>
        plan({
          fieldset: "invoice",
          conditions: [{ type: "field-value-range", field: "invoice.date", max: "2024-02-30" }],
        }),
      badRequest(/ISO date/),
    );
    assert.throws(
      () =>
        plan({ fieldset: "invoice", conditions: [{ type: "field-value-range", field: "invoice.total", max: "9" }] }),
      badRequest(/max must be a number or null/),
    );
    assert.throws(
      () => plan({ fieldset: "invoice", conditions: [{ type: "field-present", field: "invoice.total", min: 1 }] }),
      badRequest(/unknown key\(s\) min/),
    );
    assert.throws(
      () => plan({ fieldset: "invoice", conditions: [present], createTask: { priority: 101 } }),
      badRequest(/priority must be an integer from 0 to 100/),
    );
    assert.throws(
      () => plan({ fieldset: "invoice", conditions: [present], createTask: { submit: "yes" } }),
      badRequest(/submit must be true or false/),
    );
  });
});
