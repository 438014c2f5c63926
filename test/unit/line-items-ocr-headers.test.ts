/**
 * Table headers OCR misread (issue #18): header words matched to the vocabulary with OCR's look-alike glyphs and a few
 * edits by length, several of them on one line; an amount header OCR cut down to its tax qualifier; unit prices with
 * four decimals OCR split at a space.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document } from "../../src/document/model.js";
import { priceCell } from "../../src/extract/line-items/cells.js";
import { extractLineItems } from "../../src/extract/line-items/index.js";
import { editBound, glyphForm, OcrVocabulary } from "../../src/extract/line-items/ocr-words.js";
import { localeHints } from "../../src/extract/normalise/locale.js";
import { type Cell, left as leftCell, right, tableDocument, tablePage } from "../helpers/table-page.js";

/** Right-aligned number ending at x1. */
const num = (text: string, x1: number): Cell => right(text, x1, 0.011);
const left = (text: string, x0: number): Cell => leftCell(text, x0, 0.011);

type Row = [string | null, string | null, string | null, string | null, string | null];

function rowsOf(d: Document, locale: string): Row[] {
  return (extractLineItems(d, { locale: localeHints(locale) })?.rows ?? []).map((r) => [
    r.description,
    r.quantity,
    r.unit,
    r.unitPrice,
    r.amount,
  ]);
}

const scan = (rows: readonly (readonly Cell[])[]): Document =>
  tableDocument(tablePage(1, rows, { source: "ocr", spacing: 0.022 }));

