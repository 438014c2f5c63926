/** PNG and JPEG: one page, its own pixels, no text layer. Only the header check differs (inspectImage). */
import { DocsiftError } from "../domain/errors.js";
import { decodeImage, imageForOcr, inspectImage, toBuffer } from "./image.js";
import type { OpenedPages, PageSource } from "./page-source.js";

export function imagePageSource(format: "png" | "jpeg"): PageSource {
  return {
    async open(bytes, use, signal) {
      // Headers only: nothing is decoded until a page's pixels are asked for.
      const size = await inspectImage(bytes, format);
      const pages: OpenedPages = {
        pageCount: 1,
        size: async () => size,
        textLayer: async () => undefined,
        ocrImage: () => imageForOcr(bytes, size),
        png: async () => (await toBuffer(decodeImage(bytes).png())).data,
      };
      try {
        return await use(pages);
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        if (err instanceof DocsiftError) throw err;
        throw new DocsiftError("corrupt_file", "The image is damaged and cannot be read.", { cause: err });
      }
    },
    async slice(bytes, pages) {
      if (pages.length !== 1 || pages[0] !== 1) throw new RangeError(`an image has one page, not ${pages.join(",")}`);
      return { bytes, type: format };
    },
    async attachments() {
      return [];
    },
  };
}
