/**
 * Rows of scanned tables (issue #18): a labelled figure in brackets OCR read with a wide space inside it, or run
 * into the quantity before it; a table whose rows stand far apart going on past as wide a gap on a later page; gaps
 * measured in a scanned line's height, not its words' x-height; a row block's upper line near the table; a page
 * number and a detail line's label OCR read as words apart; a later page's letterhead; a description's words one cell
 * however tightly OCR boxes them.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document, Page } from "../../src/document/model.js";
import { extractLineItems } from "../../src/extract/line-items/index.js";
import { visualLines } from "../../src/extract/line-items/lines.js";
import { localeHints } from "../../src/extract/normalise/locale.js";
import { type Cell, left as leftCell, right, tableDocument, tablePage } from "../helpers/table-page.js";

const num = (text: string, x1: number): Cell => right(text, x1, 0.011);
const left = (text: string, x0: number): Cell => leftCell(text, x0, 0.011);
/** Text set tight, so its words stay one cell on a line of x-height words. */
const text = (t: string, x0: number): Cell => leftCell(t, x0, 0.006);
const HEADER: Cell[] = [left("Articolo", 0.1), num("Q.tà", 0.56), left("Prezzo unitario", 0.6), num("Totale", 0.92)];

type Row = [string | null, string | null, string | null, string | null];

/**
 * A page as OCR boxes it: each line's first word full height (ascenders to descenders, 0.011), the others only as
 * high as their letters (0.008, an x-height), so the words' median height is well under the line's; the lines of
 * `low` have no full-height word.
 */
function glyphBoxes(page: Page, low: readonly number[] = []): Page {
  const first = new Set(page.lines.filter((_, i) => !low.includes(i)).map((l) => l.wordIds[0]));
  return {
    ...page,
    words: page.words.map((w) => (first.has(w.id) ? w : { ...w, box: { ...w.box, y0: w.box.y1 - 0.008 } })),
  };
}

function rowsOf(d: Document): Row[] {
  return (extractLineItems(d, { locale: localeHints("it-IT") })?.rows ?? []).map((r) => [
    r.description,
    r.quantity,
    r.unitPrice,
    r.amount,
  ]);
}

