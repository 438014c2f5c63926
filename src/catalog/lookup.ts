import { DocsiftError } from "../domain/errors.js";
import type { Selection } from "../domain/selection.js";
import { FIELD_SETS, type FieldDef, type FieldSetDef, PRODUCTS, type ProductDef } from "./catalog.js";

export function findProduct(id: string): ProductDef | undefined {
  return PRODUCTS.find((p) => p.id === id);
}

export function findFieldSet(id: string): FieldSetDef | undefined {
  return FIELD_SETS.find((s) => s.id === id);
}

export function findField(name: string): FieldDef | undefined {
  for (const set of FIELD_SETS) {
    const field = set.fields.find((f) => f.name === name);
    if (field) return field;
  }
  return undefined;
}

export type { Selection };

/** Field-set ids of a selection, deduplicated in catalogue order; unknown ids are a bad_request naming them. */
export function resolveFieldSets(selection: Selection): string[] {
  const wanted = new Set<string>();
  const unknown: string[] = [];
  for (const id of selection.products ?? []) {
    const product = findProduct(id);
    if (!product) unknown.push(`product "${id}"`);
    else for (const s of product.fieldSets) wanted.add(s);
  }
  for (const id of selection.fieldSets ?? []) {
    if (!findFieldSet(id)) unknown.push(`field set "${id}"`);
    else wanted.add(id);
  }
  if (unknown.length > 0) {
    throw new DocsiftError("bad_request", `Unknown ${unknown.join(", ")}; GET /catalog lists the valid ids.`);
  }
  if (wanted.size === 0) throw new DocsiftError("bad_request", "Select at least one product or field set.");
  return FIELD_SETS.filter((s) => wanted.has(s.id)).map((s) => s.id);
}

/**
 * The fields of a selection, in catalogue order: the exact list every result carries. A field two selected sets
 * share (the `lineItems` set's with `invoice` or `receipt`) is listed once.
 */
export function resolveFields(selection: Selection): FieldDef[] {
  const fields = resolveFieldSets(selection).flatMap((id) => findFieldSet(id)?.fields ?? []);
  return fields.filter((f, i) => fields.findIndex((g) => g.name === f.name) === i);
}
