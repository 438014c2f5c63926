/**
 * The cues of the line-item reader on generated pages: stacked headers, OCR echoes and broken numbers, misread header
 * words, arithmetic repairs on scans, page totals, codes with hyphens, quantity-first tables, split total labels.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document } from "../../src/document/model.js";
import { extractLineItems } from "../../src/extract/line-items/index.js";
import { localeHints } from "../../src/extract/normalise/locale.js";
import { type Cell, tableDocument, tablePage } from "../helpers/table-page.js";

const page = tablePage;
const doc = tableDocument;

/** Right-aligned number ending at x1. */
function num(text: string, x1: number): Cell {
  return [text, x1 - text.length * 0.011, x1];
}

function left(text: string, x0: number): Cell {
  return [text, x0, x0 + text.length * 0.011];
}

const en = { locale: localeHints("en-GB") };
const de = { locale: localeHints("de-DE") };

function rowsOf(d: Document, hints: Parameters<typeof extractLineItems>[1]): [string | null, string | null][] {
  return (extractLineItems(d, hints)?.rows ?? []).map((r) => [r.description, r.amount]);
}

describe("line items: header cues", () => {
  it("reads a header whose cells are printed over two lines", () => {
    const table = extractLineItems(
      doc(
        page(
          1,
          [
            [left("Item", 0.08), num("Unit", 0.7), num("Tax", 0.8)],
            [
              left("No.", 0.02),
              left("description", 0.08),
              num("Qty", 0.57),
              num("price", 0.7),
              num("rate", 0.8),
              num("Amount", 0.93),
            ],
            [
              left("1", 0.02),
              left("Monitor 27 inch", 0.08),
              num("2", 0.57),
              num("698.56", 0.7),
              num("20%", 0.8),
              num("1,397.12", 0.93),
            ],
            [
              left("2", 0.02),
              left("Cloud hosting", 0.08),
              num("1", 0.57),
              num("995.99", 0.7),
              num("20%", 0.8),
              num("995.99", 0.93),
            ],
            [left("Subtotal", 0.6), num("2,393.11", 0.93)],
          ],
          { spacing: 0.014 },
        ),
      ),
      en,
    );
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.quantity, r.unitPrice, r.taxRate, r.amount]),
      [
        ["Monitor 27 inch", "2", "698.56", "20.00", "1397.12"],
        ["Cloud hosting", "1", "995.99", "20.00", "995.99"],
      ],
    );
  });

  it("reads a header word OCR misread", () => {
    const table = extractLineItems(
      doc(
        page(
          1,
          [
            [left("Descripci6n", 0.08), num("Cantidad", 0.6), num("Precio", 0.75), num("lmporte", 0.93)],
            [left("Gastos de envio", 0.08), num("2", 0.6), num("10,00", 0.75), num("20,00", 0.93)],
            [left("Mano de obra", 0.08), num("1", 0.6), num("55,00", 0.75), num("55,00", 0.93)],
          ],
          { source: "ocr" },
        ),
      ),
      { locale: localeHints("es-ES") },
    );
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.quantity, r.unitPrice, r.amount]),
      [
        ["Gastos de envio", "2", "10.00", "20.00"],
        ["Mano de obra", "1", "55.00", "55.00"],
      ],
    );
  });

  it("reads the description under a running-number column when its header is not understood", () => {
    const rows = rowsOf(
      doc(
        page(1, [
          [left("#", 0.08), left("Xyzzy", 0.14), num("Qty", 0.6), num("Price", 0.75), num("Amount", 0.93)],
          [left("1", 0.08), left("Consulting", 0.14), num("2", 0.6), num("10.00", 0.75), num("20.00", 0.93)],
          [left("2", 0.08), left("Travel costs", 0.14), num("1", 0.6), num("5.00", 0.75), num("5.00", 0.93)],
        ]),
      ),
      en,
    );
    assert.deepEqual(rows, [
      ["Consulting", "20.00"],
      ["Travel costs", "5.00"],
    ]);
  });

  it("splits a quantity printed tight against the description in a quantity-first table", () => {
    const rows = rowsOf(
      doc(
        page(1, [
          [num("Qty", 0.12), left("Description", 0.14), num("Price", 0.75), num("Amount", 0.93)],
          [num("3", 0.12), ["Website maintenance", 0.124, 0.33], num("10.00", 0.75), num("30.00", 0.93)],
          [num("1", 0.12), ["Hosting", 0.124, 0.2], num("9.00", 0.75), num("9.00", 0.93)],
        ]),
      ),
      en,
    );
    assert.deepEqual(rows, [
      ["Website maintenance", "30.00"],
      ["Hosting", "9.00"],
    ]);
  });

  it("reads a product code with a hyphen as a code, not as a negative amount", () => {
    const table = extractLineItems(
      doc(
        page(1, [
          [left("Code", 0.08), left("Description", 0.2), num("Qty", 0.6), num("Price", 0.75), num("Amount", 0.93)],
          [left("RN-1483", 0.08), left("Shipping", 0.2), num("6", 0.6), num("69.00", 0.75), num("414.00", 0.93)],
        ]),
      ),
      en,
    );
    assert.deepEqual(
      table?.rows.map((r) => [r.productCode, r.description, r.amount]),
      [["RN-1483", "Shipping", "414.00"]],
    );
  });
});

