/**
 * PDF: pages read with pdf.js (text layer, rendering), scans' raw JPEG streams and slices with pdf-lib, which
 * copies page content and resources, so a slice keeps its text layer and images.
 */
import type { PDFDocument as PdfLibDocument } from "pdf-lib";
import { PDFDocument } from "pdf-lib";
import type { PageSource } from "./page-source.js";
import { readPdfAttachments } from "./pdf-attachments.js";
import { withPdf } from "./pdf-open.js";
import { pdfPageSize, textLayerWords } from "./pdf-pages.js";
import { loadScanSource } from "./pdf-scan-image.js";
import { colourPng, pdfPageOcrImage, rasterisePdfPage } from "./rasterise.js";

export const pdfPageSource: PageSource = {
  open(bytes, use, signal) {
    return withPdf(
      bytes,
      (doc) => {
        // Opened with pdf-lib only once a page needs OCR, to read scans' raw JPEG streams (see pdfPageOcrImage).
        let scanSource: Promise<PdfLibDocument | undefined> | undefined;
        return use({
          pageCount: doc.numPages,
          size: (pageNum) => pdfPageSize(doc, pageNum),
          textLayer: (pageNum) => textLayerWords(doc, pageNum),
          async ocrImage(pageNum, dpi) {
            scanSource ??= loadScanSource(bytes);
            const { image } = await pdfPageOcrImage(doc, await scanSource, pageNum, dpi);
            return { image, region: null };
          },
          png: async (pageNum, dpi) => colourPng(await rasterisePdfPage(doc, pageNum, dpi)),
        });
      },
      signal,
    );
  },
  async slice(bytes, pages) {
    const from = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
    const count = from.getPageCount();
    for (const p of pages) {
      if (!Number.isInteger(p) || p < 1 || p > count) throw new RangeError(`page ${p} is outside 1..${count}`);
    }
    if (pages.length === 0) throw new RangeError("a slice needs at least one page");
    const to = await PDFDocument.create({ updateMetadata: false });
    const copied = await to.copyPages(
      from,
      pages.map((p) => p - 1),
    );
    for (const page of copied) to.addPage(page);
    return { bytes: await to.save(), type: "pdf" };
  },
  attachments: readPdfAttachments,
};
