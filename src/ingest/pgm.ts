/**
 * Binary PGM (P5): a 15-byte header before raw grey pixels. OCR engines (leptonica underneath both) read it with no
 * decoding, and writing it costs nothing, whereas PNG compression of a 200 dpi page costs 150-400 ms.
 */
export function pgm(width: number, height: number, grey: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${width} ${height}\n255\n`, "latin1"), grey]);
}

/** RGBA -> grey with integer Rec. 601 luma weights (what sharp and leptonica use). */
export function rgbaToGrey(rgba: Uint8Array | Uint8ClampedArray): Uint8Array {
  const grey = new Uint8Array(rgba.length >>> 2);
  for (let i = 0, j = 0; j < grey.length; i += 4, j++)
    grey[j] = (rgba[i]! * 77 + rgba[i + 1]! * 150 + rgba[i + 2]! * 29) >> 8;
  return grey;
}

/** A one-channel 8-bit image: `width * height` grey bytes, row-major. */
export interface GreyImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** `P5`, width, height and maxval, separated by whitespace and `#` comments, then one whitespace byte. */
const PGM_HEADER = /^P5(?:\s|#[^\n]*\n)+(\d+)(?:\s|#[^\n]*\n)+(\d+)(?:\s|#[^\n]*\n)+(\d+)\s/;

/**
 * Reads a binary 8-bit PGM (what pgm() writes) without copying its pixels; null when the bytes are not one (PNG,
 * JPEG, 16-bit PGM), so the caller can decode them another way. A PGM shorter than its header says is an error.
 */
export function parsePgm(bytes: Uint8Array): GreyImage | null {
  const header = PGM_HEADER.exec(
    Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 512)).toString("latin1"),
  );
  if (!header || Number(header[3]) > 255) return null;
  const width = Number(header[1]);
  const height = Number(header[2]);
  const start = header[0].length;
  if (bytes.length < start + width * height)
    throw new Error(`The PGM holds ${bytes.length - start} pixel bytes, not ${width * height}.`);
  return { width, height, data: bytes.subarray(start, start + width * height) };
}

/**
 * The grey level below which `share` of the pixels counted in `histogram` (256 bins, `total` pixels) lie: the
 * paper's level at a high share, the ink's at a low one.
 */
export function greyLevelAt(histogram: ArrayLike<number>, total: number, share: number): number {
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v] ?? 0;
    if (seen >= share * total) return v;
  }
  return 255;
}
