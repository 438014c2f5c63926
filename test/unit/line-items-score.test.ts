/** Line-item scoring shared by bench:line-items and bench:accuracy: array labels, rows matched per document. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatLineItems, scoreLineItemOutcomes, scoreRows, tally } from "../../bench/line-items-score.js";
import { type CliLine, parseLabels, predictionsOf } from "../../bench/score.js";

const label = {
  file: "a.pdf",
  product: "invoices",
  fields: {
    "invoice.total": "119.00",
    "invoice.lineItems": [
      { description: "Büro-Stuhl", quantity: "1", unitPrice: "70.00", amount: "70.00", taxRate: "19.00" },
      { description: "Papier", quantity: "2", unitPrice: "15.00", amount: "30.00", taxRate: "19.00" },
    ],
  },
};

describe("line-item scoring", () => {
  it("keeps array labels out of the scalar fields and reads array values from the CLI", () => {
    const [parsed] = parseLabels(JSON.stringify(label));
    assert.deepEqual(parsed?.fields, { "invoice.total": "119.00" });
    assert.equal(parsed?.lists?.["invoice.lineItems"]?.length, 2);
    const line: CliLine = {
      file: "a.pdf",
      status: "FINALISED",
      results: {
        fields: [
          { name: "invoice.total", value: "119.00", confidence: 0.9 },
          {
            name: "invoice.lineItems",
            value: [
              { description: "BURO STUHL", quantity: "1", unitPrice: "70.00", amount: "70", taxRate: "19.00" },
              { description: "Papier", quantity: "3", unitPrice: "15.00", amount: "30.00", taxRate: null },
              { description: "Versand", quantity: null, unitPrice: null, amount: "5.00", taxRate: null },
            ],
            confidence: 0.8,
          },
        ],
      },
    };
    const predicted = predictionsOf(line);
    assert.equal(predicted?.get("invoice.lineItems")?.value, null);
    assert.ok(parsed !== undefined);
    const docs = scoreLineItemOutcomes([{ label: parsed, predicted }], () => "generator A");
    assert.ok(docs !== null);
    const t = tally(docs);
    // Rows match on folded description and numeric amount; cells are then scored per column.
    assert.deepEqual([t.truth, t.predicted, t.matched], [2, 3, 2]);
    assert.equal(t.f1.toFixed(3), "0.800");
    assert.deepEqual(t.cells.get("quantity"), { n: 2, ok: 1 });
    assert.deepEqual(t.cells.get("taxRate"), { n: 2, ok: 1 });
    assert.match(formatLineItems(docs), /row F1 0\.800/);
  });

  it("says nothing to score when the pipeline returns no line-item field", () => {
    const [parsed] = parseLabels(JSON.stringify(label));
    assert.ok(parsed !== undefined);
    const predicted = new Map<string, { rows?: unknown[] }>([["invoice.total", {}]]);
    assert.equal(
      scoreLineItemOutcomes([{ label: parsed, predicted }], () => null),
      null,
    );
  });

  it("reports each source beside the pooled figure", () => {
    const row = (description: string, amount: string) => ({ description, amount });
    const docs = [
      { file: "a", product: "invoices", group: "A", truth: [row("x", "1.00")], predicted: [row("x", "1.00")] },
      { file: "b", product: "invoices", group: "B", truth: [row("y", "2.00")], predicted: [row("z", "2.00")] },
    ].map((d) => ({ ...d, score: scoreRows(d.truth, d.predicted) }));
    const text = formatLineItems(docs);
    assert.match(text, /2-fold by PDF producer/);
    assert.match(text, /mean row F1 over sources \(macro\) 0\.500/);
  });

  it("counts as located, not matched, a row whose label is the leading words of the description read", () => {
    const row = (description: string, amount: string) => ({ description, amount });
    const score = scoreRows(
      [row("PRESTATION SUPPORT", "60.00"), row("APPEL", "5.00"), row("Papier", "3.00")],
      [row("PRESTATION SUPPORT - Description", "60.00"), row("APPELS", "5.00"), row("Papier A4", "4.00")],
    );
    assert.deepEqual([score.matched.length, score.located], [0, 1]);
    assert.match(
      formatLineItems([{ file: "a", product: "invoices", group: null, truth: [], predicted: [], score }]),
      /rows located 1 of 3/,
    );
  });
});
