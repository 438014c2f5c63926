/**
 * Conditions applied to predicted fields -> breaches. Pure. Every bound is inclusive; a null bound is no bound.
 * A null value breaches a value range (nothing to be inside it) and field-present; its confidence is still tested
 * as it stands.
 */
import type { ExtractedField, ResultWarning, WarningCode } from "../domain/result.js";
import type { Bound, Breach, Condition } from "../domain/validation.js";

/** The conditions a result's warning breaks rather than a field's value, by the warning's code. */
type WarningCondition = Extract<Condition, { type: "einvoice-consistent" | "line-items-sum" }>;
const WARNING_OF: Record<WarningCondition["type"], WarningCode> = {
  "einvoice-consistent": "einvoice_mismatch",
  "line-items-sum": "line_items_sum_mismatch",
};

function isWarningCondition(condition: Condition): condition is WarningCondition {
  return condition.type in WARNING_OF;
}

function outside(value: number | string, min: Bound, max: Bound): boolean {
  return (min !== null && value < min) || (max !== null && value > max);
}

/** The normalised value as the bounds' kind: numbers for numeric bounds, ISO date text for date bounds. */
function comparable(value: string, min: Bound, max: Bound): number | string | null {
  const numeric = typeof min === "number" || typeof max === "number";
  if (!numeric) return value.slice(0, 10);
  const n = Number(value);
  return value.trim() !== "" && Number.isFinite(n) ? n : null;
}

function breaks(condition: Exclude<Condition, WarningCondition>, field: ExtractedField | undefined): boolean {
  const value = field?.value ?? null;
  switch (condition.type) {
    case "field-present":
      return value === null || (typeof value === "string" ? value.trim() === "" : value.length === 0);
    case "field-confidence-range":
      return outside(field?.confidence ?? 0, condition.min, condition.max);
    case "field-value-range": {
      // Rows have no order (the condition parser refuses a range on them); they are not inside one.
      if (value === null || typeof value !== "string") return true;
      if (condition.min === null && condition.max === null) return false;
      const v = comparable(value, condition.min, condition.max);
      // A value that cannot be read as the bounds' kind is not inside them.
      return v === null || outside(v, condition.min, condition.max);
    }
  }
}

/**
 * `warnings` are the result's: an `einvoice-consistent` condition breaks once per `einvoice_mismatch` on one of
 * `fields`, a `line-items-sum` condition once per `line_items_sum_mismatch` (its own field only, when it names one).
 */
export function evaluateConditions(
  conditions: readonly Condition[],
  fields: readonly ExtractedField[],
  warnings: readonly ResultWarning[] = [],
): Breach[] {
  const byName = new Map(fields.map((f) => [f.name, f]));
  return conditions.flatMap((condition): Breach[] => {
    if (isWarningCondition(condition)) {
      return warnings.flatMap((w) => {
        const field = w.field === undefined ? undefined : byName.get(w.field);
        const code = WARNING_OF[condition.type];
        if (w.code !== code || !field || (condition.field && condition.field !== field.name)) return [];
        return [{ field: field.name, condition, value: field.value, confidence: field.confidence }];
      });
    }
    const field = byName.get(condition.field);
    if (!breaks(condition, field)) return [];
    return [{ field: condition.field, condition, value: field?.value ?? null, confidence: field?.confidence ?? null }];
  });
}
