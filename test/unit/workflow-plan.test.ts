import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseUploadParams } from "../../src/api/upload-params.js";
import { planFromStored, storedOptions } from "../../src/domain/stored-workflow-plan.js";
import type { WorkflowPlan } from "../../src/domain/workflow-plan.js";

const validateOptions = {
  fieldSet: "invoice",
  conditions: [
    { type: "field-confidence-range" as const, field: "invoice.total", min: 0.8, max: null },
    { type: "field-value-range" as const, field: "invoice.date", min: "2024-01-01", max: null },
    { type: "field-present" as const, field: "invoice.number" },
    { type: "einvoice-consistent" as const },
  ],
  createTask: { submit: false, priority: 90 },
};

/** Through the files table: the two columns, the options as JSON text, and back. */
function throughTable(plan: WorkflowPlan): WorkflowPlan {
  const options = storedOptions(plan);
  return planFromStored(plan.workflow, options === null ? null : JSON.parse(JSON.stringify(options)));
}

describe("WorkflowPlan stored in the files table", () => {
  const plans: WorkflowPlan[] = [
    { workflow: "prediction", options: null },
    { workflow: "prediction", options: { pages: [1, 2], note: "kept as sent" } },
    { workflow: "validate", options: validateOptions },
    {
      workflow: "split",
      options: { childSelection: { products: ["invoices"] }, child: { workflow: "prediction", options: null } },
    },
    {
      workflow: "split",
      options: {
        childSelection: { fieldSets: ["invoice"] },
        child: { workflow: "validate", options: validateOptions },
      },
    },
  ];
  for (const plan of plans) {
    it(`round-trips a ${plan.workflow} plan unchanged`, () => {
      assert.deepEqual(throughTable(plan), plan);
    });
  }

  it("reads rows in the shape older versions wrote, and writes that same shape", () => {
    const rows: Array<[string, unknown, WorkflowPlan]> = [
      ["prediction", { pages: [1, 2] }, { workflow: "prediction", options: { pages: [1, 2] } }],
      ["validate", { validate: validateOptions }, { workflow: "validate", options: validateOptions }],
      [
        "split",
        { childWorkflow: "prediction", childSelection: { products: ["invoices"] } },
        {
          workflow: "split",
          options: { childSelection: { products: ["invoices"] }, child: { workflow: "prediction", options: null } },
        },
      ],
      [
        "split",
        {
          childWorkflow: "validate",
          childSelection: { fieldSets: ["invoice"] },
          childOptions: { validate: validateOptions },
        },
        {
          workflow: "split",
          options: {
            childSelection: { fieldSets: ["invoice"] },
            child: { workflow: "validate", options: validateOptions },
          },
        },
      ],
    ];
    for (const [workflow, options, plan] of rows) {
      assert.deepEqual(planFromStored(workflow, options), plan);
      assert.deepEqual(storedOptions(plan), options);
    }
  });

  it("refuses a workflow the table should not hold", () => {
    assert.throws(() => planFromStored("ocr", null), /ocr/);
  });
});

describe("the plan built at upload", () => {
  it("is the checked plan of a validate upload, and survives the table", () => {
    const { plan } = parseUploadParams({
      fieldSet: ["invoice"],
      workflowId: ["validate"],
      workflowOptions: [
        JSON.stringify({
          prediction: { conditions: validateOptions.conditions, createTask: validateOptions.createTask },
        }),
      ],
    });
    assert.deepEqual(plan, { workflow: "validate", options: validateOptions });
    assert.deepEqual(throughTable(plan), plan);
  });

  it("is the children's plan of a split upload whose children validate", () => {
    const { plan } = parseUploadParams({
      products: ["invoices"],
      workflowId: ["split"],
      childWorkflowId: ["validate"],
      childWorkflowOptions: [
        JSON.stringify({
          prediction: {
            fieldSets: ["invoice"],
            conditions: validateOptions.conditions,
            createTask: validateOptions.createTask,
          },
        }),
      ],
    });
    assert.deepEqual(plan, {
      workflow: "split",
      options: {
        childSelection: { fieldSets: ["invoice"] },
        child: { workflow: "validate", options: validateOptions },
      },
    });
    assert.deepEqual(throughTable(plan), plan);
  });

  it("keeps a prediction upload's workflowOptions as sent", () => {
    const { plan } = parseUploadParams({ fieldSet: ["invoice"], workflowOptions: ['{"a": [1, {"b": null}]}'] });
    assert.deepEqual(plan, { workflow: "prediction", options: { a: [1, { b: null }] } });
    assert.deepEqual(parseUploadParams({ fieldSet: ["invoice"] }).plan, { workflow: "prediction", options: null });
  });
});
