/**
 * Hard limits checked before any heavy work (ingest/limits.ts enforces them; the API states them in its answers and
 * bounds its bodies by them). maxPixels bounds decoded images (decompression bombs): 100 MP is a 10,000 x 10,000
 * scan, far beyond any receipt or A4 page at 600 dpi, while a bomb declares billions. maxExpandedBytes bounds what
 * all of a PDF's streams (content, fonts, object streams, Flate images: any stream, whatever its dictionary says,
 * through every filter of its chain) decode to: a 20 MB invoice decodes to a few tens of MB, a Flate or LZW bomb to
 * gigabytes. maxPackedObjects bounds the objects a PDF's object streams declare: an invoice holds hundreds to a few
 * thousand objects, a parser attack millions. maxWordsPerPage: a dense A4 page in 6 pt type holds about 4,000 words;
 * a page of millions of tiny text operators is an attack on time and memory.
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
