import { DocsiftError } from "../../domain/errors.js";
import type { OcrEngine, OcrEngineKind } from "./engine.js";
import { createTesseractCli, tesseractOnPath } from "./tesseract-cli.js";
import { createTesseractJs } from "./tesseract-js.js";

export function createOcrEngine(kind: OcrEngineKind): OcrEngine {
  if (kind === "tesseract-cli") return createTesseractCli();
  if (kind === "tesseract-js") return createTesseractJs();
  throw new DocsiftError("bad_request", `Unknown OCR engine "${String(kind)}": use tesseract-cli or tesseract-js.`);
}

let shared: OcrEngine | undefined;

/**
 * The process-wide engine: `DOCSIFT_OCR_ENGINE` (tesseract-cli | tesseract-js) when set, else the tesseract CLI when
 * it is on PATH, else tesseract.js. Shared so tesseract.js workers are reused across documents.
 */
export function defaultOcrEngine(): OcrEngine {
  shared ??= createOcrEngine(chooseKind());
  return shared;
}

function chooseKind(): OcrEngineKind {
  const configured = process.env.DOCSIFT_OCR_ENGINE;
  if (configured === "tesseract-cli" || configured === "tesseract-js") return configured;
  if (configured)
    throw new DocsiftError("bad_request", `DOCSIFT_OCR_ENGINE="${configured}": use tesseract-cli or tesseract-js.`);
  return tesseractOnPath() ? "tesseract-cli" : "tesseract-js";
}
