import { availableParallelism } from "node:os";
import type { Document, Page, PageWarning, WordSource } from "../document/model.js";
import { createLimiter, mapConcurrent } from "./concurrency.js";
import { recogniseFaintPage } from "./faint-page.js";
import { placeWords } from "./image.js";
import { checkPageCount } from "./limits.js";
import type { OcrEngine } from "./ocr/engine.js";
import { defaultOcrEngine } from "./ocr/factory.js";
import { buildPage, type PageNote, type RawWord, type TextLayer } from "./page-builder.js";
import { isPageFailure, noteWarning, pageWarning, textLayerFailureNote } from "./page-failure.js";
import { type OpenedPages, type PageSize, sourceOf } from "./page-source.js";
import { OCR_DPI } from "./rasterise.js";

export interface IngestOptions {
  /** OCR engine for scanned pages and images; default: defaultOcrEngine(). */
  ocr?: OcrEngine;
  /** Pages OCR'd at once; default: the core count (each OCR page is one single-threaded tesseract). */
  concurrency?: number;
  /** Called as each page finishes (progress, metrics). */
  onPage?: (p: { pageNum: number; source: WordSource; ms: number }) => void;
  signal?: AbortSignal;
}

/** A page's content before document-wide word ids are given. */
interface PageContent {
  pageNum: number;
  width: number;
  height: number;
  source: WordSource;
  words: RawWord[];
  /** What reading the page degraded (it is read all the same). */
  notes: PageNote[];
  /** Clockwise degrees OCR turned the page to read it upright (OcrResult.rotation); lines are built upright. */
  rotation?: number;
}

/** A page read, or the failure that left it without words (with its size when that much could be read). */
type PageOutcome = { read: PageContent } | { pageNum: number; size: PageSize; failure: unknown };

/**
 * Bytes in, Document out: sniff, limits, then per page the text layer when it is usable, else OCR of the page's
 * image (a PDF page rendered at 200 dpi, an image upright and in grey); a page OCR reads nearly empty is read again
 * with its contrast stretched (faint-page.ts). Pages run in parallel. A page that cannot be read (damaged content,
 * OCR failing on it) is kept without words and named in the Document's warnings; the file fails only when no page
 * can be read, or on a limit, a timeout or an abort, which stop the other pages and throw their typed error.
 * A step that fails on a page degrades instead (a text layer that cannot be read: the page is OCR'd; OCR by the
 * fallback engine) and the Document's warnings say so.
 */
export async function ingest(bytes: Uint8Array, options: IngestOptions = {}): Promise<Document> {
  const { type, source } = sourceOf(bytes);
  options.signal?.throwIfAborted();
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const concurrency = Math.max(1, options.concurrency ?? availableParallelism());
  const ocrSlot = createLimiter(concurrency);
  const ocr = (image: Buffer) => ocrSlot(() => recogniseFaintPage(options.ocr ?? defaultOcrEngine(), image, signal));

  /** A text layer that cannot be read is a step that failed, not the page: the page is OCR'd instead. */
  const readTextLayer = async (pages: OpenedPages, pageNum: number): Promise<TextLayer | { failed: PageNote }> => {
    try {
      return (await pages.textLayer(pageNum)) ?? { words: [], notes: [] };
    } catch (err) {
      if (signal.aborted || !isPageFailure(err)) throw err;
      return { failed: textLayerFailureNote(err) };
    }
  };

  const readPage = async (pages: OpenedPages, pageNum: number, size: PageSize): Promise<PageContent> => {
    const layer = await readTextLayer(pages, pageNum);
    if ("words" in layer && layer.words.length > 0) return { pageNum, ...size, source: "text", ...layer };
    const { image, region } = await pages.ocrImage(pageNum, OCR_DPI);
    const read = await ocr(image);
    const notes = [...("failed" in layer ? [layer.failed] : []), ...(read.notes ?? [])];
    const words = placeWords(read.words, region, size);
    return { pageNum, ...size, source: "ocr", words, notes, rotation: read.rotation ?? 0 };
  };

  const outcomes = await source.open(
    bytes,
    async (pages) => {
      checkPageCount(pages.pageCount);
      const pageNums = Array.from({ length: pages.pageCount }, (_, i) => i + 1);
      // One page more than OCR slots: while every slot runs OCR, the next page renders on this thread.
      const all = await mapConcurrent(pageNums, concurrency + 1, async (pageNum): Promise<PageOutcome> => {
        signal.throwIfAborted();
        const started = performance.now();
        let size: PageSize = { width: 0, height: 0 };
        try {
          size = await pages.size(pageNum);
          const read = await readPage(pages, pageNum, size);
          options.onPage?.({ pageNum, source: read.source, ms: performance.now() - started });
          return { read };
        } catch (err) {
          if (signal.aborted || !isPageFailure(err)) {
            stop.abort(err);
            throw err;
          }
          return { pageNum, size, failure: err };
        }
      });
      const first = all[0];
      // Thrown inside `use`, so the source turns a parser's untyped error into the format's typed one.
      if (first && "failure" in first && all.every((o) => "failure" in o)) throw first.failure;
      return all;
    },
    options.signal,
  );

  let nextId = 0;
  const warnings: PageWarning[] = [];
  const pages: Page[] = outcomes.map((outcome) => {
    if ("failure" in outcome) {
      warnings.push(pageWarning(outcome.pageNum, outcome.failure));
      // Not read from a text layer, so counted with the pages the text layer did not give.
      return buildPage(outcome.pageNum, outcome.size, "ocr", [], nextId);
    }
    const { read } = outcome;
    warnings.push(...read.notes.map((note) => noteWarning(read.pageNum, note)));
    const page = buildPage(read.pageNum, read, read.source, read.words, nextId, read.rotation);
    nextId += page.words.length;
    return page;
  });
  return warnings.length > 0 ? { type, pages, warnings } : { type, pages };
}