describe("line items: header words OCR misread", () => {
  it("reads a quantity header OCR read short ('Kuanti' for 'Kuantiti') in a header over two lines", () => {
    const rows = rowsOf(
      tableDocument(
        tablePage(
          1,
          [
            [left("Kod", 0.08), num("Kuanti", 0.54), num("Harga", 0.75), num("Jumlah", 0.92)],
            [
              left("item", 0.08),
              left("Butiran", 0.2),
              left("(unit)", 0.5),
              left("Unit", 0.57),
              num("seunit", 0.75),
              num("(RM)", 0.92),
            ],
            [
              left("AF-0644", 0.08),
              left("Kos penghantaran", 0.2),
              num("3", 0.54),
              left("kg", 0.57),
              num("10.00", 0.75),
              num("30.00", 0.92),
            ],
            [
              left("OS-7767", 0.08),
              left("Lesen perisian", 0.2),
              num("2", 0.54),
              left("pcs", 0.57),
              num("45.50", 0.75),
              num("91.00", 0.92),
            ],
          ],
          { source: "ocr", tops: [0.2, 0.213, 0.235, 0.257] },
        ),
      ),
      "ms-MY",
    );
    assert.deepEqual(rows, [
      ["Kos penghantaran", "3", "kg", "10.00", "30.00"],
      ["Lesen perisian", "2", "pcs", "45.50", "91.00"],
    ]);
  });

  it("reads an amount header with 'rn' read for 'm' ('Arnount')", () => {
    const rows = rowsOf(
      scan([
        [left("Description", 0.08), num("Qty", 0.55), num("Unit price", 0.72), num("Arnount", 0.92)],
        [left("Consulting", 0.08), num("2", 0.55), num("120.00", 0.72), num("240.00", 0.92)],
        [left("Travel costs", 0.08), num("3", 0.55), num("15.00", 0.72), num("45.00", 0.92)],
      ]),
      "en-GB",
    );
    assert.deepEqual(rows, [
      ["Consulting", "2", null, "120.00", "240.00"],
      ["Travel costs", "3", null, "15.00", "45.00"],
    ]);
  });

  it("finds a header with most of its words misread (one read right)", () => {
    const rows = rowsOf(
      scan([
        [left("Descripción", 0.08), num("Cantldad", 0.58), num("Preci0", 0.74), num("lmporte", 0.92)],
        [left("Gastos de envio", 0.08), num("2", 0.58), num("10,00", 0.74), num("20,00", 0.92)],
        [left("Mano de obra", 0.08), num("1", 0.58), num("55,00", 0.74), num("55,00", 0.92)],
      ]),
      "es-ES",
    );
    assert.deepEqual(rows, [
      ["Gastos de envio", "2", null, "10.00", "20.00"],
      ["Mano de obra", "1", null, "55.00", "55.00"],
    ]);
  });

  it("reads a price cell OCR ran together ('Preços/IVA' for 'Preço s/ IVA')", () => {
    const rows = rowsOf(
      scan([
        [left("Produto", 0.08), num("Qtd.", 0.64), num("Preços/IVA", 0.78), num("Valor", 0.92)],
        [left("Papel A4 (caixa de 5)", 0.08), num("2,5", 0.64), num("18,00", 0.78), num("45,00", 0.92)],
        [left("Serviços de consultoria", 0.08), num("1", 0.64), num("7,58", 0.78), num("7,58", 0.92)],
      ]),
      "pt-PT",
    );
    assert.deepEqual(rows, [
      ["Papel A4 (caixa de 5)", "2.5", null, "18.00", "45.00"],
      ["Serviços de consultoria", "1", null, "7.58", "7.58"],
    ]);
  });

  it("reads header phrases whose words OCR ran together ('PrixUnitaire', 'TOTALHT')", () => {
    const rows = rowsOf(
      scan([
        [left("Désignation", 0.08), num("Quantité", 0.5), num("PrixUnitaire", 0.7), num("TOTALHT", 0.92)],
        [left("Maintenance site web", 0.08), num("1", 0.5), num("10,83", 0.7), num("10,83", 0.92)],
        [left("Prestation de conseil", 0.08), num("3", 0.5), num("12,50", 0.7), num("37,50", 0.92)],
      ]),
      "fr-FR",
    );
    assert.deepEqual(rows, [
      ["Maintenance site web", "1", null, "10.83", "10.83"],
      ["Prestation de conseil", "3", null, "12.50", "37.50"],
    ]);
  });

  it("keeps a 'Code/Desc' header the description's column, not a code column", () => {
    const rows = rowsOf(
      scan([
        // A receipt's header: the quantity column tight left of the description's, one cell as OCR reads it.
        [left("Qty Code/Desc", 0.3), num("Total RM", 0.62)],
        [left("1", 0.3), left("BUTA SHOGA YAKI SET", 0.34), num("19.90", 0.62)],
        [left("1", 0.3), left("ICED GREEN TEA", 0.34), num("1.00", 0.62)],
      ]),
      "en-MY",
    );
    assert.deepEqual(
      rows.map((r) => [r[0], r[4]]),
      [
        ["BUTA SHOGA YAKI SET", "19.90"],
        ["ICED GREEN TEA", "1.00"],
      ],
    );
  });

  it("reads 'VAT' OCR set apart from 'Amount excl.' as part of the amount's header, not a tax-rate column", () => {
    const table = extractLineItems(
      scan([
        [
          left("Description", 0.08),
          num("Hours", 0.55),
          num("Unit price", 0.7),
          num("Amount excl.", 0.85),
          num("VAT", 0.9),
        ],
        [left("Support hours", 0.08), num("34", 0.55), num("174.93", 0.7), num("5,947.62", 0.9)],
        [left("Handling fee", 0.08), num("9.60", 0.9)],
      ]),
      { locale: localeHints("en-GB") },
    );
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.quantity, r.unitPrice, r.amount, r.taxRate]),
      [
        ["Support hours", "34", "174.93", "5947.62", null],
        ["Handling fee", null, null, "9.60", null],
      ],
    );
  });

  it("reads a header over two lines from its lower line when the first row follows tight under it", () => {
    const page = tablePage(
      1,
      [
        [left("Item", 0.12), num("Unit", 0.71), num("Tax", 0.79)],
        [
          left("No.", 0.07),
          left("description", 0.12),
          num("Qty", 0.57),
          num("price", 0.71),
          num("rate", 0.79),
          num("Amount", 0.93),
        ],
        [
          left("1", 0.07),
          left("Monitor 27 inch", 0.12),
          num("2", 0.57),
          num("698.56", 0.71),
          num("20.0", 0.79),
          num("1,397.12", 0.93),
        ],
        [
          left("2", 0.07),
          left("Cloud hosting", 0.12),
          num("1", 0.57),
          num("995.99", 0.71),
          num("20.0", 0.79),
          num("995.99", 0.93),
        ],
      ],
      { source: "ocr", tops: [0.2, 0.2135, 0.2285, 0.2435] },
    );
    // The upper line printed smaller than the lower one (OCR boxes it tighter).
    const upper = new Set(page.lines[0]?.wordIds);
    for (const word of page.words) if (upper.has(word.id)) word.box = { ...word.box, y1: word.box.y0 + 0.007 };
    const table = extractLineItems(tableDocument(page), { locale: localeHints("en-GB") });
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.quantity, r.unitPrice, r.taxRate, r.amount]),
      [
        ["Monitor 27 inch", "2", "698.56", "20.00", "1397.12"],
        ["Cloud hosting", "1", "995.99", "20.00", "995.99"],
      ],
    );
  });

  it("keeps a header's lone tax column a tax rate", () => {
    const table = extractLineItems(
      tableDocument(
        tablePage(1, [
          [left("Description", 0.08), num("Qty", 0.55), num("Price", 0.72), num("VAT", 0.92)],
          [left("Consulting", 0.08), num("2", 0.55), num("120.00", 0.72), num("20%", 0.92)],
        ]),
      ),
      { locale: localeHints("en-GB") },
    );
    // No amount named: the rightmost money column is read as the amount, the rates as rates.
    assert.deepEqual(
      table?.rows.map((r) => [r.amount, r.taxRate]),
      [["120.00", "20.00"]],
    );
  });
});

