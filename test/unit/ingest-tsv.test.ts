import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseTesseractTsv } from "../../src/ingest/ocr/tsv.js";

const HEADER = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext";
const row = (...cols: (string | number)[]): string => cols.join("\t");

describe("parseTesseractTsv", () => {
  it("turns word rows into ratio boxes with 0..1 confidence, dropping empty words", () => {
    const tsv = [
      HEADER,
      row(1, 1, 0, 0, 0, 0, 0, 0, 400, 200, -1, ""),
      row(4, 1, 1, 1, 1, 0, 20, 40, 200, 20, -1, ""),
      row(5, 1, 1, 1, 1, 1, 20, 40, 100, 20, 95.5, "Total"),
      row(5, 1, 1, 1, 1, 2, 130, 40, 90, 20, 12, "  "),
      row(5, 1, 1, 1, 1, 3, 240, 40, 60, 20, 88, "12.50"),
      "",
    ].join("\n");
    const result = parseTesseractTsv(tsv);
    assert.deepEqual([result.width, result.height], [400, 200]);
    assert.deepEqual(
      result.words.map((w) => w.text),
      ["Total", "12.50"],
    );
    assert.deepEqual(result.words[0]!.box, { x0: 0.05, y0: 0.2, x1: 0.3, y1: 0.3 });
    assert.equal(result.words[0]!.confidence, 0.955);
  });

  it("repairs digit/letter confusions in the words it reads", () => {
    const tsv = [
      HEADER,
      row(1, 1, 0, 0, 0, 0, 0, 0, 400, 200, -1, ""),
      row(5, 1, 1, 1, 1, 1, 20, 40, 100, 20, 90, "Tota}"),
      row(5, 1, 1, 1, 1, 2, 130, 40, 90, 20, 90, "RMI2.5O"),
      row(5, 1, 1, 1, 1, 3, 240, 40, 60, 20, 90, "862725-U"),
    ].join("\n");
    assert.deepEqual(
      parseTesseractTsv(tsv).words.map((w) => w.text),
      ["Total", "RM12.50", "862725-U"],
    );
  });

  it("drops an i's dot read as a word of its own inside a word, and keeps full stops beside words", () => {
    const tsv = [
      HEADER,
      row(1, 1, 0, 0, 0, 0, 0, 0, 1000, 500, -1, ""),
      // The dots of "Invoice" and "Plumbing" in large bold type, read as a line above the title.
      row(5, 1, 1, 1, 1, 1, 267, 25, 6, 4, 59, "."),
      row(5, 1, 1, 1, 1, 2, 726, 30, 5, 4, 63, "."),
      row(5, 1, 1, 1, 2, 1, 100, 24, 60, 12, 97, "Tax"),
      row(5, 1, 1, 1, 2, 2, 182, 25, 136, 11, 96, "Invoice"),
      row(5, 1, 1, 1, 2, 3, 508, 28, 112, 9, 95, "Coastal"),
      row(5, 1, 1, 1, 2, 4, 639, 29, 129, 11, 94, "Plumbing"),
      row(5, 1, 1, 1, 2, 5, 787, 31, 59, 10, 97, "Pty"),
      row(5, 1, 1, 1, 2, 6, 848, 38, 4, 3, 80, "."),
    ].join("\n");
    const result = parseTesseractTsv(tsv);
    assert.deepEqual(
      result.words.map((w) => w.text),
      ["Tax", "Invoice", "Coastal", "Plumbing", "Pty", "."],
    );
    assert.deepEqual(result.lines, [[0, 1, 2, 3, 4, 5]]);
  });

  it("joins a capital read apart from the rest of its word, and keeps one-letter words apart", () => {
    const tsv = [
      HEADER,
      row(1, 1, 0, 0, 0, 0, 0, 0, 1000, 500, -1, ""),
      // "S oftwarelizenz" and "J ansen", 3 and 6 px apart on 20 px tall words.
      row(5, 1, 1, 1, 1, 1, 100, 40, 12, 20, 90, "S"),
      row(5, 1, 1, 1, 1, 2, 115, 40, 150, 20, 93, "oftwarelizenz"),
      row(5, 1, 1, 1, 1, 3, 300, 40, 12, 20, 88, "J"),
      row(5, 1, 1, 1, 1, 4, 318, 40, 60, 20, 95, "ansen"),
      // Words of their own: "A", the Dutch "U", and a capital a wide gap away from a word.
      row(5, 1, 1, 1, 2, 1, 100, 80, 12, 20, 96, "A"),
      row(5, 1, 1, 1, 2, 2, 120, 80, 70, 20, 96, "bakery"),
      row(5, 1, 1, 1, 2, 3, 200, 80, 12, 20, 96, "U"),
      row(5, 1, 1, 1, 2, 4, 220, 80, 50, 20, 96, "werd"),
      row(5, 1, 1, 1, 2, 5, 300, 80, 12, 20, 96, "T"),
      row(5, 1, 1, 1, 2, 6, 340, 80, 50, 20, 96, "otal"),
    ].join("\n");
    const result = parseTesseractTsv(tsv);
    assert.deepEqual(
      result.words.map((w) => w.text),
      ["Softwarelizenz", "Jansen", "A", "bakery", "U", "werd", "T", "otal"],
    );
    assert.deepEqual(result.words[0]!.box, { x0: 0.1, y0: 0.08, x1: 0.265, y1: 0.12 });
    assert.equal(result.words[1]!.confidence, 0.88);
    assert.deepEqual(result.lines, [
      [0, 1],
      [2, 3, 4, 5, 6, 7],
    ]);
  });

  it("fails with ocr_failed when there is no page row", () => {
    assert.throws(() => parseTesseractTsv(HEADER), { code: "ocr_failed" });
  });
});
