/**
 * Cutting a sub-document out of an upload: bytes in, bytes out, no I/O. A PDF child is a real PDF holding copies
 * of its pages (pdf-lib copies page content and resources, so text layers and images survive); an image upload
 * has one page, so its only child is the image itself.
 */
import { PDFDocument } from "pdf-lib";
import { sniffType } from "../ingest/sniff.js";

export interface SlicedFile {
  bytes: Uint8Array;
  /** The child's type: "pdf" for a PDF upload, the image's own type for an image. */
  type: "pdf" | "png" | "jpeg";
}

/** A new PDF of `pages` (1-based, in the order given) of `source`; an image is returned as it is for page 1. */
export async function slicePdf(source: Uint8Array, pages: readonly number[]): Promise<SlicedFile> {
  const type = sniffType(source);
  if (type !== "pdf") {
    if (pages.length !== 1 || pages[0] !== 1) throw new RangeError(`an image has one page, not ${pages.join(",")}`);
    return { bytes: source, type };
  }
  const from = await PDFDocument.load(source, { ignoreEncryption: true, updateMetadata: false });
  const count = from.getPageCount();
  for (const p of pages) {
    if (!Number.isInteger(p) || p < 1 || p > count) throw new RangeError(`page ${p} is outside 1..${count}`);
  }
  if (pages.length === 0) throw new RangeError("a slice needs at least one page");
  const to = await PDFDocument.create({ updateMetadata: false });
  const copied = await to.copyPages(
    from,
    pages.map((p) => p - 1),
  );
  for (const page of copied) to.addPage(page);
  return { bytes: await to.save(), type: "pdf" };
}