describe("line items: OCR word matching", () => {
  it("makes OCR's look-alike glyphs one", () => {
    assert.equal(glyphForm("arnount"), glyphForm("amount"));
    assert.equal(glyphForm("lmporte"), glyphForm("importe"));
    assert.equal(glyphForm("descripci6n"), glyphForm("descripcion"));
    assert.equal(glyphForm("fiir"), glyphForm("fur"));
  });

  it("allows edits by length: none below five letters, two from eight", () => {
    assert.deepEqual([4, 5, 7, 8, 12].map(editBound), [0, 1, 1, 2, 3]);
    const vocabulary = new OcrVocabulary(
      new Map([
        ["kuantiti", "quantity"],
        ["qty", "quantity"],
        ["rate", "unitPrice"],
        ["date", "date"],
        ["preco", "unitPrice"],
        ["precio", "unitPrice"],
        ["menge", "quantity"],
        ["mengen", "other"],
      ]),
    );
    assert.equal(vocabulary.nearest("kuanti"), "kuantiti");
    assert.equal(vocabulary.nearest("qtv"), null);
    assert.equal(vocabulary.nearest("rata"), null);
    // "precos" is one edit from two words of one meaning: resolved.
    assert.ok(["preco", "precio"].includes(vocabulary.nearest("precos") ?? ""));
    // One edit from two words of different meanings: left alone.
    assert.equal(vocabulary.nearest("mengex"), null);
    assert.equal(vocabulary.nearest("1000"), null);
  });
});

describe("line items: unit prices OCR split", () => {
  it("reads four decimals after a space OCR put behind the separator, and thousands grouped by a space", () => {
    const fr = localeHints("fr-FR");
    assert.equal(priceCell("519, 4000", fr), "519.40");
    assert.equal(priceCell("4 145,7700", fr), "4145.77");
    assert.equal(priceCell("586, 0300", fr), "586.03");
  });
});
