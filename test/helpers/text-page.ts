import sharp from "sharp";

/** An A4 page at 200 dpi, in pixels (what ingest reads a scanned PDF page as). */
export const A4_200DPI = { width: 1654, height: 2339 };

const escapeXml = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Where a line of `textPage` starts, in pixels of the upright page. */
export function lineOrigin(index: number): { x: number; y: number } {
  return { x: 120, y: 200 + index * 70 };
}

/** A grey PNG of an upright A4 page printing `lines` in 34 px DejaVu Sans (a text page as a scanner gives it). */
export async function textPage(lines: readonly string[]): Promise<Buffer> {
  const { width, height } = A4_200DPI;
  const text = lines
    .map((line, i) => {
      const { x, y } = lineOrigin(i);
      return `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="34" fill="black">${escapeXml(line)}</text>`;
    })
    .join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).greyscale().png().toBuffer();
}

/** `png` turned `degrees` clockwise on white paper (sharp grows the canvas to hold it), as a PNG. */
export function turned(png: Buffer, degrees: number): Promise<Buffer> {
  return sharp(png).rotate(degrees, { background: "#ffffff" }).greyscale().png().toBuffer();
}

/**
 * Where a point of the upright page (pixels, `size`) lies on the page turned `degrees` clockwise about its centre
 * (`turnedSize`, the grown canvas), in pixels.
 */
export function pointOnTurned(
  point: { x: number; y: number },
  degrees: number,
  size: { width: number; height: number },
  turnedSize: { width: number; height: number },
): { x: number; y: number } {
  const a = (degrees * Math.PI) / 180;
  const dx = point.x - size.width / 2;
  const dy = point.y - size.height / 2;
  return {
    x: dx * Math.cos(a) - dy * Math.sin(a) + turnedSize.width / 2,
    y: dx * Math.sin(a) + dy * Math.cos(a) + turnedSize.height / 2,
  };
}
