import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { NEARLY_EMPTY_WORDS, recogniseFaintPage, stretchContrast } from "../../src/ingest/faint-page.js";
import type { OcrEngine, OcrResult } from "../../src/ingest/ocr/engine.js";
import { type GreyImage, parsePgm, pgm } from "../../src/ingest/pgm.js";

const SIZE = 100;

/** Paper at 240 with faint ink at 200 in the middle, and a black band along the top edge (a dark background). */
function faintPage(): GreyImage {
  const data = new Uint8Array(SIZE * SIZE).fill(240);
  for (let y = 40; y < 60; y++) for (let x = 20; x < 80; x++) data[y * SIZE + x] = 200;
  for (let x = 0; x < SIZE; x++) for (let y = 0; y < 5; y++) data[y * SIZE + x] = 0;
  return { width: SIZE, height: SIZE, data };
}

describe("stretchContrast", () => {
  it("makes faint ink black and paper white, measuring away from a dark edge", () => {
    const stretched = stretchContrast(faintPage());
    assert.ok(stretched);
    assert.equal(stretched.data[50 * SIZE + 50], 0);
    assert.equal(stretched.data[80 * SIZE + 50], 255);
    // The edge stays black; it did not decide the levels (else the ink would stay grey).
    assert.equal(stretched.data[0], 0);
  });

  it("leaves alone a page that already spans the range, and a blank page", () => {
    const full = faintPage();
    for (let y = 40; y < 60; y++) for (let x = 20; x < 80; x++) full.data[y * SIZE + x] = 0;
    full.data.fill(255, 70 * SIZE);
    assert.equal(stretchContrast(full), null);
    assert.equal(stretchContrast({ width: SIZE, height: SIZE, data: new Uint8Array(SIZE * SIZE).fill(230) }), null);
  });
});

const word = (text: string, confidence: number) => ({ text, confidence, box: { x0: 0, y0: 0, x1: 0.1, y1: 0.1 } });
const reading = (n: number, confidence = 0.9): OcrResult => ({
  width: SIZE,
  height: SIZE,
  words: Array.from({ length: n }, (_, i) => word(`w${i}`, confidence)),
});

/** An engine that answers from a table keyed on the image's centre pixel, recording the images it was given. */
function engineReading(byCentre: Map<number, OcrResult>): OcrEngine & { seen: number[] } {
  const seen: number[] = [];
  return {
    name: "table",
    seen,
    async recognise(image) {
      const centre = parsePgm(image)?.data[50 * SIZE + 50] ?? -1;
      seen.push(centre);
      return byCentre.get(centre) ?? reading(0);
    },
  };
}

describe("recogniseFaintPage", () => {
  const page = faintPage();
  const image = pgm(SIZE, SIZE, page.data);

  it("keeps a full reading without a second look", async () => {
    const engine = engineReading(new Map([[200, reading(NEARLY_EMPTY_WORDS)]]));
    assert.equal((await recogniseFaintPage(engine, image)).words.length, NEARLY_EMPTY_WORDS);
    assert.deepEqual(engine.seen, [200]);
  });

  it("reads a nearly empty page again stretched, and keeps the fuller reading", async () => {
    const engine = engineReading(
      new Map([
        [200, reading(2)],
        [0, reading(40)],
      ]),
    );
    assert.equal((await recogniseFaintPage(engine, image)).words.length, 40);
    assert.deepEqual(engine.seen, [200, 0]);
  });

  it("keeps the first reading when the stretched one holds less", async () => {
    const engine = engineReading(
      new Map([
        [200, reading(5, 0.9)],
        [0, reading(8, 0.3)],
      ]),
    );
    assert.equal((await recogniseFaintPage(engine, image)).words.length, 5);
  });
});
