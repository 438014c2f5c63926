/**
 * The validate workflow's options, checked before anything is stored (upload, or a split upload whose children
 * validate). Pure: the parsed workflowOptions object and the requested field sets in, the typed ValidateOptions
 * out (stored as they are and never checked again), or a bad_request naming the condition that is wrong.
 *
 * Our documented choices where the spec is silent:
 * - `prediction.fieldset` may be omitted when exactly one field set is requested.
 * - `field-value-range` applies to amount fields (numeric bounds) and date fields (ISO `YYYY-MM-DD` bounds, our
 *   extension); other field types have no order, so a value range on them is a 400.
 * - `field-confidence-range` bounds lie in 0..1 (confidences do).
 * - `createTask.submit` (default true): true puts the task in the review queue (status `open`); false creates it
 *   as a `draft`, kept out of the queue (list it with `status=draft`; it can still be resolved through the API).
 *   Either way the file stays IN PROGRESS until the task is resolved: the predictions broke the caller's own
 *   conditions, so finalising them unreviewed would defeat the point of asking for validation.
 * - `einvoice-consistent` (our extension; `field` optional): breached by each `einvoice_mismatch` warning of the
 *   result on a field of the validated field set (or on `field` alone when given), so a PDF whose page contradicts
 *   its embedded invoice XML goes to review.
 * - `line-items-sum` (our extension; `field` optional, a line-items field): breached by each
 *   `line_items_sum_mismatch` warning on a line-items field of the validated field set (or on `field` alone), so
 *   a table whose amounts do not add up to the printed subtotal goes to review. The field set must hold one.
 * - Line-items fields take `field-present` and `field-confidence-range` (the table's confidence); they have no
 *   order, so a value range on them is a 400 like on any text.
 * - `createTask.priority` (default 50): an integer 0..100, higher is more urgent; the queue lists the highest
 *   first, and oldest first among equals.
 */
import type { FieldType } from "../catalog/catalog.js";
import { findFieldSet } from "../catalog/lookup.js";
import { DocsiftError } from "../domain/errors.js";
import { type Bound, CONDITION_TYPES, type Condition, type ValidateOptions } from "../domain/validation.js";

export const DEFAULT_PRIORITY = 50;
export const MIN_PRIORITY = 0;
export const MAX_PRIORITY = 100;

/** Field types whose normalised values have an order a value range can test. */
const ORDERED_TYPES: ReadonlySet<FieldType> = new Set(["amount", "date"]);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const PREDICTION_KEYS = new Set(["fieldset", "conditions", "createTask", "fieldSets", "products"]);

