import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { extractLineItems } from "../../src/extract/line-items/index.js";
import { localeHints } from "../../src/extract/normalise/locale.js";
import { type Cell, left as leftCell, right as rightCell, tableDocument, tablePage } from "../helpers/table-page.js";

const en = { locale: localeHints("en-GB") };
const de = { locale: localeHints("de-DE") };

const left = (text: string, x0: number): Cell => leftCell(text, x0, 0.007);
const right = (text: string, x1: number): Cell => rightCell(text, x1, 0.007);

describe("extractLineItems: the amount column told by the rows' arithmetic", () => {
  it("reads the rightmost column as the amount under a header word it does not know", () => {
    const lines: Cell[][] = [
      [left("Description", 0.1), right("Qty", 0.55), right("Unit price", 0.7), right("Extension", 0.9)],
      [left("Website maintenance", 0.1), right("2", 0.55), right("120.00", 0.7), right("240.00", 0.9)],
      [left("Cloud hosting", 0.1), right("3", 0.55), right("25.50", 0.7), right("76.50", 0.9)],
      [left("Network cable CAT6", 0.1), right("10", 0.55), right("4.99", 0.7), right("49.90", 0.9)],
      [left("Subtotal", 0.6), right("366.40", 0.9)],
    ];
    const table = extractLineItems(tableDocument(tablePage(1, lines)), { ...en, subtotal: "366.40" });
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => [r.description, r.quantity, r.unitPrice, r.amount]),
      [
        ["Website maintenance", "2", "120.00", "240.00"],
        ["Cloud hosting", "3", "25.50", "76.50"],
        ["Network cable CAT6", "10", "4.99", "49.90"],
      ],
    );
    assert.equal(table.checks.sumCheck?.closes, true);
  });

  it("reads the amount under a header word it does not know where each row's amount stands on the line under it", () => {
    const lines: Cell[][] = [
      [left("Description", 0.1), right("Hours", 0.55), right("Unit price net", 0.7), right("Extension", 0.9)],
      [left("Monitor 27 inch", 0.1), right("19", 0.55), right("70.00", 0.7)],
      [right("1,330.00", 0.9)],
      [left("Delivery charge", 0.1), right("16", 0.55), right("14.00", 0.7)],
      [right("224.00", 0.9)],
      [left("Website maintenance", 0.1), right("1", 0.55), right("557.19", 0.7)],
      [right("557.19", 0.9)],
    ];
    const tops = [0.2, 0.23, 0.2405, 0.27, 0.2805, 0.31, 0.3205];
    const table = extractLineItems(tableDocument(tablePage(1, lines, { spacing: 0.0105, tops })), en);
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.quantity, r.unitPrice, r.amount]),
      [
        ["Monitor 27 inch", "19", "70.00", "1330.00"],
        ["Delivery charge", "16", "14.00", "224.00"],
        ["Website maintenance", "1", "557.19", "557.19"],
      ],
    );
  });

  it("reads a column with no header over it as the amount right of the quantity, the price coming first", () => {
    // "Concepto | Precio | Cantidad" and no title over the amounts (OCR lost "Importe"): each amount is nearer the
    // quantity's column than any other, yet no quantity.
    const es = { locale: localeHints("es-ES") };
    const lines: Cell[][] = [
      [left("Concepto", 0.11), left("Precio", 0.594), ["Cantidad", 0.675, 0.745]],
      [left("Filtro de repuesto", 0.11), right("5,00", 0.64), right("23", 0.735), right("115,00", 0.862)],
      [left("Formación (media jornada)", 0.11), right("499,38", 0.64), right("1", 0.735), right("499,38", 0.862)],
      [left("Silla de oficina ergonómica", 0.11), right("941,95", 0.64), right("26", 0.735), right("24.490,70", 0.862)],
      [left("Base imponible", 0.567), right("25.105,08", 0.862)],
    ];
    const table = extractLineItems(tableDocument(tablePage(1, lines)), es);
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.quantity, r.unitPrice, r.amount]),
      [
        ["Filtro de repuesto", "23", "5.00", "115.00"],
        ["Formación (media jornada)", "1", "499.38", "499.38"],
        ["Silla de oficina ergonómica", "26", "941.95", "24490.70"],
      ],
    );
  });

  it("reads a column with no header over it as the amount where the quantity comes first", () => {
    const lines: Cell[][] = [
      [right("Qty", 0.15), left("Description", 0.17), right("Unit price", 0.76)],
      [right("7.5", 0.15), left("Office chair, ergonomic", 0.17), right("1,875.13", 0.76), right("14,063.48", 0.905)],
      [right("31", 0.15), left("Project management", 0.17), right("60.00", 0.76), right("1,860.00", 0.905)],
      [right("1", 0.15), left("Delivery charge", 0.17), right("218.62", 0.76), right("218.62", 0.905)],
      [right("30", 0.15), left("Replacement filter", 0.17), right("17.00", 0.76), right("510.00", 0.905)],
    ];
    const table = extractLineItems(tableDocument(tablePage(1, lines)), en);
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.quantity, r.unitPrice, r.amount]),
      [
        ["Office chair, ergonomic", "7.5", "1875.13", "14063.48"],
        ["Project management", "31", "60.00", "1860.00"],
        ["Delivery charge", "1", "218.62", "218.62"],
        ["Replacement filter", "30", "17.00", "510.00"],
      ],
    );
  });

  it("reads a column with no header over it as the amount, on a repeated header's page too", () => {
    const header: Cell[] = [left("Bezeichnung", 0.1), right("Menge", 0.55), right("Einzelpreis", 0.7)];
    const page1: Cell[][] = [
      header,
      [left("Projektmanagement", 0.1), right("4", 0.55), right("95,00", 0.7), right("380,00", 0.9)],
      [left("Netzwerkkabel", 0.1), right("12", 0.55), right("3,50", 0.7), right("42,00", 0.9)],
    ];
    const page2: Cell[][] = [
      header,
      [left("Wartung", 0.1), right("1", 0.55), right("150,00", 0.7), right("150,00", 0.9)],
      [left("Zwischensumme", 0.6), right("572,00", 0.9)],
    ];
    const table = extractLineItems(tableDocument(tablePage(1, page1), tablePage(2, page2)), {
      ...de,
      subtotal: "572.00",
    });
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => [r.description, r.unitPrice, r.amount]),
      [
        ["Projektmanagement", "95.00", "380.00"],
        ["Netzwerkkabel", "3.50", "42.00"],
        ["Wartung", "150.00", "150.00"],
      ],
    );
  });

  it("keeps the rightmost priced column as the amount where nothing right of it closes the rows", () => {
    const lines: Cell[][] = [
      [left("Description", 0.1), right("Qty", 0.55), right("Price", 0.9)],
      [left("Website maintenance", 0.1), right("2", 0.55), right("240.00", 0.9)],
      [left("Cloud hosting", 0.1), right("3", 0.55), right("76.50", 0.9)],
    ];
    const table = extractLineItems(tableDocument(tablePage(1, lines)), en);
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => [r.quantity, r.unitPrice, r.amount]),
      [
        ["2", null, "240.00"],
        ["3", null, "76.50"],
      ],
    );
  });

  // English headers of software translated from German name the count "Amount" (Anzahl) and the line's sum "Total".
  const counted: Cell[] = [
    left("Amount", 0.1),
    left("Product", 0.2),
    right("VAT", 0.52),
    right("Price", 0.65),
    right("Total", 0.9),
  ];

  it("reads a cell naming the amount as the quantity where it times the unit price gives the number under a later one", () => {
    const page1: Cell[][] = [
      counted,
      // Set close under the header: "(hours)" on a row names no quantity column.
      [
        left("1.00", 0.1),
        left("Design (hours): Of a sample", 0.2),
        right("7%", 0.52),
        right("160.00", 0.65),
        right("160.00", 0.9),
      ],
      [
        left("400.00", 0.1),
        left("Ballons: various colors", 0.2),
        right("19%", 0.52),
        right("0.79", 0.65),
        right("316.00", 0.9),
      ],
    ];
    const page2: Cell[][] = [
      counted,
      [
        left("800.00", 0.1),
        left("Hot air (litres)", 0.2),
        right("19%", 0.52),
        right("0.025 €", 0.65),
        right("20.00", 0.9),
      ],
      [left("Net total", 0.6), right("496.00", 0.9)],
    ];
    const table = extractLineItems(
      tableDocument(tablePage(1, page1, { spacing: 0.018 }), tablePage(2, page2, { spacing: 0.018 })),
      { ...en, subtotal: "496.00" },
    );
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => [r.description, r.quantity, r.unitPrice, r.amount, r.taxRate]),
      [
        ["Design (hours): Of a sample", "1", "160.00", "160.00", "7.00"],
        ["Ballons: various colors", "400", "0.79", "316.00", "19.00"],
        ["Hot air (litres)", "800", "0.025", "20.00", "19.00"],
      ],
    );
    assert.equal(table.checks.sumCheck?.closes, true);
  });

  it('reads the count under "Amount" where the later total stands on the line under each row', () => {
    const lines: Cell[][] = [
      [left("#", 0.08), left("Service", 0.2), right("Amount", 0.55), right("Rate", 0.7), right("Line total", 0.9)],
      [left("1", 0.08), left("Cloud hosting (monthly)", 0.2), right("32", 0.55), right("540.17", 0.7)],
      [right("17,285.44", 0.9)],
      [left("2", 0.08), left("Office chair, ergonomic", 0.2), right("1", 0.55), right("82.00", 0.7)],
      [right("82.00", 0.9)],
      [left("3", 0.08), left("Project management", 0.2), right("20", 0.55), right("1,226.33", 0.7)],
      [right("24,526.60", 0.9)],
    ];
    const tops = [0.2, 0.23, 0.2405, 0.27, 0.2805, 0.31, 0.3205];
    const table = extractLineItems(tableDocument(tablePage(1, lines, { spacing: 0.0105, tops })), en);
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.quantity, r.unitPrice, r.amount]),
      [
        ["Cloud hosting (monthly)", "32", "540.17", "17285.44"],
        ["Office chair, ergonomic", "1", "82.00", "82.00"],
        ["Project management", "20", "1226.33", "24526.60"],
      ],
    );
  });

  it("keeps the first cell naming the amount where the rows do not close that way", () => {
    const lines: Cell[][] = [
      [left("Product", 0.1), right("Amount", 0.45), right("Price", 0.65), right("Total", 0.9)],
      [left("Annual licence", 0.1), right("100.00", 0.45), right("100.00", 0.65), right("119.00", 0.9)],
      [left("Support plan", 0.1), right("50.00", 0.45), right("50.00", 0.65), right("59.50", 0.9)],
    ];
    const table = extractLineItems(tableDocument(tablePage(1, lines)), en);
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => [r.description, r.quantity, r.amount]),
      [
        ["Annual licence", null, "100.00"],
        ["Support plan", null, "50.00"],
      ],
    );
  });
});
