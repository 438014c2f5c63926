import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { getDocument, type PDFDocumentProxy, VerbosityLevel } from "pdfjs-dist/legacy/build/pdf.mjs";
import { DocsiftError } from "../domain/errors.js";
import { LIMITS } from "./limits.js";
import { checkStreamExpansion } from "./pdf-streams.js";

/** pdfjs reads its bundled data (standard fonts, CMaps, JBIG2/JPX wasm, ICC profiles) from local paths in Node. */
const PDFJS_ROOT = dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));
const asset = (name: string): string => `${join(PDFJS_ROOT, name)}/`;

/**
 * Ends a parse that goes on in small async steps. A single synchronous step of pdf.js (a whole stream decoded at
 * once) keeps this timer from firing: what bounds that is the pool thread's own time and heap limit, which is why
 * nothing calls this on the API's event loop.
 */
const OPEN_TIMEOUT_MS = 15_000;

function toDocsiftError(err: unknown): unknown {
  if (err instanceof DocsiftError || (err instanceof Error && err.name === "AbortError")) return err;
  const name = err instanceof Error ? err.name : "";
  if (name === "PasswordException")
    return new DocsiftError("encrypted_pdf", "The PDF needs a password to open. Upload it without the password.", {
      cause: err,
    });
  return new DocsiftError("corrupt_file", "The PDF is damaged or truncated and cannot be read.", { cause: err });
}

/**
 * Opens a PDF with pdfjs. Owner-password-only PDFs open (pdfjs ignores permissions); a user password,
 * a corrupt or a truncated file becomes a typed error, and so does a decompression bomb (checked first, since pdf.js
 * would decode it into memory). The bytes are copied because pdfjs detaches its input.
 */
export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  await checkStreamExpansion(bytes);
  const task = getDocument({
    // A copy as a plain Uint8Array: pdfjs refuses Buffers and detaches what it is given.
    data: new Uint8Array(bytes),
    standardFontDataUrl: asset("standard_fonts"),
    cMapUrl: asset("cmaps"),
    cMapPacked: true,
    wasmUrl: asset("wasm"),
    iccUrl: asset("iccs"),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    // An image declaring more pixels is left out of the page instead of being decoded (an image bomb).
    maxImageSize: LIMITS.maxPixels,
    verbosity: VerbosityLevel.ERRORS,
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DocsiftError("corrupt_file", "The PDF could not be parsed in reasonable time.")),
      OPEN_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([task.promise, timeout]);
  } catch (err) {
    await task.destroy().catch(() => undefined);
    throw toDocsiftError(err);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `use` on an open PDF and always releases pdfjs' resources. Anything untyped thrown inside comes from pdfjs
 * meeting a damaged object (OCR throws typed errors), so it becomes corrupt_file; an abort of `signal` does not.
 */
export async function withPdf<T>(
  bytes: Uint8Array,
  use: (doc: PDFDocumentProxy) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const doc = await openPdf(bytes);
  try {
    return await use(doc);
  } catch (err) {
    // A caller's abort travels unchanged, whatever its reason is.
    if (signal?.aborted) throw signal.reason;
    throw toDocsiftError(err);
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}