describe("line items: scanned rows", () => {
  it("reads a bracketed label and its figure as one cell however wide OCR reads the space in it", () => {
    const page = tablePage(1, [[left("(Netto):", 0.6), left("694,03", 0.71)]], { source: "ocr" });
    const [line] = visualLines(page);
    assert.deepEqual(
      line?.chunks.map((c) => c.text),
      ["(Netto): 694,03"],
    );
  });

  it("ends the quantity's cell at a bracketed label OCR ran into it ('8 (Sconto: 128,88)')", () => {
    const rows = rowsOf(
      tableDocument(
        tablePage(
          1,
          [
            HEADER,
            [left("Manutenzione impianto", 0.1), ["8 (Sconto: 128,88)", 0.55, 0.7], num("5.610,96", 0.92)],
            [left("(Netto): 701,37", 0.6)],
            [left("Consulenza tecnica", 0.1), ["4 (Sconto: 27,52)", 0.55, 0.7], num("1.305,32", 0.92)],
            [left("(Netto): 326,33", 0.6)],
          ],
          { source: "ocr", tops: [0.2, 0.23, 0.243, 0.27, 0.283] },
        ),
      ),
    );
    assert.deepEqual(rows, [
      ["Manutenzione impianto", "8", "701.37", "5610.96"],
      ["Consulenza tecnica", "4", "326.33", "1305.32"],
    ]);
  });

  it("goes on past a gap as wide as the table's rows stand apart on a later page", () => {
    // Priced rows: the gross price over the figures, the net one under them, blocks far apart.
    const block = (top: number, name: string, q: string, gross: string, net: string, amount: string) => ({
      rows: [
        [left(`(Lordo: ${gross})`, 0.6)],
        [left(name, 0.1), num(q, 0.56), left("(Sconto: 0,00)", 0.6), num(amount, 0.92)],
        [left(`(Netto): ${net}`, 0.6)],
      ],
      tops: [top, top + 0.012, top + 0.024],
    });
    const page = (n: number, blocks: { rows: Cell[][]; tops: number[] }[], extra: { row: Cell[]; top: number }[]) => {
      const all = [{ rows: [HEADER], tops: [0.1] }, ...blocks, ...extra.map((e) => ({ rows: [e.row], tops: [e.top] }))];
      return tablePage(
        n,
        all.flatMap((b) => b.rows),
        { source: "ocr", tops: all.flatMap((b) => b.tops) },
      );
    };
    const rows = rowsOf(
      tableDocument(
        page(
          1,
          [
            block(0.13, "Trasporto", "1", "962,47", "962,47", "962,47"),
            block(0.23, "Licenza software", "2", "500,00", "500,00", "1.000,00"),
            block(0.33, "Carta A4", "1", "850,04", "850,04", "850,04"),
          ],
          [{ row: [left("Riporto", 0.1), num("2.812,51", 0.92)], top: 0.45 }],
        ),
        page(
          2,
          [block(0.13, "Manutenzione impianto", "1", "585,25", "585,25", "585,25")],
          [{ row: [left("Sconto fedeltà 10%", 0.1), num("-58,53", 0.92)], top: 0.245 }],
        ),
      ),
    );
    assert.deepEqual(
      rows.map((r) => [r[0], r[3]]),
      [
        ["Trasporto", "962.47"],
        ["Licenza software", "1000.00"],
        ["Carta A4", "850.04"],
        ["Manutenzione impianto", "585.25"],
        ["Sconto fedeltà 10%", "-58.53"],
      ],
    );
  });

  it("measures the gap that ends a scanned table in its lines' height, not its words' x-height", () => {
    const rows = rowsOf(
      tableDocument(
        glyphBoxes(
          tablePage(
            1,
            [
              [text("Descrizione", 0.1), num("Q.tà", 0.56), text("Prezzo unitario", 0.6), num("Totale", 0.92)],
              [text("Manutenzione impianto annuale", 0.1), num("2", 0.56), num("100,00", 0.7), num("200,00", 0.92)],
              [text("Periodo dal 01/01/2026 al 28/01/2026", 0.1)],
              [text("Sconto fedeltà 10%", 0.1), num("-20,00", 0.92)],
              [text("Totale imponibile netto", 0.6), num("180,00", 0.92)],
            ],
            { source: "ocr", tops: [0.2, 0.23, 0.243, 0.31, 0.4] },
          ),
        ),
      ),
    );
    assert.deepEqual(
      rows.map((r) => [r[0], r[3]]),
      [
        ["Manutenzione impianto annuale", "200.00"],
        ["Sconto fedeltà 10%", "-20.00"],
      ],
    );
  });

  it("keeps notes under a scanned row's figures in the table, measured in the lines' height", () => {
    // Each row's notes (its position in the offer, its gross price) a little apart under its figures, as an e-invoice
    // viewer prints them; OCR boxes the notes' words as high as their letters.
    const rows = rowsOf(
      tableDocument(
        glyphBoxes(
          tablePage(
            1,
            [
              [text("Descrizione", 0.1), num("Q.tà", 0.56), text("Prezzo unitario", 0.6), num("Totale", 0.92)],
              [text("Tecnico installatore", 0.1), num("3", 0.56), num("43,20", 0.7), num("129,60", 0.92)],
              [text("01 Montaggio proiettore", 0.1)],
              [text("Prezzo lordo : 43,20", 0.1)],
              [text("Supporto a soffitto", 0.1), num("1", 0.56), num("122,50", 0.7), num("122,50", 0.92)],
              [text("02 Fuori offerta", 0.1)],
              [text("Totale imponibile netto", 0.6), num("252,10", 0.92)],
            ],
            { source: "ocr", tops: [0.2, 0.23, 0.265, 0.29, 0.33, 0.365, 0.45] },
          ),
        ),
      ),
    );
    assert.deepEqual(
      rows.map((r) => [r[0], r[3]]),
      [
        ["Tecnico installatore", "129.60"],
        ["Supporto a soffitto", "122.50"],
      ],
    );
  });

  it("reads priced blocks on however OCR misread their quantities ('25(Sconto:', 'fScono: 15,06)', none)", () => {
    // Each product a block: "(Lordo: ...)" beside its name, its quantity and "(Sconto: ...)" beside its amount, then
    // "(Netto): ..."; the blocks far apart. OCR ran a quantity into the label after it, read another label as noise,
    // and lost a third quantity entirely.
    const block = (name: string, gross: string, middle: Cell[], net: string): Cell[][] => [
      [text(name, 0.1), text(`(Lordo: ${gross})`, 0.68)],
      [...middle],
      [text(`(Netto): ${net}`, 0.69)],
    ];
    const rows = rowsOf(
      tableDocument(
        tablePage(
          1,
          [
            [text("Descrizione", 0.1), num("Q.tà", 0.64), text("Prezzo unitario", 0.71), num("Totale", 0.92)],
            ...block("Manutenzione impianto", "386,38", [text("(Sconto: 58,45)", 0.64), num("327,93", 0.92)], "327,93"),
            ...block("Licenza software", "829,92", [text("25(Sconto: 0,00)", 0.63), num("20.748,00", 0.92)], "829,92"),
            ...block("Spese di spedizione", "101,06", [text("fScono: 15,06)", 0.63), num("731,00", 0.92)], "86,00"),
            ...block("Carta A4", "7,00", [text("5", 0.63), text("(Sconto: 0,00)", 0.645), num("35,00", 0.92)], "7,00"),
            [text("Totale imponibile", 0.6), num("22.041,93", 0.92)],
          ],
          {
            source: "ocr",
            tops: [0.1, 0.12, 0.134, 0.148, 0.21, 0.224, 0.238, 0.32, 0.334, 0.348, 0.421, 0.435, 0.449, 0.53],
          },
        ),
      ),
    );
    assert.deepEqual(
      rows.map((r) => [r[0], r[1], r[3]]),
      [
        ["Manutenzione impianto", null, "327.93"],
        ["Licenza software", "25", "20748.00"],
        ["Spese di spedizione", null, "731.00"],
        ["Carta A4", "5", "35.00"],
      ],
    );
  });

  it("reads labelled figures whose brackets OCR misread ('8,@conto: 15,06)', '{Netto}: 86,00') as details", () => {
    const rows = rowsOf(
      tableDocument(
        tablePage(
          1,
          [
            [text("Descrizione", 0.1), num("Q.tà", 0.64), text("Prezzo unitario", 0.71), num("Totale", 0.92)],
            [text("Spese di spedizione", 0.1), text("(Lordo: 101,06)", 0.68)],
            [text("8,@conto: 15,06)", 0.63), num("688,48", 0.92)],
            [text("{Netto}: 86,06", 0.69)],
            [text("Carta A4", 0.1), text("(Lordo: 7,00)", 0.68)],
            [text("@conto: 0,00)", 0.635), num("35,00", 0.92)],
            [text("{Netto}: 7,00", 0.69)],
            [text("Totale imponibile", 0.6), num("723,48", 0.92)],
          ],
          { source: "ocr", tops: [0.1, 0.12, 0.134, 0.148, 0.21, 0.224, 0.238, 0.3] },
        ),
      ),
    );
    assert.deepEqual(
      rows.map((r) => [r[0], r[1], r[3]]),
      [
        ["Spese di spedizione", "8", "688.48"],
        ["Carta A4", null, "35.00"],
      ],
    );
  });

  it("goes on at a row's upper line under the table, however near it stands", () => {
    // Priced rows: "(Lordo: ...)" over each product's figures, the blocks 3.6 line heights apart; the second row's
    // figures boxed as low as their digits' x-height.
    const rows = rowsOf(
      tableDocument(
        glyphBoxes(
          tablePage(
            1,
            [
              [text("Descrizione", 0.1), num("Q.tà", 0.56), text("Prezzo unitario", 0.6), num("Totale", 0.92)],
              [text("(Lordo: 100,00)", 0.6)],
              [text("Manutenzione impianto annuale", 0.1), num("2", 0.56), num("100,00", 0.7), num("200,00", 0.92)],
              [text("Periodo dal 01/01/2026 al 28/01/2026", 0.1)],
              [text("(Lordo: 50,00)", 0.6)],
              [text("Consulenza tecnica in sede", 0.1), num("1", 0.56), num("50,00", 0.7), num("50,00", 0.92)],
              [text("Totale imponibile netto", 0.6), num("250,00", 0.92)],
            ],
            { source: "ocr", tops: [0.2, 0.22, 0.233, 0.246, 0.297, 0.31, 0.38] },
          ),
          [5],
        ),
      ),
    );
    assert.deepEqual(
      rows.map((r) => [r[0], r[3]]),
      [
        ["Manutenzione impianto annuale", "200.00"],
        ["Consulenza tecnica in sede", "50.00"],
      ],
    );
  });

  it("reads a page number OCR read as words apart ('Página' | '1' | 'de 2') as the page's foot, not a total", () => {
    const header: Cell[] = [left("Concepto", 0.1), num("Uds.", 0.56), num("Precio", 0.75), num("Importe", 0.92)];
    const rows = rowsOf(
      tableDocument(
        tablePage(
          1,
          [
            header,
            [left("Gastos de viaje", 0.1), num("2", 0.56), num("100,00", 0.75), num("200,00", 0.92)],
            [left("Página", 0.78), num("1", 0.85), left("de", 0.87), left("2", 0.91)],
          ],
          { source: "ocr", tops: [0.1, 0.13, 0.9] },
        ),
        tablePage(
          2,
          [header, [left("Gestión de proyecto", 0.1), num("1", 0.56), num("60,00", 0.75), num("60,00", 0.92)]],
          { source: "ocr", tops: [0.1, 0.13] },
        ),
      ),
    );
    assert.deepEqual(
      rows.map((r) => [r[0], r[3]]),
      [
        ["Gastos de viaje", "200.00"],
        ["Gestión de proyecto", "60.00"],
      ],
    );
  });

  it("reads a detail line whose label OCR read as words apart ('Pedido' | 'n.°:' | 'R648940') as no description", () => {
    const rows = rowsOf(
      tableDocument(
        tablePage(
          1,
          [
            [left("Concepto", 0.1), num("Uds.", 0.56), num("Precio", 0.75), num("Importe", 0.92)],
            [left("Gastos de viaje", 0.1), num("2", 0.56), num("100,00", 0.75), num("200,00", 0.92)],
            [left("Pedido", 0.1), left("n.°:", 0.19), left("R648940", 0.25)],
            [left("Gestión de proyecto", 0.1), num("1", 0.56), num("60,00", 0.75), num("60,00", 0.92)],
          ],
          { source: "ocr", tops: [0.1, 0.13, 0.143, 0.17] },
        ),
      ),
    );
    assert.deepEqual(
      rows.map((r) => [r[0], r[3]]),
      [
        ["Gastos de viaje", "200.00"],
        ["Gestión de proyecto", "60.00"],
      ],
    );
  });

  it("reads a detail line whose label's colon OCR read as a semicolon ('Delivery date; C88706712') as no description", () => {
    const rows = rowsOf(
      tableDocument(
        tablePage(
          1,
          [
            [left("Description", 0.1), num("Qty", 0.56), num("Price", 0.75), num("Amount", 0.92)],
            [left("Project management", 0.1), num("2", 0.56), num("100,00", 0.75), num("200,00", 0.92)],
            [left("Delivery date; C88706712", 0.1)],
            [left("Website maintenance", 0.1), num("1", 0.56), num("60,00", 0.75), num("60,00", 0.92)],
            [left("Order no; L7550272", 0.1)],
          ],
          { source: "ocr", tops: [0.1, 0.13, 0.143, 0.17, 0.183] },
        ),
      ),
    );
    assert.deepEqual(
      rows.map((r) => [r[0], r[3]]),
      [
        ["Project management", "200.00"],
        ["Website maintenance", "60.00"],
      ],
    );
  });

  it("reads a later page's letterhead above its repeated header as no total ('FATTURA' | '882456')", () => {
    const rows = rowsOf(
      tableDocument(
        tablePage(1, [HEADER, [left("Trasporto", 0.1), num("1", 0.56), num("962,47", 0.7), num("962,47", 0.92)]], {
          source: "ocr",
          tops: [0.1, 0.13],
        }),
        tablePage(
          2,
          [
            [left("FATTURA", 0.78), num("882456", 0.93)],
            HEADER,
            [left("Carta A4", 0.1), num("2", 0.56), num("100,00", 0.7), num("200,00", 0.92)],
          ],
          { source: "ocr", tops: [0.05, 0.08, 0.11] },
        ),
      ),
    );
    assert.deepEqual(
      rows.map((r) => [r[0], r[3]]),
      [
        ["Trasporto", "962.47"],
        ["Carta A4", "200.00"],
      ],
    );
  });

  it("keeps a scanned description's words one cell where OCR boxes them as high as their letters", () => {
    // Word spacing wider than the words' x-height, narrower than the line's height: one cell, and its "0,5l" no price.
    const page = glyphBoxes(
      tablePage(1, [[leftCell("Leergutpfand 20 x 0,5l", 0.1, 0.013), num("3,1000", 0.56), num("46,50", 0.92)]], {
        source: "ocr",
      }),
    );
    const [line] = visualLines(page);
    assert.deepEqual(
      line?.chunks.map((c) => c.text),
      ["Leergutpfand 20 x 0,5l", "3,1000", "46,50"],
    );
  });
});
