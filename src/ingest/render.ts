import { DocsiftError } from "../domain/errors.js";
import { sourceOf } from "./page-source.js";

/** Screen resolution by default: the page is for people (review console, result images), not for OCR. */
const DEFAULT_DPI = 150;
const MIN_DPI = 18;
const MAX_DPI = 600;

function noSuchPage(pageNum: number, pageCount: number): DocsiftError {
  return new DocsiftError("not_found", `Page ${pageNum} does not exist; the document has ${pageCount} page(s).`);
}

/**
 * PNG of page `pageNum` (1-based) of a PDF, PNG or JPG, upright and in colour. PDF pages are rendered at `dpi`
 * (default 150, at most 600; huge pages are capped at 40 MP); images keep their own size.
 */
export async function renderPage(bytes: Uint8Array, pageNum: number, options: { dpi?: number } = {}): Promise<Buffer> {
  const dpi = options.dpi ?? DEFAULT_DPI;
  if (!(Number.isFinite(dpi) && dpi >= MIN_DPI && dpi <= MAX_DPI))
    throw new DocsiftError("bad_request", `dpi must be between ${MIN_DPI} and ${MAX_DPI}.`);
  const { source } = sourceOf(bytes);
  return source.open(bytes, async (pages) => {
    if (!Number.isInteger(pageNum) || pageNum < 1 || pageNum > pages.pageCount)
      throw noSuchPage(pageNum, pages.pageCount);
    return pages.png(pageNum, dpi);
  });
}