describe("line items: OCR-tolerant reading", () => {
  it("drops an OCR echo of a description read a second time", () => {
    const rows = rowsOf(
      doc(
        page(
          1,
          [
            [left("Description", 0.08), num("Qty", 0.6), num("Price", 0.75), num("Amount", 0.93)],
            [left("Cloud-Hosting", 0.08), num("1", 0.6), num("50.00", 0.75), num("50.00", 0.93)],
            [left("Support", 0.08), num("2", 0.6), num("10.00", 0.75), num("20.00", 0.93)],
          ],
          {
            source: "ocr",
            // A second reading of the same words, a little lower and cut short.
            extra: [{ text: "Cloud-Hostin", box: { x0: 0.079, y0: 0.3245, x1: 0.2, y1: 0.3345 }, confidence: 0.92 }],
          },
        ),
      ),
      en,
    );
    assert.deepEqual(rows, [
      ["Cloud-Hosting", "50.00"],
      ["Support", "20.00"],
    ]);
  });

  it("keeps two pieces of one number OCR boxed overlapping on one baseline", () => {
    const table = extractLineItems(
      doc(
        page(
          1,
          [
            [left("Concepto", 0.08), num("Uds", 0.6), num("Precio", 0.75), num("Total", 0.93)],
            [left("Gestion de proyecto", 0.08), num("4,5", 0.6), num("663,04", 0.75), ["2.983,", 0.84, 0.909]],
          ],
          {
            source: "ocr",
            extra: [{ text: "68", box: { x0: 0.884, y0: 0.3196, x1: 0.902, y1: 0.3314 }, confidence: 0.63 }],
          },
        ),
      ),
      { locale: localeHints("es-ES") },
    );
    assert.equal(table?.rows[0]?.amount, "2983.68");
  });

  it("reads the columns of a scan turned by a few degrees, whose columns lean as its rows slope", () => {
    const rows: Cell[][] = [
      [
        left("Code", 0.08),
        left("Description", 0.2),
        num("Qty", 0.56),
        left("UoM", 0.58),
        num("Price", 0.75),
        num("Amount", 0.93),
      ],
    ];
    for (let i = 1; i <= 26; i++) {
      rows.push([
        left(`AB-${1000 + i}`, 0.08),
        left(`Item ${i}`, 0.2),
        num("2", 0.56),
        left("h", 0.585),
        num("5.00", 0.75),
        num("10.00", 0.93),
      ]);
    }
    const flat = page(1, rows, { top: 0.15, spacing: 0.026, source: "ocr" });
    // Turn the page by 3 degrees about its centre (page ratios, A4 aspect).
    const aspect = 595 / 842;
    const t = Math.tan((3 * Math.PI) / 180);
    const turn = (x: number, y: number): [number, number] => [x - (t * (y - 0.5)) / aspect, y + t * aspect * (x - 0.5)];
    const words = flat.words.map((w) => {
      const [x0, y0] = turn(w.box.x0, w.box.y0);
      const [x1, y1] = turn(w.box.x1, w.box.y1);
      return { ...w, box: { x0, y0, x1: Math.max(x1, x0 + 0.001), y1: Math.max(y1, y0 + 0.005) } };
    });
    const table = extractLineItems(doc({ ...flat, words }), en);
    assert.equal(table?.rows.length, 26);
    assert.ok(
      table?.rows.every(
        (r, i) => r.productCode === `AB-${1001 + i}` && r.unit === "h" && r.description === `Item ${i + 1}`,
      ),
    );
  });

  it("closes the spaces OCR puts inside a number", () => {
    const rows = rowsOf(
      doc(
        page(
          1,
          [
            [left("Item", 0.08), num("Qty", 0.6), num("Price", 0.75), num("Line total", 0.93)],
            [left("Support hours", 0.08), num("18", 0.6), ["A$328 .90", 0.66, 0.75], ["A$5, 920.20", 0.81, 0.93]],
          ],
          { source: "ocr" },
        ),
      ),
      { locale: localeHints("en-AU") },
    );
    assert.deepEqual(rows, [["Support hours", "5920.20"]]);
  });

  it("on a scan, reads an amount that lost its separator from quantity x unit price", () => {
    const table = extractLineItems(
      doc(
        page(
          1,
          [
            [left("Beschreibung", 0.08), num("Menge", 0.6), num("Einzelpreis", 0.75), num("Gesamt", 0.93)],
            [left("Bürostuhl", 0.08), num("1", 0.6), num("72,52", 0.75), num("7252", 0.93)],
            [left("Papier", 0.08), num("2", 0.6), num("5,00", 0.75), num("10,00", 0.93)],
          ],
          { source: "ocr" },
        ),
      ),
      de,
    );
    assert.deepEqual(
      table?.rows.map((r) => r.amount),
      ["72.52", "10.00"],
    );
  });

  it("on a scan, reads a quantity that lost its separator or went unread from the amount over the unit price", () => {
    const table = extractLineItems(
      doc(
        page(
          1,
          [
            [left("Descripción", 0.08), num("Cantidad", 0.6), num("Precio", 0.75), num("Importe", 0.93)],
            // 4,5 x 684,95 = 3082,275, printed rounded: the quantity read "45".
            [left("Formación", 0.08), num("45", 0.6), num("684,95", 0.75), num("3082,28", 0.93)],
            // 1,5 x 753,91 = 1130,865: the quantity not read at all.
            [left("Mantenimiento", 0.08), num("753,91", 0.75), num("1130,87", 0.93)],
            [left("Portes", 0.08), num("2", 0.6), num("5,00", 0.75), num("10,00", 0.93)],
          ],
          { source: "ocr" },
        ),
      ),
      { locale: localeHints("es-ES") },
    );
    assert.deepEqual(
      table?.rows.map((r) => r.quantity),
      ["4.5", "1.5", "2"],
    );
  });

  it("on a scan, drops a speck OCR read as marks beside a figure", () => {
    const table = extractLineItems(
      doc(
        page(
          1,
          [
            [
              left("Kod", 0.05),
              left("Keterangan", 0.2),
              num("Kuantiti", 0.51),
              left("Unit", 0.54),
              num("Harga", 0.75),
              num("Jumlah", 0.93),
            ],
            [
              left("SC-1578", 0.05),
              left("Lesen perisian", 0.2),
              num("1.5", 0.516),
              [">>", 0.522, 0.531, 0.4],
              left("kg", 0.54),
              num("408.7600", 0.75),
            ],
            [num("613.14", 0.93)],
            [
              left("IV-2170", 0.05),
              left("Kos penghantaran", 0.2),
              num("1", 0.51),
              left("h", 0.54),
              num("19.7500", 0.75),
            ],
            [num("19.75", 0.93)],
          ],
          { source: "ocr" },
        ),
      ),
      { locale: localeHints("ms-MY") },
    );
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.quantity, r.unit]),
      [
        ["Lesen perisian", "1.5", "kg"],
        ["Kos penghantaran", "1", "h"],
      ],
    );
  });

  it("on a scan, reads a 1 OCR took for a letter before a unit in a description", () => {
    const rows = (source: "ocr" | "text") =>
      rowsOf(
        doc(
          page(
            1,
            [
              [left("Description", 0.08), num("Qty", 0.6), num("Price", 0.75), num("Amount", 0.93)],
              [left("Apples ikg", 0.08), num("2", 0.6), num("1.50", 0.75), num("3.00", 0.93)],
              [left("Il Tempo", 0.08), num("1", 0.6), num("2.00", 0.75), num("2.00", 0.93)],
            ],
            { source },
          ),
        ),
        en,
      );
    assert.deepEqual(rows("ocr"), [
      ["Apples 1kg", "3.00"],
      ["Il Tempo", "2.00"],
    ]);
    assert.deepEqual(rows("text"), [
      ["Apples ikg", "3.00"],
      ["Il Tempo", "2.00"],
    ]);
  });

  it("reads a unit word among the figures as the unit where the unit column's header was lost", () => {
    const table = extractLineItems(
      doc(
        page(
          1,
          [
            // "Unité" printed over the units, not read.
            [left("Désignation", 0.08), num("Qté", 0.55), num("Prix", 0.75), num("Montant", 0.93)],
            [left("Formation", 0.08), num("1", 0.55), left("Stk", 0.57), num("141,31", 0.75), num("141,31", 0.93)],
            [left("Câble réseau", 0.08), num("8", 0.55), left("m", 0.57), num("2,00", 0.75), num("16,00", 0.93)],
          ],
          { source: "ocr" },
        ),
      ),
      { locale: localeHints("fr-FR") },
    );
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.quantity, r.unit]),
      [
        ["Formation", "1", "Stk"],
        ["Câble réseau", "8", "m"],
      ],
    );
  });

  it("reads a rate among the figures as the tax rate where the tax column's header was lost", () => {
    const table = extractLineItems(
      doc(
        page(
          1,
          [
            // "BTW %" printed over the rates, not read.
            [left("Beschrijving", 0.08), num("Aant.", 0.57), num("Stukprijs", 0.7), num("Bedrag", 0.83)],
            [left("Installatiewerk", 0.08), num("1", 0.57), num("935,07", 0.7), num("935,07", 0.83), num("9%", 0.93)],
            [left("Training", 0.08), num("2", 0.57), num("94,00", 0.7), num("188,00", 0.83), num("21%", 0.93)],
          ],
          { source: "ocr" },
        ),
      ),
      { locale: localeHints("nl-NL") },
    );
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.amount, r.taxRate]),
      [
        ["Installatiewerk", "935.07", "9.00"],
        ["Training", "188.00", "21.00"],
      ],
    );
  });

  it("on a scan, restores a discount's lost minus sign when the printed subtotal says so", () => {
    const table = extractLineItems(
      doc(
        page(
          1,
          [
            [left("Omschrijving", 0.08), num("Aantal", 0.6), num("Prijs", 0.75), num("Bedrag", 0.93)],
            [left("Advieswerk", 0.08), num("2", 0.6), num("100,00", 0.75), num("200,00", 0.93)],
            [left("Korting 5%", 0.08), num("10,00", 0.93)],
          ],
          { source: "ocr" },
        ),
      ),
      { locale: localeHints("nl-NL"), subtotal: "190.00" },
    );
    assert.deepEqual(
      table?.rows.map((r) => r.amount),
      ["200.00", "-10.00"],
    );
    assert.equal(table?.checks.sumCheck?.closes, true);
  });

  it("leaves a born-digital row that does not close as printed", () => {
    const table = extractLineItems(
      doc(
        page(1, [
          [left("Description", 0.08), num("Qty", 0.6), num("Price", 0.75), num("Amount", 0.93)],
          [left("Chair", 0.08), num("1", 0.6), num("72.52", 0.75), num("7252.00", 0.93)],
        ]),
      ),
      en,
    );
    assert.equal(table?.rows[0]?.amount, "7252.00");
  });
});

