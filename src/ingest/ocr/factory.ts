/**
 * Chooses the OCR engine from settings given (never from the environment). The tesseract CLI is faster and reads
 * better; tesseract.js (bundled model) needs nothing installed; PaddleOCR (PP-OCRv4 detection and recognition, the
 * npm package's ONNX models) reads in the recogniser's process.
 */
import { DocsiftError } from "../../domain/errors.js";
import { DEFAULT_PAGE_TIMEOUT_MS, type OcrEngine, type OcrEngineKind } from "./engine.js";
import { type OcrFallbackNotice, withOcrFallback } from "./fallback.js";
import { withHeaderFill } from "./header-fill.js";
import { modelsOf } from "./languages.js";
import { paddleRecogniser } from "./line-recogniser.js";
import { type CropReader, mergedLineRereading } from "./merged-lines.js";
import { withUprightPages } from "./orientation-engine.js";
import { createPaddleEngine } from "./paddle-engine.js";
import { officePageForOcr } from "./picture-removal.js";
import { headerAndFigureLines, lineRereading, withLineRereading } from "./rereading.js";
import { createTesseractCli, runTesseract, tesseractOnPath } from "./tesseract-cli.js";
import { createTesseractJs } from "./tesseract-js.js";

/** How the process reads scanned pages (runtime/config.ts parses it from DOCSIFT_OCR_*). */
export interface OcrSettings {
  /**
   * The engine that reads first; undefined: the tesseract CLI when on `searchPath`, else tesseract.js. "paddle":
   * PaddleOCR, with that tesseract behind it for pages it fails on.
   */
  engine: OcrEngineKind | undefined;
  /** A CLI engine falls back to tesseract.js page by page when the binary fails; false: the file fails `ocr_failed`. */
  fallback: boolean;
  /** Lines with a doubtful word are re-read with PaddleOCR's line recogniser (rereading.ts). */
  reread: boolean;
  /** Time limit of one page, ms. */
  pageTimeoutMs: number;
  /** Directories searched for the tesseract binary when `engine` is unset (PATH). */
  searchPath: string;
}

/** One engine as asked, without fallback (`docsift ocr --engine`, tests). */
export function createOcrEngine(kind: OcrEngineKind, pageTimeoutMs = DEFAULT_PAGE_TIMEOUT_MS): OcrEngine {
  if (kind === "tesseract-cli") return createTesseractCli(pageTimeoutMs);
  if (kind === "tesseract-js") return createTesseractJs(pageTimeoutMs);
  if (kind === "paddle") return createPaddleEngine(pageTimeoutMs);
  throw new DocsiftError(
    "bad_request",
    `Unknown OCR engine "${String(kind)}": use tesseract-cli, tesseract-js or paddle.`,
  );
}

/**
 * The engine a process shares across documents (tesseract.js workers and the recogniser's model are reused): the
 * chosen engine, behind it tesseract.js when the CLI fails (a missing, broken or crashing binary costs speed, not
 * documents), the line re-reader on top, and every page turned upright and levelled first (orientation-engine.ts),
 * an office page then without its ruling lines and pictures (picture-removal.ts, officePageForOcr).
 */
export function createDefaultOcrEngine(settings: OcrSettings): OcrEngine {
  const tesseract = tesseractReading(settings);
  // PaddleOCR reads every line with the recogniser the re-reader would use: nothing to re-read (the tesseract
  // behind it re-reads the pages it reads).
  if (settings.engine === "paddle") {
    const paddle = createPaddleEngine(settings.pageTimeoutMs);
    const reread = settings.reread ? withLineRereading(tesseract) : tesseract;
    return withUprightPages(settings.fallback ? withOcrFallback(paddle, () => reread, warnFallback) : paddle);
  }
  // Re-read within the upright step: it crops lines of the turned, levelled page the engine read, and only of the
  // reading kept when the page was read more than one way. Lines of two columns run together are read apart first,
  // so the line re-reader sees their words as lines of their own.
  const apart = mergedLineRereading(cropReader(tesseract, settings));
  // A receipt's header lines tesseract read nothing of (a logo's lettering) are read after the re-reading.
  const refine = settings.reread
    ? withHeaderFill(lineRereading(tesseract.name, paddleRecogniser, headerAndFigureLines, apart))
    : apart;
  return withUprightPages(tesseract, refine, officePageForOcr);
}

/**
 * How a crop of a page is read: the tesseract CLI in the page's language when it is the engine (a crop holds too
 * few letters to tell its language), else the engine as it reads any page.
 */
function cropReader(tesseract: OcrEngine, settings: OcrSettings): CropReader {
  if (tesseract.name !== "tesseract-cli") return (image, _language, signal) => tesseract.recognise(image, signal);
  return (image, language, signal) => runTesseract(image, modelsOf(language), settings.pageTimeoutMs, signal);
}

/** Tesseract as `settings` ask (the CLI or tesseract.js; the CLI's fallback), without the line re-reader. */
function tesseractReading(settings: OcrSettings): OcrEngine {
  const asked = settings.engine === "paddle" ? undefined : settings.engine;
  const kind = asked ?? (tesseractOnPath(settings.searchPath) ? "tesseract-cli" : "tesseract-js");
  const engine = createOcrEngine(kind, settings.pageTimeoutMs);
  return kind === "tesseract-cli" && settings.fallback
    ? withOcrFallback(engine, () => createTesseractJs(settings.pageTimeoutMs), warnFallback)
    : engine;
}

/**
 * What a library caller that names no engine gets (ingest's default; the service and the CLI build theirs from their
 * Config): the tesseract CLI, tesseract.js when it is missing or fails, doubtful lines re-read.
 */
export const DEFAULT_OCR_SETTINGS: OcrSettings = {
  engine: "tesseract-cli",
  fallback: true,
  reread: true,
  pageTimeoutMs: DEFAULT_PAGE_TIMEOUT_MS,
  searchPath: "",
};

let shared: OcrEngine | undefined;

/** One engine on DEFAULT_OCR_SETTINGS for every such caller of this thread, so its workers and model are reused. */
export function defaultOcrEngine(): OcrEngine {
  shared ??= createDefaultOcrEngine(DEFAULT_OCR_SETTINGS);
  return shared;
}

/**
 * OCR runs in processing threads and the CLI, far from the service's logger: a process warning reaches stderr from
 * any of them (and `process.on("warning")` listeners), once per page that fell back.
 */
function warnFallback(notice: OcrFallbackNotice): void {
  process.emitWarning(
    `${notice.failed} failed on a page (${notice.reason}); read it with ${notice.fallback} instead.`,
    {
      code: "DOCSIFT_OCR_FALLBACK",
    },
  );
}
