import { availableParallelism } from "node:os";
import type { Document, Page, WordSource } from "../document/model.js";
import { createLimiter, mapConcurrent } from "./concurrency.js";
import { recogniseFaintPage } from "./faint-page.js";
import { imageForOcr, inspectImage, placeWords } from "./image.js";
import { checkPageCount, checkSize } from "./limits.js";
import type { OcrEngine } from "./ocr/engine.js";
import { defaultOcrEngine } from "./ocr/factory.js";
import { buildPage, type RawWord } from "./page-builder.js";
import { withPdf } from "./pdf-open.js";
import { pdfPageSize, textLayerWords } from "./pdf-pages.js";
import { loadScanSource } from "./pdf-scan-image.js";
import { OCR_DPI, pdfPageOcrImage } from "./rasterise.js";
import { sniffType } from "./sniff.js";

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
}

/**
 * Bytes in, Document out: sniff, limits, then per page the PDF text layer when it is usable, else OCR of the page
 * rendered at 200 dpi; images are OCR'd upright and in grey, and a page OCR reads nearly empty is read again with its
 * contrast stretched (faint-page.ts). Pages run in parallel; the first failing page aborts the others and its typed
 * error is thrown.
 */
export async function ingest(bytes: Uint8Array, options: IngestOptions = {}): Promise<Document> {
  const type = sniffType(bytes);
  checkSize(bytes);
  options.signal?.throwIfAborted();
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const concurrency = Math.max(1, options.concurrency ?? availableParallelism());
  const ocrSlot = createLimiter(concurrency);
  const ocr = (image: Buffer) => ocrSlot(() => recogniseFaintPage(options.ocr ?? defaultOcrEngine(), image, signal));
  const timed = async (pageNum: number, read: () => Promise<PageContent>): Promise<PageContent> => {
    const started = performance.now();
    try {
      const content = await read();
      options.onPage?.({ pageNum, source: content.source, ms: performance.now() - started });
      return content;
    } catch (err) {
      stop.abort(err);
      throw err;
    }
  };

  let contents: PageContent[];
  if (type === "pdf") {
    contents = await withPdf(
      bytes,
      async (doc) => {
        checkPageCount(doc.numPages);
        // Opened with pdf-lib only once a page needs OCR, to read scans' raw JPEG streams (see pdfPageOcrImage).
        let scanSource: ReturnType<typeof loadScanSource> | undefined;
        const pageNums = Array.from({ length: doc.numPages }, (_, i) => i + 1);
        // One page more than OCR slots: while every slot runs OCR, the next page renders on this thread.
        return mapConcurrent(pageNums, concurrency + 1, (pageNum) =>
          timed(pageNum, async () => {
            signal.throwIfAborted();
            const size = await pdfPageSize(doc, pageNum);
            const words = await textLayerWords(doc, pageNum);
            if (words) return { pageNum, ...size, source: "text", words };
            scanSource ??= loadScanSource(bytes);
            const { image } = await pdfPageOcrImage(doc, await scanSource, pageNum, OCR_DPI);
            return { pageNum, ...size, source: "ocr", words: (await ocr(image)).words };
          }),
        );
      },
      options.signal,
    );
  } else {
    const size = await inspectImage(bytes, type);
    contents = [
      await timed(1, async () => {
        const { image, region } = await imageForOcr(bytes, size);
        const words = placeWords((await ocr(image)).words, region, size);
        return { pageNum: 1, ...size, source: "ocr", words };
      }),
    ];
  }

  let nextId = 0;
  const pages: Page[] = contents.map((c) => {
    const page = buildPage(c.pageNum, c, c.source, c.words, nextId);
    nextId += page.words.length;
    return page;
  });
  return { type, pages };
}
