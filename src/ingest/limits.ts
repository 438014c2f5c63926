import { DocsiftError } from "../domain/errors.js";

/**
 * Hard limits checked before any heavy work. maxPixels bounds decoded images (decompression bombs): 100 MP is
 * a 10,000 x 10,000 scan, far beyond any receipt or A4 page at 600 dpi, while a bomb declares billions.
 * maxExpandedBytes bounds what all of a PDF's streams (content, fonts, object streams, Flate images: any stream,
 * whatever its dictionary says, through every filter of its chain) decode to: a 20 MB invoice decodes to a few tens
 * of MB, a Flate or LZW bomb to gigabytes. maxPackedObjects bounds the objects a PDF's object streams declare: an
 * invoice holds hundreds to a few thousand objects, a parser attack millions. maxWordsPerPage: a dense A4 page in 6 pt
 * type holds about 4,000 words; a page of millions of tiny text operators is an attack on time and memory.
 */
export const LIMITS: {
  readonly maxBytes: number;
  readonly maxPages: number;
  readonly maxPixels: number;
  readonly maxExpandedBytes: number;
  readonly maxPackedObjects: number;
  readonly maxWordsPerPage: number;
} = {
  maxBytes: 20 * 1024 * 1024,
  maxPages: 16,
  maxPixels: 100_000_000,
  maxExpandedBytes: 256 * 1024 * 1024,
  maxPackedObjects: 100_000,
  maxWordsPerPage: 20_000,
};

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
