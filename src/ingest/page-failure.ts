/**
 * Which failures of one page leave the other pages standing. A page's content can be damaged (pdf.js meets a broken
 * object, a renderer gives up) or its OCR can fail on it: that page is left without words and a warning says so.
 * A limit (too many words, too many pixels), a timeout or an abort concerns the whole file: it fails the file.
 */
import type { PageWarning } from "../document/model.js";
import { DocsiftError, type ErrorCode } from "../domain/errors.js";

const PAGE_CODES: ReadonlySet<ErrorCode> = new Set(["corrupt_file", "ocr_failed"]);

export function isPageFailure(err: unknown): boolean {
  if (err instanceof DocsiftError) return PAGE_CODES.has(err.code);
  return !(err instanceof Error && err.name === "AbortError");
}

export function pageWarning(pageNum: number, err: unknown): PageWarning {
  // An untyped error comes from a parser or renderer: its wording is for developers, not for the reader.
  const reason = err instanceof DocsiftError ? err.message : "Its content is damaged.";
  return {
    code: "page_unreadable",
    page: pageNum,
    message: `Page ${pageNum} could not be read and has no words in the result. ${reason}`,
  };
}
