import assert from "node:assert/strict";
import { describe, it } from "node:test";
import sharp from "sharp";
import { officePageForOcr } from "../../src/ingest/ocr/picture-removal.js";
import { removeRules } from "../../src/ingest/ocr/rule-removal.js";
import type { GreyImage } from "../../src/ingest/pgm.js";

const WIDTH = 1000;
const HEIGHT = 600;
const TEXT = 'font-family="DejaVu Sans, sans-serif" font-size="28" fill="#000"';

/** An SVG page drawn by sharp (librsvg) as grey pixels. */
async function grey(svg: string): Promise<GreyImage> {
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  assert.equal(info.channels, 1);
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}

const page = (body: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">` +
  `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>${body}</svg>`;

/** A ruled table: a light grey header band with column titles, ruled cells with figures, one word across a rule. */
const TABLE =
  '<rect x="50" y="100" width="900" height="60" fill="#e4e4e4"/>' +
  '<g stroke="#000" stroke-width="3">' +
  '<line x1="50" y1="100" x2="950" y2="100"/><line x1="50" y1="160" x2="950" y2="160"/>' +
  '<line x1="50" y1="300" x2="950" y2="300"/>' +
  '<line x1="50" y1="100" x2="50" y2="300"/><line x1="500" y1="100" x2="500" y2="300"/>' +
  '<line x1="950" y1="100" x2="950" y2="300"/>' +
  // A rule tilted as levelling may leave it (0.25°).
  '<line x1="50" y1="420" x2="950" y2="424"/></g>' +
  `<text x="70" y="142" ${TEXT}>P.U. HT (EUR)</text><text x="520" y="142" ${TEXT}>TOTAL HT</text>` +
  `<text x="70" y="230" ${TEXT}>12,50</text><text x="520" y="230" ${TEXT}>100,00</text>` +
  // Glyphs standing across the bottom rule.
  `<text x="700" y="312" ${TEXT}>Qté</text>`;

/** Text words inside `box` of the page: dark pixels (below 128) there. */
function darkIn(
  image: GreyImage,
  box: { x0: number; y0: number; x1: number; y1: number },
  skipRows?: [number, number],
) {
  let n = 0;
  for (let y = box.y0; y < box.y1; y++) {
    if (skipRows && y >= skipRows[0] && y <= skipRows[1]) continue;
    for (let x = box.x0; x < box.x1; x++) if ((image.data[y * image.width + x] ?? 255) < 128) n++;
  }
  return n;
}

const at = (image: GreyImage, x: number, y: number): number => image.data[y * image.width + x] ?? -1;

describe("removeRules", () => {
  it("whitens horizontal and vertical rules, a tilted one too, and the shaded band", async () => {
    const before = await grey(page(TABLE));
    const { image, horizontal, vertical } = removeRules(before, { shading: true });
    assert.ok(horizontal >= 4, `horizontal rules ${horizontal}`);
    assert.ok(vertical >= 3, `vertical rules ${vertical}`);
    // On a rule, away from text: dark before, paper after.
    for (const [x, y] of [
      [300, 100],
      [300, 160],
      [300, 300],
      [50, 250],
      [500, 250],
      [950, 200],
      [200, 420],
      [800, 423],
    ] as const) {
      assert.ok(at(before, x, y) < 100, `(${x}, ${y}) is on a rule: ${at(before, x, y)}`);
      assert.ok(at(image, x, y) >= 240, `(${x}, ${y}) still dark: ${at(image, x, y)}`);
    }
    // The shaded band, between the titles: light grey before, white after.
    assert.ok(at(before, 400, 130) < 240 && at(before, 400, 130) > 200);
    assert.equal(at(image, 400, 130), 255);
    // Unless asked, the shading stays.
    assert.equal(at(removeRules(before).image, 400, 130), at(before, 400, 130));
  });

  it("whitens hairline rules a scan blurred much lighter than its text", async () => {
    // A table's hairlines at grey 175 among black text: the scan's blur leaves a 1-pixel rule this light.
    const hairlines =
      '<g stroke="#afafaf" stroke-width="2">' +
      '<line x1="50" y1="100" x2="950" y2="100"/><line x1="50" y1="160" x2="950" y2="160"/>' +
      '<line x1="50" y1="100" x2="50" y2="300"/><line x1="950" y1="100" x2="950" y2="300"/></g>' +
      `<text x="70" y="142" ${TEXT}>Description</text><text x="520" y="142" ${TEXT}>Prix HT</text>` +
      `<text x="70" y="230" ${TEXT}>Nougat 250g</text><text x="520" y="230" ${TEXT}>-20,48</text>` +
      // The page's other print, which sets how dark its ink is.
      [380, 430, 480, 530]
        .map(
          (y) =>
            `<text x="70" y="${y}" font-family="DejaVu Sans, sans-serif" font-size="40" font-weight="bold">Avoir suite à bidon percé</text>`,
        )
        .join("");
    const before = await grey(page(hairlines));
    const { image, horizontal } = removeRules(before);
    assert.ok(horizontal >= 2, `horizontal rules ${horizontal}`);
    assert.ok(
      at(before, 300, 100) < 200 && at(image, 300, 100) > 240,
      `rule pixel ${at(before, 300, 100)} -> ${at(image, 300, 100)}`,
    );
    assert.equal(
      darkIn(image, { x0: 60, y0: 200, x1: 300, y1: 240 }),
      darkIn(before, { x0: 60, y0: 200, x1: 300, y1: 240 }),
    );
  });

  it("keeps the glyphs: the column titles, the figures and the word across a rule", async () => {
    const before = await grey(page(TABLE));
    const { image } = removeRules(before);
    for (const box of [
      { x0: 65, y0: 110, x1: 290, y1: 152 },
      { x0: 515, y0: 110, x1: 680, y1: 152 },
      { x0: 65, y0: 200, x1: 160, y1: 240 },
      { x0: 515, y0: 200, x1: 630, y1: 240 },
    ]) {
      const kept = darkIn(image, box);
      const had = darkIn(before, box);
      assert.ok(had > 200, `text drawn in ${JSON.stringify(box)}`);
      assert.ok(kept >= 0.97 * had, `${kept} of ${had} glyph pixels kept in ${JSON.stringify(box)}`);
    }
    // "Qté" stands on the rule at y=300: its pixels off the rule are all kept, and where its strokes cross the rule
    // the rule's pixels stay too (no gap cut through a letter).
    const word = { x0: 695, y0: 280, x1: 760, y1: 320 };
    assert.ok(darkIn(image, word, [297, 303]) >= 0.97 * darkIn(before, word, [297, 303]));
    assert.ok(darkIn(image, { x0: 695, y0: 298, x1: 760, y1: 302 }) > 0, "the crossings are kept");
  });

  it("whitens the short sides of a one-line box, and keeps its text and the letters' own strokes", async () => {
    // The box is 28 px tall: its sides are shorter than a vertical rule must be, but they join its top and bottom.
    const boxed =
      '<rect x="100" y="400" width="400" height="28" fill="none" stroke="#000" stroke-width="3"/>' +
      `<text x="110" y="421" font-family="DejaVu Sans, sans-serif" font-size="16" fill="#000">Date d'échéance : 02/03/2026</text>` +
      `<text x="40" y="100" ${TEXT}>lll Il|l 1234 ffff</text>`;
    const before = await grey(page(boxed));
    const { image } = removeRules(before);
    for (const [x, y] of [
      [100, 414],
      [500, 414],
    ] as const) {
      assert.ok(at(before, x, y) < 100, `(${x}, ${y}) is on a side: ${at(before, x, y)}`);
      assert.ok(at(image, x, y) >= 240, `(${x}, ${y}) still dark: ${at(image, x, y)}`);
    }
    const text = { x0: 106, y0: 404, x1: 494, y1: 425 };
    assert.ok(darkIn(image, text) >= 0.97 * darkIn(before, text));
    const strokes = { x0: 35, y0: 70, x1: 400, y1: 110 };
    assert.equal(darkIn(image, strokes), darkIn(before, strokes));
  });

  it("leaves no grey dashes along a tilted rule (they read as a row of dots)", async () => {
    const before = await grey(page(TABLE));
    const { image } = removeRules(before);
    let darkest = 255;
    let where = "";
    for (let x = 60; x < 940; x++)
      for (let y = 414; y < 431; y++)
        if (at(image, x, y) < darkest) [darkest, where] = [at(image, x, y), `(${x}, ${y})`];
    assert.ok(darkest >= 200, `${where} left at grey ${darkest}`);
  });

  it("leaves a page of text without rules as it is (the same image)", async () => {
    const lines = Array.from(
      { length: 10 },
      (_, i) => `<text x="40" y="${60 + 50 * i}" ${TEXT}>Line ${i}: MMMMWWW ______ == 1.234,56 EUR ---- mmmm</text>`,
    ).join("");
    const before = await grey(page(lines));
    const result = removeRules(before);
    assert.equal(result.image, before);
    assert.equal(result.horizontal + result.vertical, 0);
  });

  it("leaves a blank page as it is", () => {
    const blank: GreyImage = { width: 200, height: 200, data: new Uint8Array(200 * 200).fill(250) };
    assert.equal(removeRules(blank).image, blank);
  });
});

describe("officePageForOcr", () => {
  /** A page `width` x `height` with one long rule across it and lines of text under it. */
  const ruled = (width: number, height: number) =>
    grey(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
        `<rect width="${width}" height="${height}" fill="#fff"/>` +
        `<line x1="20" y1="200" x2="${width - 20}" y2="200" stroke="#000" stroke-width="3"/>` +
        Array.from({ length: 12 }, (_, i) => `<text x="30" y="${260 + 40 * i}" ${TEXT}>Item ${i} 12,50</text>`).join(
          "",
        ) +
        "</svg>",
    );

  it("takes the rules out of an office page (A4 or shorter)", async () => {
    const a4 = await ruled(700, 990);
    const out = officePageForOcr(a4);
    assert.notEqual(out, a4);
    assert.ok(at(out, 350, 200) >= 240);
  });

  it("leaves a receipt (a strip taller than A4) as it is", async () => {
    const strip = await ruled(500, 1200);
    assert.equal(officePageForOcr(strip), strip);
  });
});
