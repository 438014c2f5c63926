import type { FileFormat } from "../document/model.js";
import { checkPageCount } from "./limits.js";
import { isPageFailure } from "./page-failure.js";
import { sourceOf } from "./page-source.js";

/**
 * Every check that needs no OCR and no rendering: type by content, size, page count, encryption, corruption,
 * pixel bombs. The API runs it before issuing a receipt, so it reads only headers and the file's structure.
 * A file none of whose pages can be loaded is corrupt; one with some damaged pages is accepted, as ingest reads the
 * others (and warns of those).
 */
export async function inspect(bytes: Uint8Array): Promise<{ type: FileFormat; pageCount: number }> {
  const { type, source } = sourceOf(bytes);
  const pageCount = await source.open(bytes, async (pages) => {
    checkPageCount(pages.pageCount);
    // Loading each page (its size) catches broken page trees and truncated files that still parse a trailer.
    let firstFailure: unknown;
    let loaded = 0;
    for (let n = 1; n <= pages.pageCount; n++) {
      try {
        await pages.size(n);
        loaded++;
      } catch (err) {
        if (!isPageFailure(err)) throw err;
        firstFailure ??= err;
      }
    }
    if (loaded === 0 && firstFailure !== undefined) throw firstFailure;
    return pages.pageCount;
  });
  return { type, pageCount };
}
