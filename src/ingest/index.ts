/** Ingest: bytes of a PDF, PNG or JPG -> Document (pages of words with boxes and lines). The public surface. */
export { type IngestOptions, ingest } from "./ingest.js";
export { inspect } from "./inspect.js";
export { LIMITS } from "./limits.js";
export { onChildProcess } from "./ocr/child-processes.js";
export type { OcrEngine, OcrEngineKind, OcrResult } from "./ocr/engine.js";
export { createOcrEngine, defaultOcrEngine } from "./ocr/factory.js";
export type { RawWord as OcrWord } from "./page-builder.js";
export { readAttachments } from "./page-source.js";
export { renderPage } from "./render.js";
export { sniffType } from "./sniff.js";
