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
import { parseValidatePlan } from "../validate/conditions.js";

export type ChildWorkflow = "prediction" | "validate";

/** What a split parent stores as its options: the plan for its children. */
export interface SplitPlan {
  childWorkflow: ChildWorkflow;
  childSelection: Selection;
  /** Each child's stored options: the checked validation plan when children validate; absent otherwise. */
  childOptions?: Record<string, unknown>;
}

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

function childWorkflowName(where: string, value: unknown): ChildWorkflow {
  if (typeof value !== "string" || value.trim() === "") throw bad(`${where} must name a workflow, e.g. "prediction".`);
  const name = value.trim();
  if (name === "prediction" || name === "validate") return name;
  throw bad(`${where} "${name}" is not a child workflow; the values are "prediction" and "validate".`);
}

/**
 * Checks a split upload's options. `childWorkflowId` and `childWorkflowOptions` are the form parameters (the latter
 * already parsed to an object), `workflowOptions` the parsed workflowOptions, `selection` the upload's own.
 */
export function parseSplitPlan(input: {
  childWorkflowId: string | undefined;
  childWorkflowOptions: Record<string, unknown> | null;
  workflowOptions: Record<string, unknown> | null;
  selection: Selection;
}): SplitPlan {
  const nested = input.workflowOptions?.prediction;
  if (nested !== undefined && !isObject(nested)) throw bad("workflowOptions.prediction must be a JSON object.");
  const fromForm =
    input.childWorkflowId === undefined ? undefined : childWorkflowName("childWorkflowId", input.childWorkflowId);
  const fromOptions =
    nested?.childWorkflow === undefined
      ? undefined
      : childWorkflowName("workflowOptions.prediction.childWorkflow", nested.childWorkflow);
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
  const formSelection =
    input.childWorkflowOptions === null ? null : childSelection("childWorkflowOptions", input.childWorkflowOptions);
  const nestedSelection =
    nested?.childWorkflowOptions === undefined
      ? null
      : childSelection("workflowOptions.prediction.childWorkflowOptions", nested.childWorkflowOptions);
  const selection = formSelection ?? nestedSelection ?? input.selection;
  if (childWorkflow === "prediction") return { childWorkflow, childSelection: selection };
  // Validating children: the conditions sit beside the children's selection, in the child options that win.
  const winning =
    input.childWorkflowOptions ?? (isObject(nested?.childWorkflowOptions) ? nested.childWorkflowOptions : null);
  const plan = parseValidatePlan(winning, resolveFieldSets(selection));
  return { childWorkflow, childSelection: selection, childOptions: { validate: plan } };
}

/** The plan back from a stored parent's options (written by parseSplitPlan at upload). */
export function storedSplitPlan(options: Record<string, unknown> | null): SplitPlan {
  const selection = options?.childSelection;
  const workflow = options?.childWorkflow;
  if ((workflow !== "prediction" && workflow !== "validate") || !isObject(selection)) {
    throw new DocsiftError("internal", "The split parent has no stored child plan.");
  }
  const plan: SplitPlan = { childWorkflow: workflow, childSelection: selection as Selection };
  if (isObject(options?.childOptions)) plan.childOptions = options.childOptions;
  return plan;
}
