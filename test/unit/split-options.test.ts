import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DocsiftError } from "../../src/domain/errors.js";
import { parseSplitPlan, storedSplitPlan } from "../../src/split/options.js";

const base = {
  childWorkflowId: undefined,
  childWorkflowOptions: null,
  workflowOptions: null,
  selection: { products: ["invoices"] },
};
const badRequest = (pattern: RegExp) => (err: unknown) =>
  err instanceof DocsiftError && err.code === "bad_request" && pattern.test(err.message);

describe("parseSplitPlan", () => {
  it("takes the child workflow from the form or from workflowOptions; children default to the upload's selection", () => {
    assert.deepEqual(parseSplitPlan({ ...base, childWorkflowId: "prediction" }), {
      childWorkflow: "prediction",
      childSelection: { products: ["invoices"] },
    });
    const nested = {
      prediction: { childWorkflow: "prediction", childWorkflowOptions: { prediction: { fieldSets: ["invoice"] } } },
    };
    assert.deepEqual(parseSplitPlan({ ...base, workflowOptions: nested }), {
      childWorkflow: "prediction",
      childSelection: { fieldSets: ["invoice"] },
    });
  });

  it("lets the childWorkflowOptions parameter win over the nested child options", () => {
    const plan = parseSplitPlan({
      ...base,
      childWorkflowId: "prediction",
      childWorkflowOptions: { prediction: { products: ["receipts"] } },
      workflowOptions: { prediction: { childWorkflowOptions: { prediction: { fieldSets: ["invoice"] } } } },
    });
    assert.deepEqual(plan.childSelection, { products: ["receipts"] });
  });

  it("rejects missing, contradictory, unsupported and malformed options", () => {
    assert.throws(() => parseSplitPlan(base), badRequest(/childWorkflowId/));
    assert.throws(
      () =>
        parseSplitPlan({
          ...base,
          childWorkflowId: "prediction",
          workflowOptions: { prediction: { childWorkflow: "x" } },
        }),
      badRequest(/not a child workflow/),
    );
    assert.throws(() => parseSplitPlan({ ...base, childWorkflowId: "validate" }), badRequest(/conditions/));
    assert.throws(
      () =>
        parseSplitPlan({
          ...base,
          childWorkflowId: "prediction",
          childWorkflowOptions: { prediction: { fieldSets: ["zzz"] } },
        }),
      badRequest(/zzz/),
    );
    assert.throws(
      () => parseSplitPlan({ ...base, childWorkflowId: "prediction", childWorkflowOptions: { other: {} } }),
      badRequest(/unknown key/),
    );
    assert.throws(
      () => parseSplitPlan({ ...base, childWorkflowId: "prediction", workflowOptions: { prediction: "x" } }),
      badRequest(/must be a JSON object/),
    );
  });

  it("reads a stored plan back", () => {
    const plan = parseSplitPlan({ ...base, childWorkflowId: "prediction" });
    assert.deepEqual(storedSplitPlan({ ...plan }), plan);
    assert.throws(() => storedSplitPlan(null), DocsiftError);
  });
});
