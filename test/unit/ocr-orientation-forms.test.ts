import assert from "node:assert/strict";
import { describe, it } from "node:test";
import sharp from "sharp";
import { corpusPlan } from "../../bench/synth/corpus.js";
import { generateDocument } from "../../bench/synth/document.js";
import { renderPage } from "../../src/ingest/index.js";
import type { OcrEngine, OcrResult } from "../../src/ingest/ocr/engine.js";
import { measureOrientation, type PageOrientation } from "../../src/ingest/ocr/orientation.js";
import { withUprightPages } from "../../src/ingest/ocr/orientation-engine.js";
import { type GreyImage, parsePgm, pgm } from "../../src/ingest/pgm.js";

/**
 * Page 1 of three synthetic invoices (bench/synth, the corpus `--count 40 --seed 21` makes: its 31st-33rd documents),
 * boxed and ruled, rendered at 200 dpi. Before the tiled sideways test the measure left all three as they were when
 * turned 90° or 270°; their up and down it tells weakly (doubtful) or not at all.
 */
const FORMS = [30, 31, 32];

let rendered: Promise<Buffer[]> | undefined;
/** The forms' pages as PNGs, rendered once for all tests. */
function formPages(): Promise<Buffer[]> {
  rendered ??= renderForms();
  return rendered;
}

async function renderForms(): Promise<Buffer[]> {
  const plan = corpusPlan(21, 40, 0.6);
  const pages: Buffer[] = [];
  for (const index of FORMS) {
    const entry = plan[index]!;
    assert.equal(entry.kind, "invoice");
    pages.push(await renderPage((await generateDocument(entry.seed, entry.kind)).pdf, 1, { dpi: 200 }));
  }
  return pages;
}

async function grey(png: Buffer, degrees: number): Promise<GreyImage> {
  const { data, info } = await sharp(png)
    .rotate(degrees, { background: "#ffffff" })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/** Right, or wrong by a half turn and saying so (the reading then settles it: see below). */
function settles(measured: PageOrientation, turn: number): boolean {
  return measured.turn === turn || (measured.doubtful === true && (measured.turn + 180) % 360 === turn);
}

describe("measureOrientation on boxed and ruled forms", () => {
  it("finds that a form lies sideways, and which way up or that it cannot tell", async () => {
    for (const [i, page] of (await formPages()).entries()) {
      for (const [turnedBy, turn] of [
        [0, 0],
        [90, 270],
        [180, 180],
        [270, 90],
      ] as const) {
        const measured = measureOrientation(await grey(page, turnedBy));
        assert.ok(settles(measured, turn), `form ${FORMS[i]} turned ${turnedBy}°: ${JSON.stringify(measured)}`);
      }
    }
  });

  it("leaves a receipt-like strip of upper-case, fixed-width lines as it is, level or tilted", async () => {
    const lines = [
      "SUPERMARKT HAUPTSTRASSE 12",
      "10115 BERLIN  TEL 030 1234567",
      "BROT VOLLKORN        2.49 A",
      "MILCH 1L             1.19 A",
      "KAFFEE BOHNEN       12.99 A",
      "WASCHMITTEL          6.45 B",
      "SUMME EUR           23.12",
      "BAR                 30.00",
      "RUECKGELD            6.88",
      "MWST A 7%  1.09  B 19%  1.03",
      "DANKE FUER IHREN EINKAUF",
    ];
    const text = lines
      .map((l, i) => `<text x="40" y="${90 + i * 44}" font-family="DejaVu Sans Mono" font-size="30">${l}</text>`)
      .join("");
    const paper = `<rect width="100%" height="100%" fill="white"/>`;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="620" height="620">${paper}${text}</svg>`;
    const strip = await sharp(Buffer.from(svg)).greyscale().png().toBuffer();
    for (const turnedBy of [0, 3, -3]) {
      const measured = measureOrientation(await grey(strip, turnedBy));
      assert.equal(measured.turn, 0, `turned ${turnedBy}°: ${JSON.stringify(measured)}`);
    }
  });
});

describe("withUprightPages on a form the measure was doubtful of", () => {
  /**
   * An engine that reads well only the form as printed: confident words when the image it is given is the upright
   * page (its pixels), a few doubtful ones otherwise.
   */
  function engineReadingOnly(upright: GreyImage) {
    const sizes: string[] = [];
    const engine: OcrEngine = {
      name: "scripted",
      async recognise(image): Promise<OcrResult> {
        const page = parsePgm(image)!;
        sizes.push(`${page.width}x${page.height}`);
        let differ = 0;
        if (page.width === upright.width && page.height === upright.height)
          for (let i = 0; i < page.data.length; i += 97)
            differ += Math.abs(page.data[i]! - upright.data[i]!) > 64 ? 1 : 0;
        const isUpright = page.width === upright.width && differ < page.data.length / 97 / 50;
        const box = { x0: 0.1, y0: 0.1, x1: 0.2, y1: 0.12 };
        const words = Array.from({ length: isUpright ? 40 : 12 }, () => ({
          text: isUpright ? "Rechnung" : "~:",
          confidence: isUpright ? 0.9 : 0.35,
          box,
        }));
        return { width: page.width, height: page.height, words, lines: [words.map((_, i) => i)] };
      },
    };
    return { engine, sizes };
  }

  it("reads an upside-down form it left as uploaded a half turn too, and keeps that reading", async () => {
    // The first form upside down: measured as uploaded, doubtful (asserted, so that the test covers that path).
    const page = (await formPages())[0]!;
    const upright = await grey(page, 0);
    const upsideDown = await grey(page, 180);
    assert.deepEqual(measureOrientation(upsideDown), { turn: 0, skew: 0, doubtful: true });
    const { engine, sizes } = engineReadingOnly(upright);
    const result = await withUprightPages(engine).recognise(pgm(upsideDown.width, upsideDown.height, upsideDown.data));
    assert.equal(sizes.length, 2);
    assert.equal(result.rotation, 180);
    assert.equal(result.words[0]?.text, "Rechnung");
  });

  it("reads the same form upright once", async () => {
    const page = (await formPages())[0]!;
    const upright = await grey(page, 0);
    assert.equal(measureOrientation(upright).doubtful, true);
    const { engine, sizes } = engineReadingOnly(upright);
    const result = await withUprightPages(engine).recognise(pgm(upright.width, upright.height, upright.data));
    assert.equal(sizes.length, 1);
    assert.equal(result.rotation ?? 0, 0);
  });
});
