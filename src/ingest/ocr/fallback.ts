/**
 * An OCR engine that reads each page with a primary engine (the tesseract CLI) and, when that engine fails on the
 * page (binary gone, crashed, exited non-zero, printed garbage), reads the same page with a fallback (tesseract.js)
 * instead of failing the document. Timeouts and aborts are not engine failures: the fallback, 1.6-2x slower, would
 * only take longer still, so they pass through. When the fallback fails too, the page fails with both reasons.
 * A page read by the fallback carries an `ocr_fallback` note into the result's warnings.
 */
import { DocsiftError } from "../../domain/errors.js";
import type { PageNote } from "../page-builder.js";
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

/** What the page's result says: the reader sees which engine read the page, not the operator's detail. */
function fallbackNote(notice: OcrFallbackNotice): PageNote {
  return {
    code: "ocr_fallback",
    message: `OCR with ${notice.failed} failed (${notice.reason}); the page was read with ${notice.fallback} instead, which may read it less accurately.`,
  };
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
      const notice = { failed: primary.name, reason: reasonOf(primaryErr), fallback: fallback.name };
      onFallback(notice);
      try {
        const read = await fallback.recognise(image, signal);
        return { ...read, notes: [...(read.notes ?? []), fallbackNote(notice)] };
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
