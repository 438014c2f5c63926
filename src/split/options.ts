/**
 * The options of a split upload, checked before anything is stored. A split parent needs the workflow to run on each
 * child (`childWorkflowId`, or `workflowOptions.prediction.childWorkflow`) and may say what children extract
 * (`{"prediction": {"fieldSets": [...]}}` or `{"prediction": {"products": [...]}}`), either as the form parameter
 * `childWorkflowOptions` or inside `workflowOptions.prediction.childWorkflowOptions`.
 *
 * Precedence: when both carry child options, the form parameter `childWorkflowOptions` wins. It is the parameter
 * the upload names for exactly this purpose, given on its own, so it is the more deliberate of the two (as a
 * command-line flag beats a config file). Two child workflow names that differ, however, are contradictory: 400.
 * Without child options, children extract what the parent upload selected.
 */
import { resolveFieldSets, type Selection } from "../catalog/lookup.js";
import { DocsiftError } from "../domain/errors.js";
import type { ChildWorkflowId, SplitOptions } from "../domain/workflow-plan.js";
import { parseValidateOptions } from "../validate/conditions.js";

function bad(message: string): DocsiftError {
  return new DocsiftError("bad_request", message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringList(name: string, value: unknown): string[] {
  if (typeof value === "string")
    return value
      .split(",")
      .map((v) => v.trim())
      .filter((v) => v !== "");
  if (Array.isArray(value) && value.every((v): v is string => typeof v === "string")) {
    return value.map((v) => v.trim()).filter((v) => v !== "");
  }
  throw bad(`${name} must be a list of strings.`);
}

/** `{"prediction": {"fieldSets": [...]}}` (or products) -> the children's selection; null when it names none. */
function childSelection(where: string, options: unknown): Selection | null {
  if (!isObject(options)) throw bad(`${where} must be a JSON object like {"prediction": {"fieldSets": ["invoice"]}}.`);
  const unknownKeys = Object.keys(options).filter((k) => k !== "prediction");
  if (unknownKeys[0] === "validate") throw bad(`${where}.validate: validation of split children is not yet supported.`);
  if (unknownKeys.length > 0) throw bad(`${where} has unknown key(s) ${unknownKeys.join(", ")}; use "prediction".`);
  const prediction = options.prediction;
  if (prediction === undefined) return null;
  if (!isObject(prediction)) throw bad(`${where}.prediction must be a JSON object.`);
  const hasFieldSets = prediction.fieldSets !== undefined;
  const hasProducts = prediction.products !== undefined;
  if (hasFieldSets && hasProducts) throw bad(`${where}.prediction gives both fieldSets and products; give one.`);
  if (!hasFieldSets && !hasProducts) return null;
  const selection: Selection = hasFieldSets
    ? { fieldSets: stringList(`${where}.prediction.fieldSets`, prediction.fieldSets) }
    : { products: stringList(`${where}.prediction.products`, prediction.products) };
  // Throws bad_request naming unknown ids, or asking for at least one.
  resolveFieldSets(selection);
  return selection;
}

function childWorkflowName(where: string, value: unknown): ChildWorkflowId {
  if (typeof value !== "string" || value.trim() === "") throw bad(`${where} must name a workflow, e.g. "prediction".`);
  const name = value.trim();
  if (name === "prediction" || name === "validate") return name;
  throw bad(`${where} "${name}" is not a child workflow; the values are "prediction" and "validate".`);
}

/** `read(value)` when the parameter was given, undefined otherwise. */
function ifGiven<T, R>(value: T | undefined, read: (value: T) => R): R | undefined {
  return value === undefined ? undefined : read(value);
}

/**
 * Checks a split upload's options into the children's plan. `childWorkflowId` and `childWorkflowOptions` are the
 * form parameters (the latter already parsed to an object), `workflowOptions` the parsed workflowOptions,
 * `selection` the upload's own.
 */
export function parseSplitOptions(input: {
  childWorkflowId: string | undefined;
  childWorkflowOptions: Record<string, unknown> | null;
  workflowOptions: Record<string, unknown> | null;
  selection: Selection;
}): SplitOptions {
  const nested = input.workflowOptions?.prediction;
  if (nested !== undefined && !isObject(nested)) throw bad("workflowOptions.prediction must be a JSON object.");
  const fromForm = ifGiven(input.childWorkflowId, (v) => childWorkflowName("childWorkflowId", v));
  const fromOptions = ifGiven(nested?.childWorkflow, (v) =>
    childWorkflowName("workflowOptions.prediction.childWorkflow", v),
  );
  const childWorkflow = fromForm ?? fromOptions;
  if (childWorkflow === undefined) {
    throw bad(
      'workflowId=split needs the child workflow: give childWorkflowId=prediction (or workflowOptions {"prediction": {"childWorkflow": "prediction"}}).',
    );
  }
  if (fromForm !== undefined && fromOptions !== undefined && fromForm !== fromOptions) {
    throw bad(`childWorkflowId "${fromForm}" contradicts workflowOptions.prediction.childWorkflow "${fromOptions}".`);
  }
  // Both are checked (a malformed one is an error even when the other wins); the form parameter wins.
  const formSelection = ifGiven(input.childWorkflowOptions ?? undefined, (v) =>
    childSelection("childWorkflowOptions", v),
  );
  const nestedSelection = ifGiven(nested?.childWorkflowOptions, (v) =>
    childSelection("workflowOptions.prediction.childWorkflowOptions", v),
  );
  const selection = formSelection ?? nestedSelection ?? input.selection;
  if (childWorkflow === "prediction") {
    return { childSelection: selection, child: { workflow: "prediction", options: null } };
  }
  // Validating children: the conditions sit beside the children's selection, in the child options that win.
  const winning =
    input.childWorkflowOptions ?? (isObject(nested?.childWorkflowOptions) ? nested.childWorkflowOptions : null);
  const options = parseValidateOptions(winning, resolveFieldSets(selection));
  return { childSelection: selection, child: { workflow: "validate", options } };
}
