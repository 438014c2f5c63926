/**
 * Cutting a sub-document out of an upload: bytes in, bytes out, no I/O. The format's PageSource cuts: a PDF child
 * is a real PDF holding copies of its pages (text layers and images survive); an image upload has one page, so its
 * only child is the image itself.
 */
import { type SlicedFile, sourceOf } from "../ingest/page-source.js";

export type { SlicedFile };

/** A new file of `pages` (1-based, in the order given) of `source`; RangeError for a page it does not have. */
export function sliceFile(source: Uint8Array, pages: readonly number[]): Promise<SlicedFile> {
  return sourceOf(source).source.slice(source, pages);
}
