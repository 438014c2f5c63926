/**
 * Text printed up a scanned page's margin, which OCR reads glyph by glyph (one lone character on each line), is no part
 * of the lines beside it: neither of the page's rows nor of a line-item table's lines. A column of quantities or of
 * tax codes, lone characters too, stays. Pages are built here.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document, Word } from "../../src/document/model.js";
import { buildLayout } from "../../src/extract/layout.js";
import { visualLines } from "../../src/extract/line-items/lines.js";
import { marginGlyphs } from "../../src/extract/margin-glyphs.js";

const WIDTH = 1654;
const HEIGHT = 2339;

/** Each line: its cells as [text, x], and an optional lone character printed at `glyphX` on the same line. */
function page(
  lines: readonly { cells: readonly (readonly [string, number])[]; glyph?: string }[],
  glyphX = 70,
): Document {
  const words: Word[] = [];
  const place = (text: string, x: number, top: number, confidence: number): number => {
    const width = text.length * 16;
    words.push({
      id: words.length,
      text,
      box: { x0: x / WIDTH, y0: top / HEIGHT, x1: (x + width) / WIDTH, y1: (top + 26) / HEIGHT },
      source: "ocr",
      confidence,
    });
    return words.length - 1;
  };
  const box = { x0: 0, y0: 0, x1: 1, y1: 1 };
  const pageLines = lines.map(({ cells, glyph }, r) => {
    const top = 400 + r * 44;
    const ids = glyph === undefined ? [] : [place(glyph, glyphX, top, 0.75)];
    for (const [text, x] of cells) {
      let cursor = x;
      for (const token of text.split(" ")) {
        ids.push(place(token, cursor, top, 0.95));
        cursor += token.length * 16 + 14;
      }
    }
    return { wordIds: ids, box };
  });
  return { type: "png", pages: [{ pageNum: 1, width: WIDTH, height: HEIGHT, source: "ocr", words, lines: pageLines }] };
}

/** A table's rows with one glyph of "Copyright 2013" (read up the margin) beside each line. */
const TABLE = [
  {
    cells: [
      ["Artikel", 160],
      ["Menge", 700],
      ["Preis", 1000],
      ["Betrag", 1350],
    ],
    glyph: "2",
  },
  {
    cells: [
      ["Wirkarbeit HT", 160],
      ["2", 720],
      ["260,00", 1000],
      ["520,00", 1350],
    ],
    glyph: "S",
  },
  { cells: [["Liefer-Datum: 01.09.2013", 160]], glyph: "3" },
  {
    cells: [
      ["Ökosteuer Lieferant", 160],
      ["1", 720],
      ["205,00", 1000],
      ["205,00", 1350],
    ],
    glyph: "=",
  },
  {
    cells: [
      ["Kopierpapier A4", 160],
      ["1", 720],
      ["12,10", 1000],
      ["12,10", 1350],
    ],
    glyph: "z",
  },
  {
    cells: [
      ["Faltenbeutel 16x6x28 CM", 160],
      ["3", 720],
      ["12,25", 1000],
      ["36,75", 1350],
    ],
    glyph: "8",
  },
  {
    cells: [
      ["Summe netto", 1000],
      ["773,85", 1350],
    ],
    glyph: "&",
  },
  {
    cells: [
      ["Umsatzsteuer 19 %", 1000],
      ["147,03", 1350],
    ],
    glyph: "Hf",
  },
] as const;

const rowTexts = (document: Document): string[] =>
  buildLayout(document).pages[0]?.rows.map((row) => row.map((s) => s.text).join(" | ")) ?? [];

describe("margin glyphs", () => {
  it("leaves a column of lone characters beyond the print out of the page's rows", () => {
    const rows = rowTexts(page(TABLE));
    assert.equal(rows[1], "Wirkarbeit HT | 2 | 260,00 | 520,00");
    assert.equal(rows[2], "Liefer-Datum: 01.09.2013");
    assert.ok(
      rows.every((r) => !/^(S|z|&|Hf|=) /.test(r)),
      rows.join("\n"),
    );
  });

  it("leaves them out of a line-item table's lines", () => {
    const document = page(TABLE);
    const lines = visualLines(document.pages[0]!);
    assert.deepEqual(
      lines[1]?.chunks.map((c) => c.text),
      ["Wirkarbeit HT", "2", "260,00", "520,00"],
    );
  });

  it("keeps the same column on the right when the glyphs lie within the print", () => {
    // Between the description and the quantity: no margin, these may be print.
    const document = page(TABLE, 560);
    assert.equal(marginGlyphs(document.pages[0]!.words).size, 0);
  });

  it("keeps a column of quantities and a column of tax codes", () => {
    const quantities = page(TABLE.map((line, i) => ({ ...line, glyph: String((i % 3) + 1) })));
    assert.equal(marginGlyphs(quantities.pages[0]!.words).size, 0);
    const codes = page(
      TABLE.map((line, i) => ({ ...line, glyph: i % 3 === 0 ? "Z" : "S" })),
      1500,
    );
    assert.equal(marginGlyphs(codes.pages[0]!.words).size, 0);
  });

  it("takes a glyph column in the right margin too", () => {
    const document = page(TABLE, 1500);
    assert.equal(marginGlyphs(document.pages[0]!.words).size, TABLE.length);
  });
});
