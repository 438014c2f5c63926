/**
 * An OCR engine that reads each page with a primary engine (the tesseract CLI) and, when that engine fails on the
 * page (binary gone, crashed, exited non-zero, printed garbage), reads the same page with a fallback (tesseract.js)
 * instead of failing the document. Timeouts and aborts are not engine failures: the fallback, 1.6-2x slower, would
 * only take longer still, so they pass through. When the fallback fails too, the page fails with both reasons.
 */
import { DocsiftError } from "../../domain/errors.js";
import type { OcrEngine, OcrResult } from "./engine.js";

/** What is reported when a page falls back: which engine failed, why, and which one reads the page instead. */
export interface OcrFallbackNotice {
  failed: string;
  reason: string;
  fallback: string;
}

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Whether a failure of the primary engine is one the fallback can help with. */
function shouldFallBack(err: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) return false;
  return !(err instanceof DocsiftError) || err.code === "ocr_failed";
}

/**
 * `fallback` is created on first use only (tesseract.js loads its model lazily anyway, but an engine that never
 * fails should not hold even the pool object).
 */
export function withOcrFallback(
  primary: OcrEngine,
  makeFallback: () => OcrEngine,
  onFallback: (notice: OcrFallbackNotice) => void,
): OcrEngine {
  let fallback: OcrEngine | undefined;

  const recognise = async (image: Buffer, signal?: AbortSignal): Promise<OcrResult> => {
    try {
      return await primary.recognise(image, signal);
    } catch (primaryErr) {
      if (!shouldFallBack(primaryErr, signal)) throw primaryErr;
      fallback ??= makeFallback();
      onFallback({ failed: primary.name, reason: reasonOf(primaryErr), fallback: fallback.name });
      try {
        return await fallback.recognise(image, signal);
      } catch (fallbackErr) {
        if (!shouldFallBack(fallbackErr, signal)) throw fallbackErr;
        throw new DocsiftError(
          "ocr_failed",
          `${reasonOf(primaryErr)} The ${fallback.name} fallback failed too: ${reasonOf(fallbackErr)}`,
          { cause: fallbackErr },
        );
      }
    }
  };

  return {
    name: primary.name,
    recognise,
    async close() {
      await Promise.all([primary.close?.(), fallback?.close?.()]);
    },
  };
}
