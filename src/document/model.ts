/**
 * The Document: what ingest builds from any accepted file and what extraction reads.
 * Plain data, JSON-serialisable. Boxes are page ratios (0..1, origin top-left) after rotation is applied,
 * so nothing downstream needs to know the page's size or whether it came from a PDF or an image. A page OCR read
 * turned (scanned sideways or upside down: Page.rotation) is given upright: its words, lines and size are
 * those of the page as it reads, and a box goes back onto the page as uploaded with boxAsUploaded (page-frame.ts)
 * where a result's boxes are written.
 */
import type { FileFormat } from "../domain/files.js";
import type { WarningCode } from "../domain/result.js";

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export type WordSource = "text" | "ocr";

export interface Word {
  /** Unique within the document; becomes a tokenId of a BoundingBox. */
  id: number;
  text: string;
  box: Box;
  source: WordSource;
  /** 0..1; 1 for words read from a PDF text layer. */
  confidence: number;
}

export interface Line {
  /** Word ids in reading order (left to right). */
  wordIds: number[];
  box: Box;
}

export interface Page {
  /** 1-based. */
  pageNum: number;
  /**
   * Natural size: PDF points for PDF pages, pixels for images; 0 x 0 for a page whose size could not be read. That
   * of the upright page when `rotation` is set (sides swapped for a quarter turn).
   */
  width: number;
  height: number;
  source: WordSource;
  words: Word[];
  /** Lines in reading order (top to bottom). */
  lines: Line[];
  /**
   * The quarter or half turn (90, 180 or 270 degrees clockwise) the page as uploaded was turned to read it upright,
   * when it was (a scan lying sideways or upside down): its words, lines, width and height are then of the page
   * turned upright (page-frame.ts). Absent for a page read as it lies, whose frame is the uploaded page's. A skew of a
   * few degrees stays in the boxes, as on any scan (extraction levels rows itself).
   */
  rotation?: number;
}

/** The format of the file a Document was read from (domain/files.ts). */
export type { FileFormat };

/**
 * What went wrong reading one page: it could not be read (its content damaged, its OCR failed: it is in `pages`
 * without words, the other pages are read as usual), or one step degraded (its text layer read in part, its OCR done
 * by the fallback engine). The code is a result warning's (domain/result.ts).
 */
export interface PageWarning {
  code: Extract<WarningCode, "page_unreadable" | "text_layer_degraded" | "ocr_fallback">;
  page: number;
  message: string;
}

export interface Document {
  type: FileFormat;
  pages: Page[];
  /** Present when a page could not be read or a step reading one degraded. */
  warnings?: PageWarning[];
}
