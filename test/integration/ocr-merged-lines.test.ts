/**
 * Lines of two columns tesseract ran together (src/ingest/ocr/merged-lines.ts). The fixture is the top of a synthetic
 * window letter as bench:synth-html prints and scans it (seed 42): the customer's town and postcode, beside the
 * right column's "Customer ID:" at another line pitch, come back from `tesseract --psm 6` as one tall word of
 * nonsense on that label's line; ingest reads them again apart. The second is a whole page of the same kind (seed 45)
 * scanned on grey paper, whose crops tesseract read as nothing when they were stacked on white.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { ingest } from "../../src/ingest/index.js";
import { mergedRuns } from "../../src/ingest/ocr/merged-lines.js";

const FIXTURE = new URL("../fixtures/window-letter-columns.jpg", import.meta.url);
const GREY_PAGE = new URL("../fixtures/grey-window-letter.jpg", import.meta.url);

/** The page's lines as text, top to bottom. */
async function linesOf(bytes: Uint8Array): Promise<string[]> {
  const document = await ingest(bytes, { concurrency: 1 });
  const page = document.pages[0];
  assert.ok(page);
  const text = new Map(page.words.map((w) => [w.id, w.text]));
  return page.lines.map((line) => line.wordIds.map((id) => text.get(id)).join(" "));
}

/** A word of a built reading, its box in thousandths of a 1000 x 1000 page. */
const word = (text: string, x0: number, y0: number, x1: number, y1: number, confidence: number) => ({
  text,
  confidence,
  box: { x0: x0 / 1000, y0: y0 / 1000, x1: x1 / 1000, y1: y1 / 1000 },
});

describe("lines of two columns read apart", () => {
  it("reads the address's town and postcode beside the right column's label", async () => {
    const lines = await linesOf(new Uint8Array(readFileSync(FIXTURE)));
    assert.ok(
      lines.some((l) => /^Birmingham\b/.test(l)),
      lines.join("\n"),
    );
    assert.ok(
      lines.some((l) => /^UU18 2LI\b/.test(l)),
      lines.join("\n"),
    );
    assert.ok(
      lines.some((l) => /Customer ID:? 7412-7960-9836/.test(l)),
      lines.join("\n"),
    );
  });

  it("reads them apart on a scan of grey paper", async () => {
    const lines = await linesOf(new Uint8Array(readFileSync(GREY_PAGE)));
    assert.ok(
      lines.some((l) => /^Birmingham\b/.test(l)),
      lines.join("\n"),
    );
    assert.ok(
      lines.some((l) => /^LW10\b/.test(l)),
      lines.join("\n"),
    );
  });

  it("finds runs only of tall doubtful words on a line that also holds surely read text", () => {
    const result = {
      width: 1000,
      height: 1000,
      words: [
        word("Oliver", 100, 100, 180, 120, 0.97),
        word("Taylor", 190, 100, 270, 120, 0.97),
        word("eee", 100, 130, 200, 180, 0.23),
        word("Customer", 600, 150, 700, 170, 0.97),
        word("ID:", 710, 150, 740, 170, 0.9),
        word("Logo", 100, 300, 300, 380, 0.3),
      ],
      lines: [[0, 1], [2, 3, 4], [5]],
    };
    const runs = mergedRuns(result, result);
    assert.deepEqual(
      runs.map((r) => ({ line: r.line, words: r.words })),
      [{ line: 1, words: [2] }],
    );
    const crop = runs[0]?.crop;
    assert.ok(crop && crop.left <= 100 && crop.right < 600 && crop.right > 200 && crop.top < 130 && crop.bottom > 180);
  });

  it("finds a run read as nonsense beside the other column's tall word, over that word's rows, or on a line of its own", () => {
    const result = {
      width: 1000,
      height: 1000,
      words: [
        word("Anna", 100, 100, 140, 120, 0.97),
        word("Schneider", 150, 100, 240, 120, 0.97),
        word("STR", 100, 130, 140, 150, 0),
        word("LEN", 150, 130, 190, 150, 0.28),
        word("Rechnungsdatum:", 600, 125, 740, 180, 0.91),
        word("Bahnhof", 100, 200, 170, 220, 0.65),
        word("Datum:", 600, 195, 700, 250, 0.91),
        word("Weber", 100, 60, 150, 80, 0.97),
        word("Druck", 160, 60, 210, 80, 0.97),
        word("UG", 220, 60, 240, 80, 0.97),
        word("BEE", 100, 260, 200, 280, 0),
      ],
      lines: [[7, 8, 9], [0, 1], [2, 3, 4], [5, 6], [10]],
    };
    const runs = mergedRuns(result, result);
    assert.deepEqual(
      runs.map((r) => ({ line: r.line, words: r.words })),
      [
        { line: 2, words: [2, 3] },
        { line: 4, words: [10] },
      ],
    );
    const crop = runs[0]?.crop;
    assert.ok(crop && crop.right < 600 && crop.top < 125 && crop.bottom > 180);
  });
});