describe("line items: table extent", () => {
  it("goes on past a page total at the foot of a page", () => {
    const rows = rowsOf(
      doc(
        page(1, [
          [left("Bezeichnung", 0.08), num("Menge", 0.6), num("Preis", 0.75), num("Betrag", 0.93)],
          [left("Montage", 0.08), num("1", 0.6), num("100,00", 0.75), num("100,00", 0.93)],
          [left("Seitensumme", 0.08), num("100,00", 0.93)],
        ]),
        page(2, [
          [left("Bezeichnung", 0.08), num("Menge", 0.6), num("Preis", 0.75), num("Betrag", 0.93)],
          [left("Wartung", 0.08), num("2", 0.6), num("50,00", 0.75), num("100,00", 0.93)],
          [left("Zwischensumme", 0.6), num("200,00", 0.93)],
        ]),
      ),
      de,
    );
    assert.deepEqual(rows, [
      ["Montage", "100.00"],
      ["Wartung", "100.00"],
    ]);
  });

  it("runs on to the next page without a repeated header when only the page's foot follows the rows", () => {
    const rows = rowsOf(
      doc(
        {
          ...page(1, [
            [left("Description", 0.08), num("Qty", 0.6), num("Price", 0.75), num("Amount", 0.93)],
            [left("Installation", 0.08), num("1", 0.6), num("100.00", 0.75), num("100.00", 0.93)],
          ]),
          words: [
            ...page(1, [
              [left("Description", 0.08), num("Qty", 0.6), num("Price", 0.75), num("Amount", 0.93)],
              [left("Installation", 0.08), num("1", 0.6), num("100.00", 0.75), num("100.00", 0.93)],
            ]).words,
            ...page(1, [[left("IBAN GB33BUKB20201555555555", 0.08)], [num("Page 1 of 2", 0.93)]], { top: 0.9 }).words,
          ],
        },
        page(
          2,
          [
            [left("INVOICE 1234", 0.7)],
            [left("Maintenance", 0.08), num("2", 0.6), num("50.00", 0.75), num("100.00", 0.93)],
            [left("Subtotal", 0.6), num("200.00", 0.93)],
          ],
          { top: 0.06 },
        ),
      ),
      en,
    );
    assert.deepEqual(rows, [
      ["Installation", "100.00"],
      ["Maintenance", "100.00"],
    ]);
  });

  it("ends a receipt's items at a total label OCR split in two", () => {
    const rows = rowsOf(
      doc(
        page(
          1,
          [
            [left("KEDAI MAJU", 0.3)],
            [left("TEA", 0.1), num("3.50", 0.6)],
            [left("NASI LEMAK", 0.1), num("5.00", 0.6)],
            [left("SUB", 0.1), left("TOTAL", 0.25), num("8.50", 0.6)],
            [left("SERVICE TAX 6%", 0.1), num("0.51", 0.6)],
          ],
          { source: "ocr" },
        ),
      ),
      { locale: localeHints("en-MY"), kind: "receipt" },
    );
    assert.deepEqual(rows, [
      ["TEA", "3.50"],
      ["NASI LEMAK", "5.00"],
    ]);
  });
});
