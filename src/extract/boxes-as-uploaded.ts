/**
 * The result's boxes on the pages as uploaded. Extraction works in the Document's frame, where a page OCR read turned
 * (Page.rotation) is upright; the spec's boxes are ratios of the page as uploaded, where a user draws them on the page
 * image. Applied once, where the result's fields are written (the processing thread, `docsift extract`), after the
 * e-invoice reader placed its own. Pure.
 */
import type { Document, Page } from "../document/model.js";
import { boxAsUploaded } from "../document/page-frame.js";
import type { Point } from "../domain/result.js";
import { type ExtractedField, isLineItemsField } from "../domain/result.js";

interface Placed {
  pageNum: number;
  topLeft: Point;
  bottomRight: Point;
}

function placedAsUploaded<B extends Placed>(box: B, pages: ReadonlyMap<number, Page>): B {
  const page = pages.get(box.pageNum);
  if (!page?.rotation) return box;
  const b = boxAsUploaded({ x0: box.topLeft.x, y0: box.topLeft.y, x1: box.bottomRight.x, y1: box.bottomRight.y }, page);
  return { ...box, topLeft: { x: b.x0, y: b.y0 }, bottomRight: { x: b.x1, y: b.y1 } };
}

/** `fields` with every box (a field's, a table row's cells') on the page as uploaded; unchanged when none was turned. */
export function boxesAsUploaded(document: Document, fields: readonly ExtractedField[]): ExtractedField[] {
  const pages = new Map(document.pages.filter((p) => p.rotation).map((p) => [p.pageNum, p]));
  if (pages.size === 0) return [...fields];
  return fields.map((field): ExtractedField => {
    const boundingBox = field.boundingBox && placedAsUploaded(field.boundingBox, pages);
    if (!isLineItemsField(field)) return { ...field, boundingBox };
    const value = field.value.map((row) => ({
      ...row,
      boundingBoxes: row.boundingBoxes.map((cell) => placedAsUploaded(cell, pages)),
    }));
    return { ...field, boundingBox, value };
  });
}
