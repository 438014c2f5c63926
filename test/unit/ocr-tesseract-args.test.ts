import assert from "node:assert/strict";
import { describe, it } from "node:test";
import sharp from "sharp";
import { runTesseract, tesseractArgs } from "../../src/ingest/ocr/tesseract-cli.js";
import { pgm } from "../../src/ingest/pgm.js";
import { textPage } from "../helpers/text-page.js";

describe("tesseract CLI arguments", () => {
  it("reads a page once, without the second white-on-black reading of doubtful lines", async () => {
    const args = tesseractArgs("eng");
    const settings = args.flatMap((a, i) => (args[i - 1] === "-c" ? [a] : []));
    assert.ok(settings.includes("tessedit_do_invert=0"), args.join(" "));
    assert.ok(settings.includes("tessedit_create_tsv=1"), args.join(" "));
    assert.equal(args[args.indexOf("--psm") + 1], "6");
    // The binary takes them: a page read with them gives its words.
    const { data, info } = await sharp(await textPage(["Invoice 4711 total 1234.50 EUR"]))
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const read = await runTesseract(pgm(info.width, info.height, data), "eng");
    assert.deepEqual(
      read.words.map((w) => w.text),
      ["Invoice", "4711", "total", "1234.50", "EUR"],
    );
  });
});
