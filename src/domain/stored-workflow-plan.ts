/**
 * A WorkflowPlan as the files table keeps it: the `workflow` column and the `options` JSON column. Pure.
 *
 * The options column keeps the shape it had before plans were typed, so rows written by older versions run as
 * written, and an older worker still running beside a newer API (a rolling upgrade) reads the newer rows:
 * - prediction: the workflowOptions as sent, or null;
 * - validate: `{"validate": ValidateOptions}`;
 * - split: `{"childWorkflow", "childSelection", "childOptions"?: {"validate": ValidateOptions}}`, childOptions only
 *   when the children validate.
 * Reading back decodes the service's own writing: nothing is checked again.
 */
import type { JsonObject } from "./json.js";
import type { Selection } from "./selection.js";
import type { ValidateOptions } from "./validation.js";
import type { ChildPlan, SplitOptions, WorkflowPlan } from "./workflow-plan.js";

interface StoredValidate {
  validate: ValidateOptions;
}

type StoredSplit =
  | { childWorkflow: "prediction"; childSelection: Selection }
  | { childWorkflow: "validate"; childSelection: Selection; childOptions: StoredValidate };

export type StoredOptions = JsonObject | StoredValidate | StoredSplit;

/** The options column's value for a plan (null: SQL NULL). */
export function storedOptions(plan: WorkflowPlan): StoredOptions | null {
  switch (plan.workflow) {
    case "prediction":
      return plan.options;
    case "validate":
      return { validate: plan.options };
    case "split": {
      const { child, childSelection } = plan.options;
      return child.workflow === "prediction"
        ? { childWorkflow: "prediction", childSelection }
        : { childWorkflow: "validate", childSelection, childOptions: { validate: child.options } };
    }
  }
}

/** The plan from the two columns (`options` as JSON decoded, SQL NULL as null). */
export function planFromStored(workflow: string, options: unknown): WorkflowPlan {
  switch (workflow) {
    case "prediction":
      return { workflow, options: options as JsonObject | null };
    case "validate":
      return { workflow, options: (options as StoredValidate).validate };
    case "split":
      return { workflow, options: splitOptions(options as StoredSplit) };
  }
  throw new TypeError(`the files table holds a file of unknown workflow "${workflow}"`);
}

function splitOptions(stored: StoredSplit): SplitOptions {
  const child: ChildPlan =
    stored.childWorkflow === "prediction"
      ? { workflow: "prediction", options: null }
      : { workflow: "validate", options: stored.childOptions.validate };
  return { childSelection: stored.childSelection, child };
}
