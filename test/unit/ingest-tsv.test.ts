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

  it("fails with ocr_failed when there is no page row", () => {
    assert.throws(() => parseTesseractTsv(HEADER), { code: "ocr_failed" });
  });
});
