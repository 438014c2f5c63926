/** Line-item scoring shared by bench:line-items and bench:accuracy: array labels, rows matched per document. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  formatLineItems,
  scoreDocument,
  scoreLineItemOutcomes,
  scoreRows,
  tally,
} from "../../bench/line-items-score.js";
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

  it("matches a row read in any wording its e-invoice XML gives: the item's name, description, or both", () => {
    const row = (description: string, amount: string) => ({ description, amount });
    const xml = {
      items: [
        { name: "PRESTATION SUPPORT", description: "Description", amount: "60.00" },
        { name: "APPEL", description: "Appel d'urgence", amount: "5.00" },
        { name: "Papier", description: null, amount: "3.00" },
      ],
      adjustments: [],
      credit: false,
    };
    const truth = [row("PRESTATION SUPPORT", "60.00"), row("APPEL", "5.00"), row("Papier", "3.00")];
    const read = [
      row("PRESTATION SUPPORT - Description", "60.00"),
      row("Appel d'urgence", "5.00"),
      row("Papier A4", "3.00"),
    ];
    const scored = scoreDocument("a.pdf", "invoices", null, truth, read, xml);
    assert.deepEqual(
      scored.score.matched.map(([, p]) => p.description),
      ["PRESTATION SUPPORT - Description", "Appel d'urgence"],
    );
    // Without the XML only the labels' own wording counts.
    assert.equal(scoreDocument("a.pdf", "invoices", null, truth, read).score.matched.length, 0);
    // The description cell of a row matched in another wording is right.
    assert.deepEqual(tally([scored]).cells.get("description"), { n: 2, ok: 2 });
  });

  it("counts a read row that is a document-level allowance or charge neither as a hit nor as a false row", () => {
    const row = (description: string, amount: string) => ({ description, amount });
    const xml = {
      items: [],
      adjustments: [
        { reason: "REMISE COMMERCIALE", amount: -5 },
        { reason: "FRAIS DEPLACEMENT", amount: 10 },
      ],
    };
    const read = [
      row("Papier", "3.00"),
      row("REMISE : REMISE COMMERCIALE", "-5.00"),
      row("CHARGE : FRAIS DEPLACEMENT", "10.00"),
      row("CHARGE : FRAIS DEPLACEMENT", "10.00"),
      row("Port", "-5.00"),
    ];
    const score = scoreRows([row("Papier", "3.00")], read, xml.adjustments);
    // Each allowance or charge excuses one row that states its reason and amount; the second charge row and a row
    // of another reason stay false rows.
    assert.deepEqual([score.matched.length, score.excused, score.predicted], [1, 2, 3]);
    // A credit note's page may print them with the other sign; an invoice's may not.
    const turned = [row("REMISE : REMISE COMMERCIALE", "5.00"), row("CHARGE : FRAIS DEPLACEMENT", "-10.00")];
    assert.equal(scoreRows([], turned, xml.adjustments, true).excused, 2);
    assert.equal(scoreRows([], turned, xml.adjustments).excused, 0);
  });
});
