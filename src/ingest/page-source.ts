/**
 * One PageSource per input format: everything ingest, inspect, page rendering and split need to know about a
 * format sits behind it (docling's backend per format), so the rest of the code never asks which format a file is.
 * Adding an input format is adding one PageSource (page-source-<format>.ts) with its entry in SOURCES below, its
 * magic bytes in sniff.ts and its facts (extension, pages per file) in formats.ts.
 */
import type { FileFormat } from "../document/model.js";
import type { OcrImage } from "./image.js";
import { checkSize } from "./limits.js";
import type { TextLayer } from "./page-builder.js";
import { imagePageSource } from "./page-source-image.js";
import { pdfPageSource } from "./page-source-pdf.js";
import type { PdfAttachment } from "./pdf-attachments.js";
import { sniffType } from "./sniff.js";

export interface PageSize {
  width: number;
  height: number;
}

/** A file opened for reading its pages (1-based). Reading one page never depends on reading another. */
export interface OpenedPages {
  readonly pageCount: number;
  /** Natural size with rotation applied: PDF points, image pixels (what the words' ratio boxes are relative to). */
  size(pageNum: number): Promise<PageSize>;
  /**
   * Words of the page's own text layer (with what reading them degraded), or undefined when the page has none worth
   * reading and must be OCR'd.
   */
  textLayer(pageNum: number): Promise<TextLayer | undefined>;
  /** Greyscale PGM of the upright page for OCR at `dpi` (a format with its own pixels may keep them). */
  ocrImage(pageNum: number, dpi: number): Promise<OcrImage>;
  /** Colour PNG of the upright page for people at `dpi` (a format with its own pixels keeps them). */
  png(pageNum: number, dpi: number): Promise<Buffer>;
}

/** A sub-document cut out of a file: a file of the same format. */
export interface SlicedFile {
  bytes: Uint8Array;
  type: FileFormat;
}

export interface PageSource {
  /**
   * Opens `bytes`, runs `use` and releases what opening took. Opening reads only headers and structure, never a
   * page's content; what cannot be opened (damaged, encrypted, over a limit) is a typed DocsiftError, and so is
   * anything untyped `use` throws, unless `signal` was aborted (its reason travels unchanged).
   */
  open<T>(bytes: Uint8Array, use: (pages: OpenedPages) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** A new file of `pages` (1-based, in the order given); RangeError for a page outside the file or none. */
  slice(bytes: Uint8Array, pages: readonly number[]): Promise<SlicedFile>;
  /** Files embedded in the file (a PDF's attachments); never throws for a damaged file: it then has none. */
  attachments(bytes: Uint8Array): Promise<PdfAttachment[]>;
}

const SOURCES: Record<FileFormat, PageSource> = {
  pdf: pdfPageSource,
  png: imagePageSource("png"),
  jpeg: imagePageSource("jpeg"),
};

/** The format of `bytes` by content and its PageSource, once the size limit holds. */
export function sourceOf(bytes: Uint8Array): { type: FileFormat; source: PageSource } {
  const type = sniffType(bytes);
  checkSize(bytes);
  return { type, source: SOURCES[type] };
}

/** Files embedded in `bytes` (a PDF's attachments; none for a format that cannot carry any). */
export function readAttachments(bytes: Uint8Array): Promise<PdfAttachment[]> {
  return sourceOf(bytes).source.attachments(bytes);
}
