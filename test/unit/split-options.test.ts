import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DocsiftError } from "../../src/domain/errors.js";
import { planFromStored, storedOptions } from "../../src/domain/stored-workflow-plan.js";
import { parseSplitOptions } from "../../src/split/options.js";

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
    assert.deepEqual(parseSplitOptions({ ...base, childWorkflowId: "prediction" }), {
      childSelection: { products: ["invoices"] },
      child: { workflow: "prediction", options: null },
    });
    const nested = {
      prediction: { childWorkflow: "prediction", childWorkflowOptions: { prediction: { fieldSets: ["invoice"] } } },
    };
    assert.deepEqual(parseSplitOptions({ ...base, workflowOptions: nested }), {
      childSelection: { fieldSets: ["invoice"] },
      child: { workflow: "prediction", options: null },
    });
  });

  it("lets the childWorkflowOptions parameter win over the nested child options", () => {
    const plan = parseSplitOptions({
      ...base,
      childWorkflowId: "prediction",
      childWorkflowOptions: { prediction: { products: ["receipts"] } },
      workflowOptions: { prediction: { childWorkflowOptions: { prediction: { fieldSets: ["invoice"] } } } },
    });
    assert.deepEqual(plan.childSelection, { products: ["receipts"] });
  });

  it("rejects missing, contradictory, unsupported and malformed options", () => {
    assert.throws(() => parseSplitOptions(base), badRequest(/childWorkflowId/));
    assert.throws(
      () =>
        parseSplitOptions({
          ...base,
          childWorkflowId: "prediction",
          workflowOptions: { prediction: { childWorkflow: "x" } },
        }),
      badRequest(/not a child workflow/),
    );
    assert.throws(() => parseSplitOptions({ ...base, childWorkflowId: "validate" }), badRequest(/conditions/));
    assert.throws(
      () =>
        parseSplitOptions({
          ...base,
          childWorkflowId: "prediction",
          childWorkflowOptions: { prediction: { fieldSets: ["zzz"] } },
        }),
      badRequest(/zzz/),
    );
    assert.throws(
      () => parseSplitOptions({ ...base, childWorkflowId: "prediction", childWorkflowOptions: { other: {} } }),
      badRequest(/unknown key/),
    );
    assert.throws(
      () => parseSplitOptions({ ...base, childWorkflowId: "prediction", workflowOptions: { prediction: "x" } }),
      badRequest(/must be a JSON object/),
    );
  });

  it("reads a stored plan back", () => {
    const options = parseSplitOptions({ ...base, childWorkflowId: "prediction" });
    assert.deepEqual(planFromStored("split", storedOptions({ workflow: "split", options })), {
      workflow: "split",
      options,
    });
  });
});
