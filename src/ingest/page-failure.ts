/**
 * Which failures of one page leave the other pages standing. A page's content can be damaged (pdf.js meets a broken
 * object, a renderer gives up) or its OCR can fail on it: that page is left without words and a warning says so.
 * A limit (too many words, too many pixels), a timeout or an abort concerns the whole file: it fails the file.
 * The same failures of one step on a page (its text layer) only degrade that step.
 */
import type { PageWarning } from "../document/model.js";
import { DocsiftError, type ErrorCode } from "../domain/errors.js";
import type { PageNote } from "./page-builder.js";

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

/** The Document's warning for a step that degraded on `pageNum` (the page itself was read). */
export function noteWarning(pageNum: number, note: PageNote): PageWarning {
  return { code: note.code, page: pageNum, message: `Page ${pageNum}: ${note.message}` };
}

/** The note for a text layer that could not be read, so the page was OCR'd instead. */
export function textLayerFailureNote(err: unknown): PageNote {
  const reason = err instanceof DocsiftError ? ` ${err.message}` : "";
  return {
    code: "text_layer_degraded",
    message: `its text layer could not be read, so the page was read by OCR instead.${reason}`,
  };
}
