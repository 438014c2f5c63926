import sharp from "sharp";
import { DocsiftError } from "../domain/errors.js";
import { checkPixels, LIMITS } from "./limits.js";

export interface ImageSize {
  width: number;
  height: number;
}

/** PNG dimensions straight from the IHDR chunk: no decoder sees a bomb before the pixel limit does. */
function pngHeaderSize(bytes: Uint8Array): ImageSize {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const isIhdr = bytes.byteLength >= 24 && String.fromCharCode(...bytes.subarray(12, 16)) === "IHDR";
  if (!isIhdr) throw new DocsiftError("corrupt_file", "The PNG is damaged: its header is missing.");
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * Size of the image as displayed (EXIF orientation applied), read from headers only, and the pixel limit enforced.
 * Cheap: nothing is decoded.
 */
export async function inspectImage(bytes: Uint8Array, type: "png" | "jpeg"): Promise<ImageSize> {
  if (type === "png") {
    const header = pngHeaderSize(bytes);
    checkPixels(header.width, header.height);
  }
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch (err) {
    throw new DocsiftError("corrupt_file", "The image is damaged and cannot be read.", { cause: err });
  }
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw new DocsiftError("corrupt_file", "The image has no readable dimensions.");
  checkPixels(width, height);
  return { width, height };
}

/** Decodes with the pixel limit, applies EXIF orientation; decode failures become typed errors. */
export function decodeImage(bytes: Uint8Array): sharp.Sharp {
  // failOn "error": a truncated phone JPEG still decodes (grey tail) rather than failing the whole upload.
  return sharp(bytes, { limitInputPixels: LIMITS.maxPixels, failOn: "error" }).rotate();
}

export async function toBuffer(image: sharp.Sharp): Promise<{ data: Buffer; info: sharp.OutputInfo }> {
  try {
    return await image.toBuffer({ resolveWithObject: true });
  } catch (err) {
    const message = err instanceof Error ? err.message : "";
    if (/pixel limit/i.test(message))
      throw new DocsiftError("image_too_large", `The image exceeds ${LIMITS.maxPixels.toLocaleString("en")} pixels.`, {
        cause: err,
      });
    throw new DocsiftError("corrupt_file", "The image is damaged and cannot be read.", { cause: err });
  }
}

/** Greyscale PNG of the upright image for OCR, and its displayed size (which becomes the page size). */
export async function imageForOcr(bytes: Uint8Array): Promise<{ png: Buffer; width: number; height: number }> {
  const { data, info } = await toBuffer(decodeImage(bytes).greyscale().png({ compressionLevel: 1 }));
  return { png: data, width: info.width, height: info.height };
}
