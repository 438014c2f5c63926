import type { PDFDocumentProxy, PDFPageProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { TextItem, TextMarkedContent } from "pdfjs-dist/types/src/display/api.js";
import { checkWordCount } from "./limits.js";
import type { PageNote, TextLayer } from "./page-builder.js";
import { largestImageArea } from "./pdf-images.js";
import { type TextLayerIssue, type TextRun, wordsFromRuns } from "./pdf-text.js";
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

/**
 * A scan often carries a few real words (a fax header, a page-number stamp, "COPY") over the image holding the
 * content: a page with fewer words than this whose largest image covers at least MIN_SCAN_SHARE of it is a scan.
 */
const SPARSE_TEXT_WORDS = 20;
const MIN_SCAN_SHARE = 0.5;

/** Share of the page its largest image covers. Decodes the page's images, so only asked for sparse-text pages. */
async function largestImageShare(page: PDFPageProxy): Promise<number> {
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view;
  const pageArea = Math.abs((x1 - x0) * (y1 - y0));
  if (pageArea === 0) return 0;
  const { fnArray, argsArray } = await page.getOperatorList();
  return largestImageArea(fnArray, argsArray) / pageArea;
}

const ISSUE_TEXT: Record<TextLayerIssue, string> = {
  unmapped_characters: "characters without a Unicode value in its text layer were left out of its words",
  guessed_widths: "some glyph widths could not be measured, so word boundaries inside a line of text are estimated",
  zero_width_runs: "text its fonts give no width was read with estimated widths",
  bad_geometry: "text at an invalid position was left out",
};

/** One warning for all a page's text layer had to give up on (none when nothing did). */
function textLayerNotes(issues: ReadonlySet<TextLayerIssue>): PageNote[] {
  if (issues.size === 0) return [];
  const order = Object.keys(ISSUE_TEXT) as TextLayerIssue[];
  const said = order.filter((issue) => issues.has(issue)).map((issue) => ISSUE_TEXT[issue]);
  return [{ code: "text_layer_degraded", message: `${said.join("; ")}.` }];
}

/**
 * Words of a page's text layer and what reading them degraded, or undefined when the page must be OCR'd instead:
 * no text layer (a scan), a garbage one (fonts without a Unicode map), or a few words over a page-sized image (a
 * stamped scan).
 */
export async function textLayerWords(doc: PDFDocumentProxy, pageNum: number): Promise<TextLayer | undefined> {
  const page = await doc.getPage(pageNum);
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const runs: TextRun[] = content.items.filter(isTextItem);
  if (!isUsableTextLayer(runs.map((r) => r.str).join(" "))) return undefined;
  const { words, issues } = wordsFromRuns(runs, content.styles, (x, y) => {
    const [vx = 0, vy = 0] = viewport.convertToViewportPoint(x, y);
    return [vx / viewport.width, vy / viewport.height];
  });
  if (words.length === 0) return undefined;
  checkWordCount(pageNum, words.length);
  // The operator list built here is cached for rendering, so a page found to be a scan is not decoded twice.
  if (words.length < SPARSE_TEXT_WORDS && (await largestImageShare(page)) >= MIN_SCAN_SHARE) return undefined;
  page.cleanup();
  return { words, notes: textLayerNotes(issues) };
}
