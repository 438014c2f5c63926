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
