import { DocsiftError } from "../domain/errors.js";
import { LIMITS } from "../domain/limits.js";

/** The limits themselves are plain data in domain/, where the API reads them too; these functions enforce them. */
export { LIMITS };

export function checkSize(bytes: Uint8Array): void {
  if (bytes.byteLength > LIMITS.maxBytes)
    throw new DocsiftError(
      "file_too_large",
      `The file is ${(bytes.byteLength / 1024 / 1024).toFixed(1)} MiB; the limit is ${LIMITS.maxBytes / 1024 / 1024} MiB.`,
    );
}

export function checkPageCount(pageCount: number): void {
  if (pageCount > LIMITS.maxPages)
    throw new DocsiftError(
      "too_many_pages",
      `The document has ${pageCount} pages; the limit is ${LIMITS.maxPages}. Split it and upload the parts.`,
    );
}

export function checkPixels(width: number, height: number): void {
  if (width * height > LIMITS.maxPixels)
    throw new DocsiftError(
      "image_too_large",
      `The image is ${width} x ${height} pixels; the limit is ${LIMITS.maxPixels.toLocaleString("en")} pixels.`,
    );
}

export function checkWordCount(pageNum: number, count: number): void {
  if (count > LIMITS.maxWordsPerPage)
    throw new DocsiftError(
      "unusable_document",
      `Page ${pageNum} holds ${count.toLocaleString("en")} words; the limit is ${LIMITS.maxWordsPerPage.toLocaleString("en")} per page.`,
    );
}
