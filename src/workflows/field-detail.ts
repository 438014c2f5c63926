/**
 * The detail a verbose result shows beside each value (GET /result/final/:id?verbose=true): the text as it was read
 * on the page, from the words of the field's box, before normalisation turned it into the value. Pure; run where the
 * Document still exists (the processing thread), since a result keeps only word ids.
 */
import type { Document } from "../document/model.js";
import { type ExtractedField, isLineItemsField } from "../domain/result.js";

export function withRawText(document: Document, fields: readonly ExtractedField[]): ExtractedField[] {
  const text = new Map<number, string>();
  for (const page of document.pages) for (const word of page.words) text.set(word.id, word.text);
  return fields.map((field) => {
    const ids = field.boundingBox?.tokenIds ?? [];
    // A table's rows keep their own cell boxes: a raw text of the whole table would tell nothing.
    if (field.value === null || ids.length === 0 || isLineItemsField(field)) return field;
    return { ...field, raw: ids.map((id) => text.get(id) ?? "").join(" ") };
  });
}
