import assert from "node:assert/strict";
import { describe, it } from "node:test";
import sharp from "sharp";
import { officePageForOcr, type PictureBox, removePictures } from "../../src/ingest/ocr/picture-removal.js";
import type { GreyImage } from "../../src/ingest/pgm.js";

/** An A4 page at 200 dpi, body text 10 pt. */
const WIDTH = 1654;
const HEIGHT = 2339;
const FONT = 'font-family="DejaVu Sans, sans-serif"';
const TEXT = `${FONT} font-size="28" fill="#000"`;

/** An SVG page drawn by sharp (librsvg) as grey pixels. */
async function grey(body: string, width = WIDTH, height = HEIGHT): Promise<GreyImage> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="${width}" height="${height}" fill="#fff"/>${body}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  assert.equal(info.channels, 1);
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}

/** A fixed pseudo-random sequence in [0, 1) (the same pictures every run). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** A QR-like code: 29 x 29 modules of `module` pixels, three finder squares, the rest random. */
function qrCode(x: number, y: number, module = 7, seed = 3): string {
  const next = random(seed);
  const cells: string[] = [];
  const finder = (r: number, c: number): boolean | undefined => {
    for (const [fr, fc] of [
      [0, 0],
      [0, 22],
      [22, 0],
    ] as const) {
      const dr = r - fr;
      const dc = c - fc;
      if (dr < 0 || dr > 6 || dc < 0 || dc > 6) continue;
      const ring = Math.max(Math.abs(dr - 3), Math.abs(dc - 3));
      return ring !== 2;
    }
    return undefined;
  };
  for (let r = 0; r < 29; r++)
    for (let c = 0; c < 29; c++) {
      const dark = finder(r, c) ?? next() < 0.5;
      if (dark) cells.push(`<rect x="${x + c * module}" y="${y + r * module}" width="${module}" height="${module}"/>`);
    }
  return `<g fill="#000">${cells.join("")}</g>`;
}

/** A 1-D barcode: bars and spaces of 1 to 4 modules of 3 pixels, 150 pixels tall, its digits under it. */
function barcode(x: number, y: number, seed = 5): string {
  const next = random(seed);
  const bars: string[] = [];
  let at = x;
  for (let i = 0; i < 60; i++) {
    const bar = 3 * (1 + Math.floor(next() * 4));
    if (i % 2 === 0) bars.push(`<rect x="${at}" y="${y}" width="${bar}" height="150"/>`);
    at += bar;
  }
  return `<g fill="#000">${bars.join("")}</g><text x="${x + 20}" y="${y + 180}" ${TEXT}>4 006381 333931</text>`;
}

/** Lines of text at `x`, from `y` down, 40 pixels apart. */
const lines = (x: number, y: number, texts: string[], style = TEXT): string =>
  texts.map((t, i) => `<text x="${x}" y="${y + 40 * i}" ${style}>${t}</text>`).join("");

/** Dark pixels (below 128) of `image` inside `box`. */
function darkIn(image: GreyImage, box: PictureBox): number {
  let n = 0;
  for (let y = box.y0; y < box.y1; y++)
    for (let x = box.x0; x < box.x1; x++) if ((image.data[y * image.width + x] ?? 255) < 128) n++;
  return n;
}

/** Whether `image` and `before` have the same dark pixels in `box` (the text there survived). */
function kept(before: GreyImage, image: GreyImage, box: PictureBox): void {
  const was = darkIn(before, box);
  assert.ok(was > 50, `no ink in ${JSON.stringify(box)} to begin with`);
  assert.equal(darkIn(image, box), was, `ink lost in ${JSON.stringify(box)}`);
}

/** Whether `image` has (almost) no dark pixels left in `box` that `before` had many of. */
function gone(before: GreyImage, image: GreyImage, box: PictureBox): void {
  const was = darkIn(before, box);
  assert.ok(was > 2000, `no picture in ${JSON.stringify(box)} to begin with: ${was}`);
  assert.ok(darkIn(image, box) < 0.02 * was, `picture in ${JSON.stringify(box)} kept: ${darkIn(image, box)} of ${was}`);
}

const ADDRESS = ["Adatum Corporation", "Station Road, 21", "48436 Düsseldorf"];
const SUPPLIER = ["CRONUS DE", "Hofstraße 12", "20097 Hamburg"];

