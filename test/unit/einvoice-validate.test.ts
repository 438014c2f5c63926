import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Field, ResultWarning } from "../../src/domain/result.js";
import { parseValidateOptions } from "../../src/validate/conditions.js";
import { evaluateConditions } from "../../src/validate/evaluate.js";

const total: Field = { name: "invoice.total", value: "1300.00", confidence: 1, boundingBox: null, source: "einvoice" };
const mismatch: ResultWarning = { code: "einvoice_mismatch", page: 1, field: "invoice.total", message: "..." };

describe("einvoice-consistent condition", () => {
  it("parses with or without a field", () => {
    const plan = parseValidateOptions(
      {
        prediction: {
          conditions: [{ type: "einvoice-consistent" }, { type: "einvoice-consistent", field: "invoice.total" }],
        },
      },
      ["invoice"],
    );
    assert.deepEqual(plan.conditions, [
      { type: "einvoice-consistent" },
      { type: "einvoice-consistent", field: "invoice.total" },
    ]);
  });

  it("breaks once per mismatch on a validated field, and not without one", () => {
    const c = { type: "einvoice-consistent" } as const;
    assert.deepEqual(evaluateConditions([c], [total], [mismatch]), [
      { field: "invoice.total", condition: c, value: "1300.00", confidence: 1 },
    ]);
    assert.deepEqual(evaluateConditions([c], [total], []), []);
    assert.deepEqual(evaluateConditions([c], [], [mismatch]), [], "a field outside the validated set");
    const other = { type: "einvoice-consistent", field: "invoice.date" } as const;
    assert.deepEqual(evaluateConditions([other], [total], [mismatch]), []);
  });
});
