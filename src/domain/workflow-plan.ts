/**
 * What a file's job will do, with its options checked: built once at upload (src/api/upload-params.ts), stored with
 * the file (src/domain/stored-workflow-plan.ts) and read back at run time as it was built, never checked again.
 */
import type { JsonObject } from "./json.js";
import type { Selection } from "./selection.js";
import type { ValidateOptions } from "./validation.js";

/** Extraction. Its workflowOptions, if any, mean nothing to the service: kept as sent, never read. */
export interface PredictionPlan {
  workflow: "prediction";
  options: JsonObject | null;
}

/** Extraction, then the conditions; a breach holds the file under a review task. */
export interface ValidatePlan {
  workflow: "validate";
  options: ValidateOptions;
}

/** What each sub-document of a split runs: extraction, or extraction and validation. */
export type ChildPlan = PredictionPlan | ValidatePlan;

export interface SplitOptions {
  /** What the children extract: the child options' selection, else the split upload's own. */
  childSelection: Selection;
  /** Each child's own plan (a prediction child's options are null). */
  child: ChildPlan;
}

/** Cut into sub-documents, each a file of its own running the child plan. */
export interface SplitPlan {
  workflow: "split";
  options: SplitOptions;
}

export type WorkflowPlan = PredictionPlan | SplitPlan | ValidatePlan;

/** Workflows a file can run: extraction (`prediction`), `split` into sub-documents, and `validate` with review tasks. */
export type WorkflowId = WorkflowPlan["workflow"];

export type ChildWorkflowId = ChildPlan["workflow"];