function bad(message: string): DocsiftError {
  return new DocsiftError("bad_request", message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

function readBound(where: string, name: "min" | "max", raw: unknown, type: FieldType | "confidence"): Bound {
  if (raw === undefined || raw === null) return null;
  if (type === "date") {
    if (typeof raw === "string" && isIsoDate(raw)) return raw;
    throw bad(
      `${where}: ${name} must be an ISO date (YYYY-MM-DD) or null for a date field, not ${JSON.stringify(raw)}.`,
    );
  }
  if (typeof raw !== "number" || !Number.isFinite(raw)) {
    throw bad(`${where}: ${name} must be a number or null, not ${JSON.stringify(raw)}.`);
  }
  if (type === "confidence" && (raw < 0 || raw > 1)) {
    throw bad(`${where}: ${name} ${raw} is outside 0..1, the range of confidences.`);
  }
  return raw;
}

function checkOrder(where: string, min: Bound, max: Bound): void {
  if (min !== null && max !== null && min > max) {
    throw bad(`${where}: min ${JSON.stringify(min)} is greater than max ${JSON.stringify(max)}.`);
  }
}

function parseCondition(raw: unknown, index: number, fieldSet: string, fieldTypes: Map<string, FieldType>): Condition {
  const at = `workflowOptions.prediction.conditions[${index}]`;
  if (!isObject(raw)) throw bad(`${at} must be a JSON object with "type" and "field".`);
  const { type, field } = raw;
  if (typeof type !== "string" || !(CONDITION_TYPES as readonly string[]).includes(type)) {
    throw bad(`${at}: unknown condition type ${JSON.stringify(type)}; the types are ${CONDITION_TYPES.join(", ")}.`);
  }
  const where = `${at} (${type})`;
  if (type === "line-items-sum" && ![...fieldTypes.values()].includes("lineItems")) {
    throw bad(`${where}: field set "${fieldSet}" has no line-items field; use invoice, receipt or lineItems.`);
  }
  if ((type === "einvoice-consistent" || type === "line-items-sum") && field === undefined) {
    const extra = Object.keys(raw).filter((k) => k !== "type");
    if (extra.length > 0) throw bad(`${where}: unknown key(s) ${extra.join(", ")}.`);
    return { type };
  }
  if (typeof field !== "string" || field.trim() === "") throw bad(`${where}: "field" must name a field.`);
  const fieldType = fieldTypes.get(field);
  if (fieldType === undefined) {
    throw bad(`${where}: field "${field}" is not in field set "${fieldSet}"; GET /catalog lists its fields.`);
  }
  const fieldOnly = type === "field-present" || type === "einvoice-consistent" || type === "line-items-sum";
  const allowed = fieldOnly ? ["type", "field"] : ["type", "field", "min", "max"];
  const extra = Object.keys(raw).filter((k) => !allowed.includes(k));
  if (extra.length > 0) throw bad(`${where} on "${field}": unknown key(s) ${extra.join(", ")}.`);
  const named = `${where} on "${field}"`;
  if (type === "line-items-sum" && fieldType !== "lineItems") {
    throw bad(`${named}: "${field}" is a ${fieldType} field, not line items.`);
  }
  if (type === "field-present" || type === "einvoice-consistent" || type === "line-items-sum") return { type, field };
  if (type === "field-confidence-range") {
    const min = readBound(named, "min", raw.min, "confidence") as number | null;
    const max = readBound(named, "max", raw.max, "confidence") as number | null;
    checkOrder(named, min, max);
    return { type, field, min, max };
  }
  if (!ORDERED_TYPES.has(fieldType)) {
    throw bad(`${named}: a value range needs an amount or date field; "${field}" is a ${fieldType} field.`);
  }
  const min = readBound(named, "min", raw.min, fieldType);
  const max = readBound(named, "max", raw.max, fieldType);
  checkOrder(named, min, max);
  return { type: "field-value-range", field, min, max };
}

function parseCreateTask(raw: unknown): ValidateOptions["createTask"] {
  const at = "workflowOptions.prediction.createTask";
  if (raw === undefined || raw === null) return { submit: true, priority: DEFAULT_PRIORITY };
  if (!isObject(raw)) throw bad(`${at} must be a JSON object like {"submit": true, "priority": 50}.`);
  const extra = Object.keys(raw).filter((k) => k !== "submit" && k !== "priority");
  if (extra.length > 0) throw bad(`${at} has unknown key(s) ${extra.join(", ")}; use submit and priority.`);
  if (raw.submit !== undefined && typeof raw.submit !== "boolean") throw bad(`${at}.submit must be true or false.`);
  const priority = raw.priority ?? DEFAULT_PRIORITY;
  if (!Number.isInteger(priority) || (priority as number) < MIN_PRIORITY || (priority as number) > MAX_PRIORITY) {
    throw bad(`${at}.priority must be an integer from ${MIN_PRIORITY} to ${MAX_PRIORITY} (higher is more urgent).`);
  }
  return { submit: raw.submit ?? true, priority: priority as number };
}

/** Checks a validate upload's workflowOptions against the field sets the same upload requested (resolved ids). */
export function parseValidateOptions(
  options: Record<string, unknown> | null,
  requested: readonly string[],
): ValidateOptions {
  const prediction = options?.prediction;
  if (!isObject(prediction)) {
    throw bad('workflowId=validate needs workflowOptions {"prediction": {"fieldset": "<id>", "conditions": [...]}}.');
  }
  const extra = Object.keys(prediction).filter((k) => !PREDICTION_KEYS.has(k));
  if (extra.length > 0) {
    throw bad(
      `workflowOptions.prediction has unknown key(s) ${extra.join(", ")}; use fieldset, conditions, createTask.`,
    );
  }
  const named = prediction.fieldset;
  if (named !== undefined && (typeof named !== "string" || named.trim() === "")) {
    throw bad("workflowOptions.prediction.fieldset must be a field set id.");
  }
  const fieldSet = typeof named === "string" ? named.trim() : requested.length === 1 ? requested[0] : undefined;
  if (fieldSet === undefined) {
    throw bad(
      `workflowOptions.prediction.fieldset is required when several field sets are requested (${requested.join(", ")}).`,
    );
  }
  const def = findFieldSet(fieldSet);
  if (!def || !requested.includes(fieldSet)) {
    throw bad(
      `workflowOptions.prediction.fieldset "${fieldSet}" is not among the field sets this upload requests (${requested.join(", ")}).`,
    );
  }
  const rawConditions = prediction.conditions;
  if (!Array.isArray(rawConditions) || rawConditions.length === 0) {
    throw bad("workflowOptions.prediction.conditions must be a non-empty array of conditions.");
  }
  const fieldTypes = new Map(def.fields.map((f) => [f.name, f.type]));
  const conditions = rawConditions.map((c, i) => parseCondition(c, i, fieldSet, fieldTypes));
  return { fieldSet, conditions, createTask: parseCreateTask(prediction.createTask) };
}
