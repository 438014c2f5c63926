/**
 * A reviewer's resolution applied to the predicted results. Pure. Listed fields are corrected (the value given,
 * confidence 1, `reviewed: true`, and no box unless the value is unchanged: the predicted box shows a different
 * value); every other field stays as predicted, which is what the reviewer confirmed.
 */
import { findFieldSet } from "../catalog/lookup.js";
import { DocsiftError } from "../domain/errors.js";
import type { ChildrenField, Field, Results } from "../domain/result.js";
import type { Correction } from "../domain/validation.js";

function isField(f: Field | ChildrenField): f is Field {
  return f.name !== "components.children";
}

/** Checks a resolve body's corrections against the task's field set; a bad_request names the offending entry. */
export function parseCorrections(body: unknown, fieldSet: string): Correction[] {
  const fields = typeof body === "object" && body !== null ? (body as { fields?: unknown }).fields : undefined;
  if (fields === undefined) return [];
  if (!Array.isArray(fields)) throw new DocsiftError("bad_request", 'fields must be an array of {"name", "value"}.');
  const known = new Set(findFieldSet(fieldSet)?.fields.map((f) => f.name) ?? []);
  const seen = new Set<string>();
  return fields.map((raw: unknown, i) => {
    const entry = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
    const { name, value } = entry;
    if (typeof name !== "string" || !known.has(name)) {
      throw new DocsiftError("bad_request", `fields[${i}]: ${JSON.stringify(name)} is not a field of "${fieldSet}".`);
    }
    if (seen.has(name)) throw new DocsiftError("bad_request", `fields[${i}]: "${name}" is listed twice.`);
    seen.add(name);
    if (value !== null && typeof value !== "string") {
      throw new DocsiftError("bad_request", `fields[${i}] ("${name}"): value must be a string or null.`);
    }
    const trimmed = value === null ? null : value.trim();
    return { name, value: trimmed === "" ? null : trimmed };
  });
}

export function applyCorrections(predicted: Results, corrections: readonly Correction[]): Results {
  const byName = new Map(corrections.map((c) => [c.name, c]));
  return {
    ...predicted,
    fields: predicted.fields.map((f) => {
      const c = isField(f) ? byName.get(f.name) : undefined;
      if (!c || !isField(f)) return f;
      return {
        ...f,
        value: c.value,
        confidence: 1,
        boundingBox: c.value === f.value ? f.boundingBox : null,
        reviewed: true,
      };
    }),
  };
}
