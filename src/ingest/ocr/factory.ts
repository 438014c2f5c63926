/**
 * Chooses the OCR engine. The tesseract CLI is faster and reads better; tesseract.js (bundled model) needs nothing
 * installed. The process-wide engine is the CLI with tesseract.js behind it: a missing, broken or crashing binary
 * costs speed, not documents.
 */
import { DocsiftError } from "../../domain/errors.js";
import type { OcrEngine, OcrEngineKind } from "./engine.js";
import { type OcrFallbackNotice, withOcrFallback } from "./fallback.js";
import { withLineRereading } from "./rereading.js";
import { createTesseractCli, tesseractOnPath } from "./tesseract-cli.js";
import { createTesseractJs } from "./tesseract-js.js";

/** One engine as asked, without fallback (`docsift ocr --engine`, tests). */
export function createOcrEngine(kind: OcrEngineKind): OcrEngine {
  if (kind === "tesseract-cli") return createTesseractCli();
  if (kind === "tesseract-js") return createTesseractJs();
  throw new DocsiftError("bad_request", `Unknown OCR engine "${String(kind)}": use tesseract-cli or tesseract-js.`);
}

let shared: OcrEngine | undefined;

/**
 * The process-wide engine: `DOCSIFT_OCR_ENGINE` (tesseract-cli | tesseract-js) when set, else the tesseract CLI when
 * it is on PATH, else tesseract.js. A CLI engine falls back to tesseract.js page by page when the binary fails, unless
 * `DOCSIFT_OCR_FALLBACK=none` (then the file fails `ocr_failed` with the binary's error). Lines with a doubtful word
 * are then re-read with PaddleOCR's line recogniser (rereading.ts) unless `DOCSIFT_OCR_REREAD=off`. Shared so
 * tesseract.js workers and the recogniser's model are reused across documents.
 */
export function defaultOcrEngine(): OcrEngine {
  shared ??= createDefault(process.env);
  return shared;
}

function createDefault(env: NodeJS.ProcessEnv): OcrEngine {
  const kind = chooseKind(env);
  const reread = rereadEnabled(env);
  const engine = createOcrEngine(kind);
  const reading =
    kind === "tesseract-cli" && fallbackEnabled(env)
      ? withOcrFallback(engine, createTesseractJs, warnFallback)
      : engine;
  return reread ? withLineRereading(reading) : reading;
}

function chooseKind(env: NodeJS.ProcessEnv): OcrEngineKind {
  const configured = env.DOCSIFT_OCR_ENGINE;
  if (configured === "tesseract-cli" || configured === "tesseract-js") return configured;
  if (configured)
    throw new DocsiftError("bad_request", `DOCSIFT_OCR_ENGINE="${configured}": use tesseract-cli or tesseract-js.`);
  return tesseractOnPath() ? "tesseract-cli" : "tesseract-js";
}

function fallbackEnabled(env: NodeJS.ProcessEnv): boolean {
  const configured = env.DOCSIFT_OCR_FALLBACK;
  if (configured === undefined || configured === "" || configured === "tesseract-js") return true;
  if (configured === "none") return false;
  throw new DocsiftError("bad_request", `DOCSIFT_OCR_FALLBACK="${configured}": use tesseract-js or none.`);
}

function rereadEnabled(env: NodeJS.ProcessEnv): boolean {
  const configured = env.DOCSIFT_OCR_REREAD;
  if (configured === undefined || configured === "" || configured === "doubtful") return true;
  if (configured === "off") return false;
  throw new DocsiftError("bad_request", `DOCSIFT_OCR_REREAD="${configured}": use doubtful or off.`);
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
