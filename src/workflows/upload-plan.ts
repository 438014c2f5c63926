/**
 * An upload's WorkflowPlan, built once from its workflow parameters as sent, before anything is stored: the plan is
 * stored as it is and read back at run time without being checked again. Pure: a bad_request names what is wrong.
 * Each workflow's options are checked by its own parser (split/options.ts, validate/conditions.ts).
 */
import { resolveFieldSets, type Selection } from "../catalog/lookup.js";
import { DocsiftError } from "../domain/errors.js";
import type { JsonObject } from "../domain/json.js";
import type { WorkflowPlan } from "../domain/workflow-plan.js";
import { parseSplitOptions } from "../split/options.js";
import { parseValidateOptions } from "../validate/conditions.js";

/** The upload's workflow parameters, each the text given once or undefined; the options are JSON object text. */
export interface WorkflowParams {
  workflowId: string | undefined;
  workflowOptions: string | undefined;
  childWorkflowId: string | undefined;
  childWorkflowOptions: string | undefined;
}

function bad(message: string): DocsiftError {
  return new DocsiftError("bad_request", message);
}

function parseJsonObject(name: string, value: string | undefined): JsonObject | null {
  if (value === undefined || value.trim() === "") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw bad(`${name} is not valid JSON; it must be a JSON object.`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw bad(`${name} must be a JSON object.`);
  // JSON.parse makes JSON values only.
  return parsed as JsonObject;
}

/** `selection` is the upload's own (checked): validated field sets must be among it, and children default to it. */
export function buildWorkflowPlan(params: WorkflowParams, selection: Selection): WorkflowPlan {
  const workflowId = params.workflowId?.trim() || "prediction";
  const options = parseJsonObject("workflowOptions", params.workflowOptions);
  const childOptions = parseJsonObject("childWorkflowOptions", params.childWorkflowOptions);
  if (workflowId === "split") {
    // A split parent's options are its children's checked plan (see src/split/options.ts for precedence).
    const split = parseSplitOptions({
      childWorkflowId: params.childWorkflowId,
      childWorkflowOptions: childOptions,
      workflowOptions: options,
      selection,
    });
    return { workflow: "split", options: split };
  }
  if (workflowId !== "prediction" && workflowId !== "validate") {
    throw bad(`Unknown workflowId "${workflowId}"; the values are prediction, split and validate.`);
  }
  if (params.childWorkflowId !== undefined || params.childWorkflowOptions !== undefined) {
    throw bad("childWorkflowId and childWorkflowOptions apply only to workflowId=split.");
  }
  if (workflowId === "validate") {
    return { workflow: "validate", options: parseValidateOptions(options, resolveFieldSets(selection)) };
  }
  return { workflow: "prediction", options };
}
