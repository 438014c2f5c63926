import type { PageNote, RawWord } from "../page-builder.js";

/** What an OCR engine read on one page image: words with boxes as ratios of the image, confidence 0..1. */
export interface OcrResult {
  /** Size of the image read, in pixels. */
  width: number;
  height: number;
  words: RawWord[];
  /**
   * The engine's own line grouping: indices into `words`, one array per line it read, in reading order. The line
   * re-reader crops these lines (rereading.ts); absent when the engine gives none.
   */
  lines?: number[][];
  /** What degraded reading this page (read by a fallback engine); absent when nothing did. */
  notes?: PageNote[];
  /**
   * Clockwise degrees the image was turned to be read upright and level (orientation-engine.ts), its words' boxes
   * mapped back onto the image as given; absent or 0 when it was read as given. Ingest builds lines on the upright page.
   */
  rotation?: number;
  /**
   * The model of the page's language when it was read again in it (languages.ts: "deu", "fra", ...); absent when
   * English alone read it. The line re-reader puts back that language's letters its recogniser cannot write.
   */
  language?: string;
}

/** One interface, three engines (tesseract CLI, tesseract.js, PaddleOCR); ingest never knows which one it talks to. */
export interface OcrEngine {
  readonly name: string;
  /**
   * Reads one page image: PNG, JPEG or PGM (ingest sends PGM, which costs nothing to write). Rejects with
   * DocsiftError `timeout` when the page exceeds its time limit, `ocr_failed` when the engine fails.
   */
  recognise(image: Buffer, signal?: AbortSignal): Promise<OcrResult>;
  /** Releases long-lived resources (worker threads); the engine stays usable and re-creates them on demand. */
  close?(): Promise<void>;
}

export type OcrEngineKind = "tesseract-cli" | "tesseract-js" | "paddle";

/** Page segmentation "single uniform block": psm 3 (auto) loses most words on blurred receipt photos. */
export const PAGE_SEGMENTATION_MODE = "6";

/** Per-page OCR time limit unless set otherwise (DOCSIFT_OCR_TIMEOUT_MS): a normal page takes 1-3 s. */
export const DEFAULT_PAGE_TIMEOUT_MS = 60_000;