describe("removePictures", () => {
  it("whitens a QR code between two address blocks and keeps the addresses", async () => {
    // The code's quiet zone (4 modules) apart from the text on each side, as printed codes have.
    const before = await grey(lines(150, 420, ADDRESS) + qrCode(700, 380) + lines(1000, 420, SUPPLIER));
    const { image, pictures } = removePictures(before);
    assert.equal(pictures.length, 1);
    gone(before, image, { x0: 700, y0: 380, x1: 903, y1: 583 });
    kept(before, image, { x0: 140, y0: 380, x1: 660, y1: 520 });
    kept(before, image, { x0: 960, y0: 380, x1: 1600, y1: 520 });
  });

  it("whitens a barcode and keeps the text beside it", async () => {
    const before = await grey(lines(150, 620, ["Order 101628", "Parcel 12/3"]) + barcode(700, 600));
    const { image } = removePictures(before);
    gone(before, image, { x0: 700, y0: 600, x1: 1000, y1: 750 });
    kept(before, image, { x0: 140, y0: 580, x1: 600, y1: 680 });
  });

  it("keeps bold headings, a dark band with white titles, a light band with black ones, and a bold paragraph", async () => {
    const bold = `${FONT} font-weight="bold" fill="#000"`;
    const before = await grey(
      `<text x="150" y="200" ${bold} font-size="110">RECHNUNG</text>` +
        `<text x="150" y="330" ${bold} font-size="56">Invoice 103767 WMB</text>` +
        // A table's header band, dark with white titles, one and two lines tall.
        '<rect x="150" y="420" width="1350" height="56" fill="#333"/>' +
        `<text x="170" y="458" ${FONT} font-size="28" font-weight="bold" fill="#fff">Description   Quantité   Prix unitaire HT   TVA   Total HT</text>` +
        '<rect x="150" y="520" width="600" height="100" fill="#222"/>' +
        lines(170, 560, ["Montant total", "TTC à payer"], `${FONT} font-size="30" font-weight="bold" fill="#fff"`) +
        '<rect x="150" y="680" width="1350" height="56" fill="#ddd"/>' +
        `<text x="170" y="718" ${TEXT}>Pos.  Artikelbeschreibung  Menge  Preis  Betrag</text>` +
        lines(
          150,
          820,
          [
            "MMMMWWWW BBBBBBB MMMMWWWW BBBBBBB MMMWW",
            "WWWMMMM 8888888 WWWMMMM ########## MMM",
            "MMMMWWWW BBBBBBB MMMMWWWW BBBBBBB MMMWW",
            "WWWMMMM 8888888 WWWMMMM ########## MMM",
          ],
          `${FONT} font-size="30" font-weight="bold" fill="#000" letter-spacing="-1"`,
        ) +
        // A signature: a thin scrawl.
        '<path d="M 200 1200 C 260 1080, 300 1300, 360 1180 S 460 1100, 520 1220 S 600 1150, 700 1190" ' +
        'stroke="#000" stroke-width="3" fill="none"/>',
    );
    const { image, pictures } = removePictures(before);
    assert.deepEqual(pictures, []);
    assert.equal(image, before);
  });

  it("keeps big bold figures printed dithered (a dot pattern, as a thermal or fax print gives)", async () => {
    const dots =
      '<pattern id="dots" width="3" height="3" patternUnits="userSpaceOnUse">' +
      '<rect width="3" height="3" fill="#000"/><rect x="1" y="1" width="1" height="1" fill="#fff"/>' +
      '<rect x="2" y="0" width="1" height="1" fill="#fff"/></pattern>';
    const before = await grey(
      `<defs>${dots}</defs>` +
        lines(150, 300, ["GST ID: 0016 6993 5104", "TAX INVOICE NO"]) +
        `<text x="150" y="520" ${FONT} font-weight="bold" font-size="120" fill="url(#dots)">47 6993</text>`,
    );
    const { image, pictures } = removePictures(before);
    assert.deepEqual(pictures, []);
    assert.equal(image, before);
  });
});

describe("officePageForOcr", () => {
  it("takes a QR code out of an office page and leaves a receipt (a strip taller than A4) as it is", async () => {
    const body = lines(60, 120, ["KEDAI RUNCIT", "TOTAL 12.50"]) + qrCode(100, 300, 6);
    const a4 = await grey(body, 700, 990);
    const out = officePageForOcr(a4);
    gone(a4, out, { x0: 100, y0: 300, x1: 274, y1: 474 });
    kept(a4, out, { x0: 50, y0: 80, x1: 600, y1: 170 });
    const strip = await grey(body, 500, 1200);
    assert.equal(officePageForOcr(strip), strip);
  });
});
