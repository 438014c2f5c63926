import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import sharp from "sharp";
import { createTesseractJs } from "../../src/ingest/ocr/tesseract-js.js";

/** A page with one line of black print and one of white print on a black band. */
async function pageWithInvertedLine(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="260">
    <rect width="100%" height="100%" fill="white"/>
    <text x="40" y="70" font-family="DejaVu Sans" font-size="34" fill="black">Invoice 4711 total</text>
    <rect x="20" y="120" width="860" height="70" fill="black"/>
    <text x="40" y="170" font-family="DejaVu Sans" font-size="34" fill="white">Payment due 1234.50 EUR</text>
  </svg>`;
  return sharp(Buffer.from(svg)).greyscale().png().toBuffer();
}

describe("tesseract.js reading", () => {
  const engine = createTesseractJs();
  after(() => engine.close?.());

  it("skips the second white-on-black reading of doubtful lines, as the CLI does", async () => {
    const words = (await engine.recognise(await pageWithInvertedLine())).words.map((w) => w.text);
    assert.deepEqual(words.slice(0, 3), ["Invoice", "4711", "total"]);
    // With the invert pass, the white line is read ("Payment", "1234.50"); without it, as noise.
    assert.ok(!words.includes("Payment") && !words.includes("1234.50"), words.join(" "));
  });
});
