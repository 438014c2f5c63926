import type { FileFormat } from "../document/model.js";
import { DocsiftError } from "../domain/errors.js";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PDF_MARKER = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"
/** Readers (Acrobat included) accept a PDF header anywhere in the first KiB, after junk some generators prepend. */
const PDF_HEADER_WINDOW = 1024;

function startsWith(bytes: Uint8Array, signature: number[], at = 0): boolean {
  return signature.every((b, i) => bytes[at + i] === b);
}

/** Offset of "%PDF-" within the header window, or -1. */
export function pdfHeaderOffset(bytes: Uint8Array): number {
  const end = Math.min(bytes.byteLength - PDF_MARKER.length, PDF_HEADER_WINDOW);
  for (let i = 0; i <= end; i++) if (bytes[i] === 0x25 && startsWith(bytes, PDF_MARKER, i)) return i;
  return -1;
}

/** The type by content alone: a file's name and Content-Type are whatever the client said, so they are ignored. */
export function sniffType(bytes: Uint8Array): FileFormat {
  if (bytes.byteLength === 0) throw new DocsiftError("empty_file", "The file is empty.");
  if (startsWith(bytes, PNG_SIGNATURE)) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (pdfHeaderOffset(bytes) >= 0) return "pdf";
  throw new DocsiftError(
    "unsupported_type",
    "The file is not a PDF, PNG or JPG (judged by its content, not its name).",
  );
}
