import assert from "node:assert/strict";
import { describe, it } from "node:test";
import sharp from "sharp";
import { boxAsUploaded, quarterTurn } from "../../src/document/page-frame.js";
import { boxBeforeRotation, measureOrientation, UPRIGHT, uprightBox } from "../../src/ingest/ocr/orientation.js";
import { buildPage } from "../../src/ingest/page-builder.js";
import type { GreyImage } from "../../src/ingest/pgm.js";
import { textPage, turned } from "../helpers/text-page.js";

const MIXED_CASE = [
  "Rechnung Nr. 4711 vom 12. März 2025",
  "Lieferant: Müllermann GmbH, Lieferantenstraße 20, 50667 Köln",
  "Beschreibung der gelieferten Waren und Dienstleistungen",
  "Gesamtbetrag zahlbar innerhalb von 30 Tagen: 1.234,50 EUR",
  "Vielen Dank für Ihren Auftrag. Grüße aus Düsseldorf",
];

async function grey(png: Buffer): Promise<GreyImage> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

describe("measureOrientation: how a page image lies", () => {
  it("finds the turn and skew that make a page upright", async () => {
    const page = await textPage(MIXED_CASE);
    const cases: Array<[number, number, number]> = [
      [0, 0, 0],
      [90, 270, 0],
      [180, 180, 0],
      [270, 90, 0],
      [3, 0, -3],
      [-3, 0, 3],
      [92, 270, -2],
    ];
    for (const [turnedBy, turn, skew] of cases) {
      const measured = measureOrientation(await grey(await turned(page, turnedBy)));
      assert.equal(measured.turn, turn, `turned ${turnedBy}°: ${JSON.stringify(measured)}`);
      assert.ok(Math.abs(measured.skew - skew) <= 0.3, `turned ${turnedBy}°: ${JSON.stringify(measured)}`);
    }
  });

  it("leaves upper-case print and blank pages as they are (nothing tells up from down)", async () => {
    const shouting = await textPage(MIXED_CASE.map((l) => l.toUpperCase()));
    assert.equal(measureOrientation(await grey(await turned(shouting, 180))).turn, 0);
    const blank = { width: 800, height: 1000, data: new Uint8Array(800 * 1000).fill(250) };
    assert.deepEqual(measureOrientation(blank), UPRIGHT);
  });
});

describe("boxBeforeRotation: boxes read on the corrected page, on the page as given", () => {
  const original = { width: 400, height: 200 };

  it("maps quarter and half turns exactly", () => {
    const box = { x0: 0.1, y0: 0.2, x1: 0.3, y1: 0.4 };
    // The original turned 90° clockwise is 200 x 400: its point (x, y) was the original's (y, 200 - x).
    const back = boxBeforeRotation(box, 90, original, { width: 200, height: 400 });
    const expected = {
      x0: (0.2 * 400) / 400,
      y0: (200 - 0.3 * 200) / 200,
      x1: (0.4 * 400) / 400,
      y1: (200 - 0.1 * 200) / 200,
    };
    for (const k of ["x0", "y0", "x1", "y1"] as const) assert.ok(Math.abs(back[k] - expected[k]) < 1e-9, k);
    const half = boxBeforeRotation(box, 180, original, original);
    assert.deepEqual(
      Object.values(half).map((v) => Number(v.toFixed(9))),
      [0.7, 0.6, 0.9, 0.8],
    );
  });

  it("holds a tilted word's corners and stays on the page", () => {
    const back = boxBeforeRotation({ x0: 0, y0: 0, x1: 1, y1: 1 }, 3, original, { width: 410, height: 221 });
    assert.deepEqual(back, { x0: 0, y0: 0, x1: 1, y1: 1 });
  });
});

