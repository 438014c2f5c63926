/**
 * Line items as a catalogue field (issue #18): a table as the field, its sum warning, the catalogue's field sets,
 * the `line-items-sum` condition, a reviewer's rows and the CSV cell.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findFieldSet, resolveFields } from "../../src/catalog/lookup.js";
import { csvRow } from "../../src/cli/remote-output.js";
import type { LineItem } from "../../src/domain/line-items.js";
import { isLineItemsField, type Results } from "../../src/domain/result.js";
import { lineItemsField, lineItemsWarning } from "../../src/extract/index.js";
import type { LineItemRow, LineItemTable } from "../../src/extract/line-items/index.js";
import { parseValidateOptions } from "../../src/validate/conditions.js";
import { evaluateConditions } from "../../src/validate/evaluate.js";
import { applyCorrections, parseCorrections } from "../../src/validate/review.js";

function row(description: string, quantity: string | null, unitPrice: string | null, amount: string): LineItemRow {
  return {
    description,
    quantity,
    unit: null,
    unitPrice,
    amount,
    taxRate: "19.00",
    productCode: null,
    date: null,
    confidence: 0.95,
    boundingBoxes: [
      { cell: "description", page: 1, box: { x0: 0.1, y0: 0.3, x1: 0.3, y1: 0.32 }, tokenIds: [10, 11] },
      { cell: "amount", page: 1, box: { x0: 0.8, y0: 0.3, x1: 0.9, y1: 0.32 }, tokenIds: [14] },
    ],
  };
}

function table(closes: boolean | null, rowsOpen = 0): LineItemTable {
  const rows = [row("Office chairs", "4", "210.00", "840.00"), row("Standing desk", "1", "197.44", "197.44")];
  return {
    rows,
    confidence: 0.8,
    page: 1,
    box: { x0: 0.1, y0: 0.3, x1: 0.9, y1: 0.4 },
    mode: "header",
    checks: {
      rowsClosing: 2 - rowsOpen,
      rowsOpen,
      sum: "1037.44",
      sumCheck:
        closes === null
          ? null
          : { against: "subtotal", closes, expected: closes ? "1037.44" : "1137.44", found: "1037.44" },
    },
  };
}

describe("a line-item table as the catalogue's field", () => {
  it("lists the rows with cell boxes in the field's box shape, the table's box on its first page", () => {
    const field = lineItemsField("invoice.lineItems", table(null));
    assert.ok(isLineItemsField(field));
    assert.equal(field.value.length, 2);
    assert.deepEqual(field.value[0], {
      description: "Office chairs",
      quantity: "4",
      unit: null,
      unitPrice: "210.00",
      amount: "840.00",
      taxRate: "19.00",
      productCode: null,
      date: null,
      confidence: 0.95,
      boundingBoxes: [
        {
          cell: "description",
          pageNum: 1,
          topLeft: { x: 0.1, y: 0.3 },
          bottomRight: { x: 0.3, y: 0.32 },
          tokenIds: [10, 11],
        },
        { cell: "amount", pageNum: 1, topLeft: { x: 0.8, y: 0.3 }, bottomRight: { x: 0.9, y: 0.32 }, tokenIds: [14] },
      ],
    });
    assert.deepEqual(field.boundingBox, {
      pageNum: 1,
      topLeft: { x: 0.1, y: 0.3 },
      bottomRight: { x: 0.9, y: 0.4 },
      tokenIds: [10, 11, 14],
    });
    assert.equal(field.confidence, 0.8, "no sum to check: the table's own confidence");
  });

  it("raises the confidence only when every row and the sum close", () => {
    assert.equal(lineItemsField("invoice.lineItems", table(true)).confidence, 0.895);
    assert.equal(lineItemsField("invoice.lineItems", table(true, 1)).confidence, 0.8);
    assert.equal(lineItemsField("invoice.lineItems", table(false)).confidence, 0.8);
  });

  it("is null with a confidence and no box when there is no table", () => {
    const field = lineItemsField("receipt.lineItems", null);
    assert.deepEqual(field, { name: "receipt.lineItems", value: null, confidence: 0.5, boundingBox: null });
    assert.equal(isLineItemsField(field), false);
  });

  it("warns line_items_sum_mismatch naming the printed amount and the rows' sum, only when the sum does not close", () => {
    assert.deepEqual(lineItemsWarning("invoice.lineItems", table(false)), {
      code: "line_items_sum_mismatch",
      page: 1,
      field: "invoice.lineItems",
      message:
        "invoice.lineItems: the rows' amounts add up to 1037.44, the subtotal printed is 1137.44; rows may be missing or misread.",
    });
    assert.equal(lineItemsWarning("invoice.lineItems", table(true)), null);
    assert.equal(lineItemsWarning("invoice.lineItems", table(null)), null);
    assert.equal(lineItemsWarning("invoice.lineItems", null), null);
  });
});

describe("the catalogue's line-items fields", () => {
  const names = (selection: Parameters<typeof resolveFields>[0]) => resolveFields(selection).map((f) => f.name);

  it("are in the invoice and receipt field sets, so in the invoices and receipts products", () => {
    assert.ok(names({ products: ["invoices"] }).includes("invoice.lineItems"));
    assert.ok(names({ products: ["receipts"] }).includes("receipt.lineItems"));
    assert.equal(findFieldSet("invoice")?.fields.find((f) => f.name === "invoice.lineItems")?.type, "lineItems");
  });

  it("are selected alone by the lineItems field set, each once beside the sets that hold them too", () => {
    assert.deepEqual(names({ fieldSets: ["lineItems"] }), ["invoice.lineItems", "receipt.lineItems"]);
    const both = names({ products: ["invoices"], fieldSets: ["lineItems"] });
    assert.equal(both.filter((n) => n === "invoice.lineItems").length, 1);
    assert.equal(new Set(both).size, both.length);
  });
});

const MISMATCH: Results = {
  fields: [lineItemsField("invoice.lineItems", table(false))],
  warnings: [lineItemsWarning("invoice.lineItems", table(false)) ?? assert.fail("no warning")],
};

describe("the line-items-sum condition", () => {
  it("parses with or without a field, and only on a field set with line items", () => {
    const options = (conditions: unknown[], fieldset = "invoice") =>
      parseValidateOptions({ prediction: { fieldset, conditions } }, [fieldset]);
    assert.deepEqual(options([{ type: "line-items-sum" }]).conditions, [{ type: "line-items-sum" }]);
    assert.deepEqual(options([{ type: "line-items-sum", field: "invoice.lineItems" }]).conditions, [
      { type: "line-items-sum", field: "invoice.lineItems" },
    ]);
    assert.deepEqual(options([{ type: "line-items-sum" }], "lineItems").conditions, [{ type: "line-items-sum" }]);
    assert.throws(() => options([{ type: "line-items-sum" }], "parties"), /conditions\[0\].*no line-items field/);
    assert.throws(
      () => options([{ type: "line-items-sum", field: "invoice.total" }]),
      /"invoice.total" is a amount field, not line items/,
    );
    assert.throws(() => options([{ type: "line-items-sum", min: 1 }]), /unknown key\(s\) min/);
    assert.throws(
      () => options([{ type: "field-value-range", field: "invoice.lineItems", min: 0 }]),
      /a value range needs an amount or date field/,
    );
  });

  it("breaks on a line_items_sum_mismatch of the validated fields, with the rows as the breach's value", () => {
    const fields = MISMATCH.fields.filter(isLineItemsField);
    const breaches = evaluateConditions([{ type: "line-items-sum" }], fields, MISMATCH.warnings);
    assert.equal(breaches.length, 1);
    assert.equal(breaches[0]?.field, "invoice.lineItems");
    const value = breaches[0]?.value;
    assert.ok(Array.isArray(value));
    assert.equal(value.length, 2);
    assert.deepEqual(evaluateConditions([{ type: "line-items-sum" }], fields, []), []);
    assert.deepEqual(
      evaluateConditions([{ type: "line-items-sum", field: "receipt.lineItems" }], fields, MISMATCH.warnings),
      [],
    );
    assert.deepEqual(evaluateConditions([{ type: "einvoice-consistent" }], fields, MISMATCH.warnings), []);
  });

  it("field-present breaks on a line-items field without rows", () => {
    const none = [lineItemsField("invoice.lineItems", null)];
    const condition = { type: "field-present", field: "invoice.lineItems" } as const;
    assert.equal(evaluateConditions([condition], none).length, 1);
    assert.equal(evaluateConditions([condition], MISMATCH.fields.filter(isLineItemsField)).length, 0);
  });
});

describe("a reviewer's line items", () => {
  const predicted = MISMATCH.fields[0] as { value: LineItem[] };
  const cells = (r: LineItem) => {
    const { confidence: _c, boundingBoxes: _b, ...rest } = r;
    return rest;
  };

  it("are checked and stored in the catalogue's normal forms; unchanged rows keep their boxes", () => {
    const corrections = parseCorrections(
      {
        fields: [
          {
            name: "invoice.lineItems",
            value: [
              predicted.value[0],
              { ...cells(predicted.value[1] as LineItem), amount: "297.4", quantity: "1.50", unitPrice: " 198.2 " },
              { description: "Delivery", amount: "-5", taxRate: "7" },
            ],
          },
        ],
      },
      "invoice",
    );
    const resolved = applyCorrections(MISMATCH, corrections).fields[0];
    assert.ok(resolved && isLineItemsField(resolved));
    assert.equal(resolved.reviewed, true);
    assert.equal(resolved.confidence, 1);
    assert.equal(resolved.boundingBox, null, "the rows changed: the predicted box no longer shows them");
    assert.deepEqual(
      resolved.value.map((r) => [r.description, r.quantity, r.unitPrice, r.amount, r.taxRate, r.confidence]),
      [
        ["Office chairs", "4", "210.00", "840.00", "19.00", 1],
        ["Standing desk", "1.5", "198.20", "297.40", "19.00", 1],
        ["Delivery", null, null, "-5.00", "7.00", 1],
      ],
    );
    assert.deepEqual(resolved.value[0]?.boundingBoxes, predicted.value[0]?.boundingBoxes);
    assert.deepEqual(resolved.value[1]?.boundingBoxes, []);
  });

  it("are refused naming the row and cell when a cell is malformed; an empty array is no line items", () => {
    const resolve = (value: unknown) => parseCorrections({ fields: [{ name: "invoice.lineItems", value }] }, "invoice");
    assert.throws(
      () => resolve([{ amount: "12,50" }]),
      /fields\[0\] \("invoice.lineItems"\).value\[0\].amount must be an amount/,
    );
    assert.throws(() => resolve([{ colour: "red" }]), /value\[0\]: unknown cell\(s\) colour/);
    assert.throws(() => resolve([{ description: 5 }]), /value\[0\].description must be a string or null/);
    assert.throws(() => resolve("840.00"), /must be an array of line-item rows or null/);
    assert.throws(
      () => parseCorrections({ fields: [{ name: "invoice.total", value: [] }] }, "invoice"),
      /value must be a string or null/,
    );
    assert.deepEqual(resolve([]), [{ name: "invoice.lineItems", value: null }]);
  });
});

describe("CSV of a result with line items", () => {
  it("puts the rows' cells as JSON in the field's one cell", () => {
    const line = csvRow({ fileId: "f1", status: "FINALISED", results: MISMATCH }, ["invoice.lineItems"]);
    const cell = line.slice("f1,".length + 1 + "FINALISED,".length).trim();
    const rows = JSON.parse(cell.slice(1, -1).replace(/""/g, '"')) as Record<string, unknown>[];
    assert.deepEqual(rows[1], {
      description: "Standing desk",
      quantity: "1",
      unit: null,
      unitPrice: "197.44",
      amount: "197.44",
      taxRate: "19.00",
      productCode: null,
      date: null,
    });
  });
});
