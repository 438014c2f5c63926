import type { PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { TextItem, TextMarkedContent } from "pdfjs-dist/types/src/display/api.js";
import type { RawWord } from "./page-builder.js";
import { type TextRun, wordsFromRuns } from "./pdf-text.js";
import { isUsableTextLayer } from "./text-quality.js";

/** Page size in PDF points with the page's rotation applied (what the words' ratio boxes are relative to). */
export async function pdfPageSize(doc: PDFDocumentProxy, pageNum: number): Promise<{ width: number; height: number }> {
  const page = await doc.getPage(pageNum);
  const { width, height } = page.getViewport({ scale: 1 });
  return { width, height };
}

function isTextItem(item: TextItem | TextMarkedContent): item is TextItem {
  return "str" in item;
}

/** Words of a page's text layer, or undefined when it has none worth trusting (scanned, or garbage glyphs). */
export async function textLayerWords(doc: PDFDocumentProxy, pageNum: number): Promise<RawWord[] | undefined> {
  const page = await doc.getPage(pageNum);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const runs: TextRun[] = content.items.filter(isTextItem);
    if (!isUsableTextLayer(runs.map((r) => r.str).join(" "))) return undefined;
    const words = wordsFromRuns(runs, content.styles, (x, y) => {
      const [vx = 0, vy = 0] = viewport.convertToViewportPoint(x, y);
      return [vx / viewport.width, vy / viewport.height];
    });
    return words.length > 0 ? words : undefined;
  } finally {
    page.cleanup();
  }
}
