import assert from "node:assert/strict";
import { describe, it } from "node:test";
import sharp from "sharp";
import type { OcrEngine, OcrResult } from "../../src/ingest/ocr/engine.js";
import { withUprightPages } from "../../src/ingest/ocr/orientation-engine.js";
import type { ReadingRefinement } from "../../src/ingest/ocr/rereading.js";
import { type GreyImage, parsePgm, pgm } from "../../src/ingest/pgm.js";
import { textPage, turned } from "../helpers/text-page.js";

const LINES = [
  "Rechnung Nr. 4711 vom 12. März 2025",
  "Lieferant: Müllermann GmbH, Lieferantenstraße 20, 50667 Köln",
  "Beschreibung der gelieferten Waren und Dienstleistungen",
  "Gesamtbetrag zahlbar innerhalb von 30 Tagen: 1.234,50 EUR",
];

/** A page turned `degrees` (a quarter turn by default), as ingest sends it (grey PGM). */
async function sidewaysPage(degrees = 90): Promise<Buffer> {
  const { data, info } = await sharp(await turned(await textPage(LINES), degrees))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return pgm(info.width, info.height, data);
}

/** A reading of `words` words of `text`, each at `confidence`, on an image of `width` x `height`. */
function reading(image: GreyImage, words: number, confidence: number, text = "Rechnung"): OcrResult {
  const box = { x0: 0.1, y0: 0.1, x1: 0.2, y1: 0.12 };
  return {
    width: image.width,
    height: image.height,
    words: Array.from({ length: words }, () => ({ text, confidence, box })),
    lines: [Array.from({ length: words }, (_, i) => i)],
  };
}

/** An engine whose reading of each image it is given comes from `read` (by call); records the images' sizes. */
function scriptedEngine(read: (image: GreyImage, call: number) => OcrResult) {
  const sizes: string[] = [];
  const engine: OcrEngine = {
    name: "scripted",
    async recognise(image) {
      const grey = parsePgm(image);
      assert.ok(grey);
      sizes.push(`${grey.width}x${grey.height}`);
      return read(grey, sizes.length - 1);
    },
  };
  return { engine, sizes };
}

/** A refinement that records the readings it is given and marks what it returns. */
function recordingRefinement() {
  const refined: { words: number; size: string }[] = [];
  const refine: ReadingRefinement = async (result, pixels) => {
    const image = await pixels();
    refined.push({ words: result.words.length, size: `${image.width}x${image.height}` });
    return { ...result, words: result.words.map((w) => ({ ...w, text: `${w.text}!` })) };
  };
  return { refine, refined };
}

describe("withUprightPages: readings of a page measured as turned", () => {
  it("refines only the reading it keeps, on the image that reading was read from", async () => {
    const page = await sidewaysPage();
    // The turned reading is doubtful, so the page as uploaded is read too, and it is the fuller one.
    const { engine, sizes } = scriptedEngine((image, call) =>
      call === 0 ? reading(image, 3, 0.3) : reading(image, 40, 0.9),
    );
    const { refine, refined } = recordingRefinement();
    const result = await withUprightPages(engine, refine).recognise(page);
    assert.equal(sizes.length, 2);
    assert.deepEqual(refined, [{ words: 40, size: sizes[1] }]);
    assert.equal(result.words[0]?.text, "Rechnung!");
    assert.equal(result.rotation ?? 0, 0);
  });

  it("keeps a confident reading of the turned page without reading the page as uploaded", async () => {
    const page = await sidewaysPage();
    const { engine, sizes } = scriptedEngine((image) => reading(image, 40, 0.9));
    const { refine, refined } = recordingRefinement();
    const result = await withUprightPages(engine, refine).recognise(page);
    const uploaded = parsePgm(page)!;
    assert.equal(sizes.length, 1);
    assert.notEqual(sizes[0], `${uploaded.width}x${uploaded.height}`);
    assert.deepEqual(refined, [{ words: 40, size: sizes[0] }]);
    assert.equal(result.rotation, 270);
    assert.deepEqual(
      { width: result.width, height: result.height },
      { width: uploaded.width, height: uploaded.height },
    );
  });

  it("reads a page measured upside down as uploaded first, and keeps that reading when it is confident", async () => {
    const page = await sidewaysPage(180);
    const { engine, sizes } = scriptedEngine((image) => reading(image, 40, 0.9));
    const result = await withUprightPages(engine).recognise(page);
    assert.equal(sizes.length, 1);
    assert.equal(result.rotation ?? 0, 0);
  });

  it("reads a page measured upside down turned too when the reading as uploaded is doubtful", async () => {
    const page = await sidewaysPage(180);
    const { engine, sizes } = scriptedEngine((image, call) =>
      call === 0 ? reading(image, 40, 0.3) : reading(image, 40, 0.9),
    );
    const result = await withUprightPages(engine).recognise(page);
    assert.equal(sizes.length, 2);
    assert.equal(result.rotation, 180);
  });
});
