import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { extractLineItems } from "../../src/extract/line-items/index.js";
import { localeHints } from "../../src/extract/normalise/locale.js";
import { type Cell, tableDocument, tablePage } from "../helpers/table-page.js";

const page = (pageNum: number, rows: readonly (readonly Cell[])[], top?: number) => tablePage(pageNum, rows, { top });
const doc = tableDocument;

const HEADER: Cell[] = [
  ["Description", 0.08, 0.2],
  ["Qty", 0.6, 0.63],
  ["Unit price", 0.7, 0.78],
  ["Amount", 0.86, 0.93],
];

function item(description: string, qty: string, unit: string, amount: string): Cell[] {
  return [
    [description, 0.08, 0.08 + description.length * 0.012],
    [qty, 0.63 - qty.length * 0.012, 0.63],
    [unit, 0.78 - unit.length * 0.012, 0.78],
    [amount, 0.93 - amount.length * 0.012, 0.93],
  ];
}

function total(label: string, amount: string): Cell[] {
  return [
    [label, 0.6, 0.6 + label.length * 0.012],
    [amount, 0.93 - amount.length * 0.012, 0.93],
  ];
}

const en = { locale: localeHints("en-GB") };

describe("extractLineItems", () => {
  it("reads a wrapped description as one row", () => {
    const table = extractLineItems(
      doc(
        page(1, [
          HEADER,
          item("Office chair", "2", "150.00", "300.00"),
          [["ergonomic, black", 0.08, 0.26]],
          item("Desk lamp", "1", "45.50", "45.50"),
          total("Subtotal", "345.50"),
        ]),
      ),
      en,
    );
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => [r.description, r.quantity, r.unitPrice, r.amount]),
      [
        ["Office chair ergonomic, black", "2", "150.00", "300.00"],
        ["Desk lamp", "1", "45.50", "45.50"],
      ],
    );
    const boxes = table.rows[0]?.boundingBoxes.find((b) => b.cell === "description");
    assert.equal(boxes?.tokenIds.length, 4);
  });

  it("reads a discount as a row with a negative amount and no quantity", () => {
    const table = extractLineItems(
      doc(
        page(1, [
          HEADER,
          item("Consulting", "10", "95.00", "950.00"),
          [
            ["Discount 5%", 0.08, 0.2],
            ["-47.50", 0.86, 0.93],
          ],
          total("Subtotal", "902.50"),
        ]),
      ),
      { ...en, subtotal: "902.50" },
    );
    assert.ok(table);
    assert.equal(table.rows.length, 2);
    assert.deepEqual(
      [table.rows[1]?.description, table.rows[1]?.quantity, table.rows[1]?.amount],
      ["Discount 5%", null, "-47.50"],
    );
    assert.equal(table.checks.sumCheck?.closes, true);
  });

  it("does not take subtotal, tax and total lines as rows", () => {
    const table = extractLineItems(
      doc(
        page(1, [
          HEADER,
          item("Widget", "3", "10.00", "30.00"),
          total("Subtotal", "30.00"),
          total("VAT 20%", "6.00"),
          total("Total", "36.00"),
        ]),
      ),
      en,
    );
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => r.description),
      ["Widget"],
    );
  });

  it("continues a table on page 2 under a repeated header, past carried-forward lines", () => {
    const table = extractLineItems(
      doc(
        page(1, [
          HEADER,
          item("Cable CAT6", "4", "5.00", "20.00"),
          item("Switch 8 port", "1", "80.00", "80.00"),
          [
            ["Carried forward", 0.08, 0.24],
            ["100.00", 0.86, 0.93],
          ],
        ]),
        page(
          2,
          [
            HEADER,
            [
              ["Brought forward", 0.08, 0.24],
              ["100.00", 0.86, 0.93],
            ],
            item("Patch panel", "2", "35.00", "70.00"),
            total("Subtotal", "170.00"),
          ],
          0.12,
        ),
      ),
      { ...en, subtotal: "170.00" },
    );
    assert.ok(table);
    assert.deepEqual(
      table.rows.map((r) => [r.description, r.amount]),
      [
        ["Cable CAT6", "20.00"],
        ["Switch 8 port", "80.00"],
        ["Patch panel", "70.00"],
      ],
    );
    assert.equal(table.rows[2]?.boundingBoxes[0]?.page, 2);
    assert.equal(table.page, 1);
    assert.equal(table.checks.sumCheck?.closes, true);
  });

  it("gives a row whose description starts above its figures, under a brought-forward line, all of its lines", () => {
    const desc = (text: string): Cell[] => [[text, 0.08, 0.08 + text.length * 0.012]];
    // Rows are blocks of three lines, figures on the middle one, blocks set apart wider than their lines.
    const table = extractLineItems(
      doc(
        tablePage(
          1,
          [
            HEADER,
            desc("Cable CAT6"),
            item("for the server", "4", "5.00", "20.00"),
            desc("room"),
            desc("Switch 8 port"),
            item("managed with", "1", "80.00", "80.00"),
            desc("rack ears"),
            [
              ["Carried forward", 0.08, 0.24],
              ["100.00", 0.86, 0.93],
            ],
          ],
          { tops: [0.3, 0.318, 0.333, 0.348, 0.373, 0.388, 0.403, 0.428] },
        ),
        tablePage(
          2,
          [
            HEADER,
            [
              ["Brought forward", 0.08, 0.24],
              ["100.00", 0.86, 0.93],
            ],
            desc("Patch panel"),
            item("24 ports with", "2", "35.00", "70.00"),
            desc("cable ties"),
            total("Subtotal", "170.00"),
          ],
          { tops: [0.12, 0.15, 0.165, 0.18, 0.195, 0.23] },
        ),
      ),
      { ...en, subtotal: "170.00" },
    );
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.amount]),
      [
        ["Cable CAT6 for the server room", "20.00"],
        ["Switch 8 port managed with rack ears", "80.00"],
        ["Patch panel 24 ports with cable ties", "70.00"],
      ],
    );
  });

  it("reports the expected and found sums when the rows do not add up", () => {
    const table = extractLineItems(
      doc(page(1, [HEADER, item("Widget", "3", "10.00", "30.00"), item("Gadget", "1", "12.00", "12.00")])),
      { ...en, subtotal: "50.00", total: "60.00" },
    );
    assert.ok(table);
    assert.deepEqual(table.checks.sumCheck, { against: "subtotal", closes: false, expected: "50.00", found: "42.00" });
    assert.equal(table.checks.rowsClosing, 2);
  });

  it("checks quantity x unit price per row", () => {
    const table = extractLineItems(doc(page(1, [HEADER, item("Widget", "3", "10.00", "31.00")])), en);
    assert.ok(table);
    assert.equal(table.checks.rowsOpen, 1);
    assert.ok((table.rows[0]?.confidence ?? 1) < 0.6);
  });

  it("reads a receipt's item lines without a header", () => {
    const receipt = page(
      1,
      [
        [["CORNER SHOP", 0.3, 0.7]],
        [["12 High Street", 0.3, 0.7]],
        [["Date 12/03/2024 10:32", 0.05, 0.6]],
        [
          ["Milk 1L", 0.05, 0.3],
          ["1.20", 0.85, 0.95],
        ],
        [["Bread", 0.05, 0.2]],
        [
          ["2 x 1.50", 0.08, 0.3],
          ["3.00", 0.85, 0.95],
        ],
        [
          ["3 x Apples", 0.05, 0.4],
          ["1.80", 0.85, 0.95],
        ],
        [
          ["TOTAL", 0.05, 0.2],
          ["6.00", 0.85, 0.95],
        ],
        [
          ["CASH", 0.05, 0.2],
          ["10.00", 0.85, 0.95],
        ],
      ],
      0.05,
    );
    const table = extractLineItems(doc(receipt), { ...en, kind: "receipt", total: "6.00" });
    assert.ok(table);
    assert.equal(table.mode, "receipt");
    assert.deepEqual(
      table.rows.map((r) => [r.description, r.quantity, r.unitPrice, r.amount]),
      [
        ["Milk 1L", null, null, "1.20"],
        ["Bread", "2", "1.50", "3.00"],
        ["Apples", "3", "0.60", "1.80"],
      ],
    );
    assert.equal(table.checks.sumCheck?.closes, true);
  });

  it("finds no table in a page without one", () => {
    assert.equal(extractLineItems(doc(page(1, [[["Dear customer", 0.1, 0.3]]])), en), null);
  });
});
