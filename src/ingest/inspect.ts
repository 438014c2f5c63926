import type { DocumentType } from "../document/model.js";
import { inspectImage } from "./image.js";
import { checkPageCount, checkSize } from "./limits.js";
import { withPdf } from "./pdf-open.js";
import { sniffType } from "./sniff.js";

/**
 * Every check that needs no OCR and no rendering: type by content, size, page count, encryption, corruption,
 * pixel bombs. The API runs it before issuing a receipt, so it reads only headers and the PDF's object structure.
 */
export async function inspect(bytes: Uint8Array): Promise<{ type: DocumentType; pageCount: number }> {
  const type = sniffType(bytes);
  checkSize(bytes);
  if (type !== "pdf") {
    await inspectImage(bytes, type);
    return { type, pageCount: 1 };
  }
  const pageCount = await withPdf(bytes, async (doc) => {
    checkPageCount(doc.numPages);
    // Loading each page dictionary catches broken page trees and truncated files that still parse a trailer.
    for (let n = 1; n <= doc.numPages; n++) await doc.getPage(n);
    return doc.numPages;
  });
  return { type, pageCount };
}
