/**
 * A reviewer's resolution applied to the predicted results. Pure. Listed fields are corrected (the value given,
 * confidence 1, `reviewed: true`, and no box unless the value is unchanged: the predicted box shows a different
 * value); every other field stays as predicted, which is what the reviewer confirmed.
 *
 * A line-items field is corrected with its whole rows array. Each row is an object of the cells (description,
 * quantity, unit, unitPrice, amount, taxRate, productCode, date: a string or null; `confidence` and `boundingBoxes`
 * may be sent back as received and are ignored), in the catalogue's normal forms: amounts and unit prices decimals
 * with up to two places (stored with two), quantities decimals (stored without trailing zeros), tax rates
 * percentages with up to two places. A reviewed row has confidence 1 and keeps the cell boxes of the predicted row
 * at its index when its cells are unchanged; an empty array means the document has no line items (value null).
 */
import { findFieldSet } from "../catalog/lookup.js";
import { DocsiftError } from "../domain/errors.js";
import { LINE_ITEM_CELLS, type LineItem, type LineItemCellName, type LineItemCells } from "../domain/line-items.js";
import { type ChildrenField, type ExtractedField, isLineItemsField, type Results } from "../domain/result.js";
import type { Correction } from "../domain/validation.js";

function isField(f: ExtractedField | ChildrenField): f is ExtractedField {
  return f.name !== "components.children";
}

/** A number cell's accepted text and how it is stored; cells not listed are text. */
const NUMBER_CELLS: Partial<Record<LineItemCellName, { shape: RegExp; places: number | null; what: string }>> = {
  quantity: { shape: /^-?\d+(\.\d+)?$/, places: null, what: "a decimal number" },
  unitPrice: { shape: /^-?\d+(\.\d{1,2})?$/, places: 2, what: "an amount with up to two decimals" },
  amount: { shape: /^-?\d+(\.\d{1,2})?$/, places: 2, what: "an amount with up to two decimals" },
  taxRate: { shape: /^\d+(\.\d{1,2})?$/, places: 2, what: "a percentage with up to two decimals" },
};
const ROW_KEYS = new Set<string>([...LINE_ITEM_CELLS, "confidence", "boundingBoxes"]);

/** "3.50" -> "3.5", "2.0" -> "2"; "7.5" at 2 places -> "7.50". Text only: no floating point on the way. */
function decimalForm(text: string, places: number | null): string {
  const [whole = "0", fraction = ""] = text.replace(/^-/, "").split(".");
  const digits = places === null ? fraction.replace(/0+$/, "") : fraction.padEnd(places, "0");
  const body = `${whole.replace(/^0+(?=\d)/, "")}${digits === "" ? "" : `.${digits}`}`;
  return text.startsWith("-") && /[1-9]/.test(body) ? `-${body}` : body;
}

function parseRow(raw: unknown, where: string): LineItemCells {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new DocsiftError("bad_request", `${where} must be an object of cells (${LINE_ITEM_CELLS.join(", ")}).`);
  }
  const entry = raw as Record<string, unknown>;
  const unknown = Object.keys(entry).filter((k) => !ROW_KEYS.has(k));
  if (unknown.length > 0) throw new DocsiftError("bad_request", `${where}: unknown cell(s) ${unknown.join(", ")}.`);
  const cells = {} as LineItemCells;
  for (const cell of LINE_ITEM_CELLS) {
    const value = entry[cell] ?? null;
    if (value !== null && typeof value !== "string") {
      throw new DocsiftError("bad_request", `${where}.${cell} must be a string or null.`);
    }
    const text = value?.trim() ?? "";
    const number = NUMBER_CELLS[cell];
    if (text !== "" && number && !number.shape.test(text)) {
      throw new DocsiftError("bad_request", `${where}.${cell} must be ${number.what}, not ${JSON.stringify(text)}.`);
    }
    cells[cell] = text === "" ? null : number ? decimalForm(text, number.places) : text;
  }
  return cells;
}

function parseValue(value: unknown, where: string, rows: boolean): Correction["value"] {
  if (rows) {
    if (value !== null && !Array.isArray(value)) {
      throw new DocsiftError("bad_request", `${where}: value must be an array of line-item rows or null.`);
    }
    const parsed = (value ?? []).map((row: unknown, j: number) => parseRow(row, `${where}.value[${j}]`));
    return parsed.length === 0 ? null : parsed.map((cells) => ({ ...cells, confidence: 1, boundingBoxes: [] }));
  }
  if (value !== null && typeof value !== "string") {
    throw new DocsiftError("bad_request", `${where}: value must be a string or null.`);
  }
  const trimmed = value === null ? null : value.trim();
  return trimmed === "" ? null : trimmed;
}

function sameCells(a: LineItemCells, b: LineItemCells): boolean {
  return LINE_ITEM_CELLS.every((cell) => a[cell] === b[cell]);
}

/** Reviewed rows: confidence 1, the predicted row's boxes where the row at that index is unchanged. */
function reviewedRows(rows: readonly LineItem[], predicted: readonly LineItem[]): LineItem[] {
  return rows.map((row, i) => {
    const before = predicted[i];
    return { ...row, confidence: 1, boundingBoxes: before && sameCells(row, before) ? before.boundingBoxes : [] };
  });
}

/** Checks a resolve body's corrections against the task's field set; a bad_request names the offending entry. */
export function parseCorrections(body: unknown, fieldSet: string): Correction[] {
  const fields = typeof body === "object" && body !== null ? (body as { fields?: unknown }).fields : undefined;
  if (fields === undefined) return [];
  if (!Array.isArray(fields)) throw new DocsiftError("bad_request", 'fields must be an array of {"name", "value"}.');
  const types = new Map(findFieldSet(fieldSet)?.fields.map((f) => [f.name, f.type]) ?? []);
  const seen = new Set<string>();
  return fields.map((raw: unknown, i) => {
    const entry = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
    const { name, value } = entry;
    if (typeof name !== "string" || !types.has(name)) {
      throw new DocsiftError("bad_request", `fields[${i}]: ${JSON.stringify(name)} is not a field of "${fieldSet}".`);
    }
    if (seen.has(name)) throw new DocsiftError("bad_request", `fields[${i}]: "${name}" is listed twice.`);
    seen.add(name);
    return { name, value: parseValue(value, `fields[${i}] ("${name}")`, types.get(name) === "lineItems") };
  });
}

export function applyCorrections(predicted: Results, corrections: readonly Correction[]): Results {
  const byName = new Map(corrections.map((c) => [c.name, c]));
  return {
    ...predicted,
    fields: predicted.fields.map((f): ExtractedField | ChildrenField => {
      const c = isField(f) ? byName.get(f.name) : undefined;
      if (!c || !isField(f)) return f;
      if (Array.isArray(c.value)) {
        const before = isLineItemsField(f) ? f.value : [];
        const value = reviewedRows(c.value, before);
        const unchanged =
          value.length === before.length && value.every((row, i) => sameCells(row, before[i] as LineItem));
        return { ...f, value, confidence: 1, boundingBox: unchanged ? f.boundingBox : null, reviewed: true };
      }
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