describe("a page read turned: built upright, its boxes mapped back onto the page as uploaded", () => {
  // Two lines of three words on the upright page (ratios of a 1000 x 600 frame).
  const UPRIGHT_WORDS = [
    ["Rechnung", 0.1, 0.1, 0.3, 0.14],
    ["Nr.", 0.32, 0.1, 0.38, 0.14],
    ["4711", 0.4, 0.1, 0.5, 0.14],
    ["Gesamtbetrag", 0.1, 0.2, 0.4, 0.24],
    ["1.234,50", 0.6, 0.2, 0.75, 0.24],
    ["EUR", 0.77, 0.2, 0.85, 0.24],
  ] as const;

  for (const degrees of [90, 180, 270, 3, -3, 93]) {
    it(`builds the upright lines of a page OCR turned ${degrees}°`, () => {
      const a = (degrees * Math.PI) / 180;
      // The page as uploaded, and the upright image OCR read: the uploaded page turned `degrees`, grown to hold it.
      const uploaded = Math.abs(Math.sin(a)) > 0.5 ? { width: 600, height: 1000 } : { width: 1000, height: 600 };
      const [c, s] = [Math.abs(Math.cos(a)), Math.abs(Math.sin(a))];
      const upright = {
        width: uploaded.width * c + uploaded.height * s,
        height: uploaded.width * s + uploaded.height * c,
      };
      const raw = UPRIGHT_WORDS.map(([text, x0, y0, x1, y1]) => ({
        text,
        box: boxBeforeRotation({ x0, y0, x1, y1 }, degrees, uploaded, upright),
        confidence: 0.9,
      }));
      // Shuffled, as an engine's words may come.
      const page = buildPage(1, uploaded, "ocr", [...raw].reverse(), 0, degrees);
      const text = (ids: number[]) => ids.map((id) => page.words[id]!.text).join(" ");
      assert.deepEqual(
        page.lines.map((l) => text(l.wordIds)),
        ["Rechnung Nr. 4711", "Gesamtbetrag 1.234,50 EUR"],
      );
      // Built turned back by the quarter or half turn, which the page records (a skew stays in the boxes): its size
      // is the upright page's, sides swapped by a quarter turn.
      const quarter = quarterTurn(degrees);
      assert.equal(page.rotation, quarter === 0 ? undefined : quarter);
      const frame = s > 0.5 ? { width: uploaded.height, height: uploaded.width } : uploaded;
      assert.deepEqual({ width: page.width, height: page.height }, frame);
      const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-6, `${what}: ${a} vs ${b}`);
      for (const w of page.words) {
        const [, x0, y0, x1, y1] = UPRIGHT_WORDS.find(([text]) => text === w.text)!;
        // The upright frame and the image OCR read share their centre: the word lies as far from it in both.
        const x = (r: number) => ((r - 0.5) * upright.width) / frame.width + 0.5;
        const y = (r: number) => ((r - 0.5) * upright.height) / frame.height + 0.5;
        const expected = { x0: x(x0), y0: y(y0), x1: x(x1), y1: y(y1) };
        const onUpload = raw.find((r) => r.text === w.text)!.box;
        const back = boxAsUploaded(w.box, page);
        for (const k of ["x0", "y0", "x1", "y1"] as const) {
          if (degrees === quarter) near(w.box[k], expected[k], `${w.text} upright ${k}`);
          near(back[k], onUpload[k], `${w.text} back on the page as uploaded ${k}`);
        }
      }
    });
  }

  it("uprightBox undoes boxBeforeRotation", () => {
    const uploaded = { width: 600, height: 1000 };
    const upright = { width: 1000, height: 600 };
    const box = { x0: 0.2, y0: 0.3, x1: 0.5, y1: 0.35 };
    const back = uprightBox(boxBeforeRotation(box, 90, uploaded, upright), 90, uploaded);
    const expected = { x0: -300, y0: -120, x1: 0, y1: -90 };
    for (const k of ["x0", "y0", "x1", "y1"] as const)
      assert.ok(Math.abs(back[k] - expected[k]) < 1e-6, `${k} ${back[k]}`);
  });
});
