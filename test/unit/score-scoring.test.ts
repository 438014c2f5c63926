import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import {
  catalogueMaps,
  type DocumentOutcome,
  foldText,
  formatReport,
  type PredictedField,
  parseLabels,
  predictionsOf,
  scoreDocuments,
  timingSummary,
  valuesMatch,
} from "../../bench/score.js";

const { types, productFields } = catalogueMaps();

function predicted(entries: Record<string, [string | null, number]>): Map<string, PredictedField> {
  return new Map(Object.entries(entries).map(([k, [value, confidence]]) => [k, { value, confidence }]));
}

describe("valuesMatch", () => {
  it("compares amounts numerically", () => {
    assert.equal(valuesMatch("amount", "1234.50", "1234.5"), true);
    assert.equal(valuesMatch("amount", "-12.00", "-12"), true);
    assert.equal(valuesMatch("amount", "1234.50", "1234.51"), false);
    assert.equal(valuesMatch("amount", "1234.50", "1.234,50"), false);
  });

  it("compares names and addresses after folding case, punctuation and spaces", () => {
    assert.equal(
      valuesMatch("text", "NO.53 JALAN PUTRA 1, TAMAN SRI PUTRA", "no. 53  jalan putra 1 taman sri putra"),
      true,
    );
    assert.equal(valuesMatch("text", "Lieferant GmbH", "Lieferant AG"), false);
    assert.equal(foldText("  Müller & Söhne, K.G. "), "müller söhne k g");
  });

  it("compares dates and codes exactly after trimming", () => {
    assert.equal(valuesMatch("exact", "2024-03-04", " 2024-03-04 "), true);
    assert.equal(valuesMatch("exact", "2024-03-04", "2024-04-03"), false);
    assert.equal(valuesMatch("exact", "DE123456789", "de123456789"), false);
  });
});

describe("scoreDocuments", () => {
  const outcomes: DocumentOutcome[] = [
    {
      label: {
        file: "a.pdf",
        product: "invoices",
        fields: { "invoice.total": "100.00", "invoice.date": "2024-03-04" },
      },
      predicted: predicted({
        "invoice.total": ["100.0", 0.95],
        "invoice.date": ["2024-04-03", 0.92],
        "invoice.number": ["A-1", 0.8],
        "invoice.tax": [null, 0.7],
      }),
    },
    {
      label: { file: "b.pdf", product: "invoices", fields: { "invoice.total": "50.00", "supplier.name": "ACME Ltd" } },
      predicted: predicted({ "invoice.total": [null, 0.3], "supplier.name": ["Acme Ltd.", 0.55] }),
    },
    {
      label: { file: "c.pdf", product: "invoices", fields: { "invoice.total": "10.00" } },
      predicted: null,
    },
  ];
  const report = scoreDocuments(outcomes, types, productFields);

  it("counts a right answer as TP, a wrong one as FP and FN, a null as FN", () => {
    const total = report.fields.find((f) => f.field === "invoice.total")!;
    assert.deepEqual([total.n, total.tp, total.fp, total.fn], [3, 1, 0, 2]);
    assert.equal(total.precision, 1);
    assert.ok(Math.abs(total.recall - 1 / 3) < 1e-9);
    assert.ok(Math.abs(total.f1 - 0.5) < 1e-9);
    const date = report.fields.find((f) => f.field === "invoice.date")!;
    assert.deepEqual([date.tp, date.fp, date.fn, date.f1], [0, 1, 1, 0]);
    assert.equal(report.failedDocuments, 1);
  });

  it("micro-averages over all labelled fields", () => {
    // 5 labelled values: 2 right, 1 wrong, 2 null/failed.
    assert.deepEqual([report.overall.n, report.overall.tp, report.overall.fp, report.overall.fn], [5, 2, 1, 3]);
    assert.ok(Math.abs(report.overall.precision - 2 / 3) < 1e-9);
    assert.ok(Math.abs(report.overall.recall - 2 / 5) < 1e-9);
  });

  it("does not score unlabelled fields but counts their non-null answers", () => {
    assert.equal(
      report.fields.some((f) => f.field === "invoice.number"),
      false,
    );
    assert.equal(report.unlabelled.nonNull, 1);
    assert.deepEqual(report.unlabelled.byField, { "invoice.number": 1 });
    // Two processed invoices, each with the invoices product's fields minus its two labelled ones.
    assert.equal(report.unlabelled.total, 2 * (productFields.get("invoices")!.length - 2));
  });

  it("buckets non-null predictions by confidence with observed accuracy", () => {
    const top = report.calibration.find((b) => b.from === 0.9)!;
    assert.equal(top.count, 2);
    assert.equal(top.accuracy, 0.5);
    const mid = report.calibration.find((b) => b.from === 0.5)!;
    assert.deepEqual([mid.count, mid.accuracy], [1, 1]);
    assert.equal(
      report.calibration.reduce((s, b) => s + b.count, 0),
      3,
    );
  });

  it("lists confident wrong values before misses", () => {
    assert.deepEqual(
      report.worst.map((e) => [e.file, e.field, e.got]),
      [
        ["a.pdf", "invoice.date", "2024-04-03"],
        ["b.pdf", "invoice.total", null],
        ["c.pdf", "invoice.total", null],
      ],
    );
    assert.match(formatReport(report), /overall \(micro\)\s+5\s/);
  });
});

describe("label and CLI line parsing", () => {
  it("reads the development corpus labels", () => {
    const labels = parseLabels(readFileSync("/work/shared/data/invoices-dev/labels.jsonl", "utf8"));
    assert.equal(labels.length, 23);
    for (const l of labels) assert.equal(l.product, "invoices");
    const dates = labels.flatMap((l) => (l.fields["invoice.date"] ? [l.fields["invoice.date"]] : []));
    assert.ok(dates.length > 0 && dates.every((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)));
  });

  it("rejects a line without fields, naming it", () => {
    assert.throws(() => parseLabels('{"file":"a","product":"x","fields":{}}\n{"file":"b"}'), /line 2/);
  });

  it("takes values and confidences from a FINALISED line and nothing from a FAILED one", () => {
    const ok = predictionsOf({
      file: "a.pdf",
      status: "FINALISED",
      results: { fields: [{ name: "invoice.total", value: "1.00", confidence: 0.9, boundingBox: null }] },
    });
    assert.deepEqual(ok?.get("invoice.total"), { value: "1.00", confidence: 0.9 });
    assert.equal(predictionsOf({ file: "a.pdf", status: "FAILED", error: { error: "x" } }), null);
  });
});

describe("timingSummary", () => {
  it("takes medians of per-page times over the lines that report them", () => {
    const summary = timingSummary([
      { status: "FINALISED", timings: { pages: 2, ingestMs: 400, extractMs: 10 } },
      { status: "FINALISED", timings: { pages: 1, ingestMs: 100, extractMs: 3 } },
      { status: "FINALISED", timings: { pages: 1, ingestMs: 900, extractMs: 40 } },
      { status: "FAILED" },
    ]);
    assert.deepEqual(summary, { documents: 3, pages: 4, medianExtractMsPerPage: 5, medianIngestMsPerPage: 200 });
    assert.equal(timingSummary([{ status: "FINALISED" }]), null);
  });

  it("reports the e-invoice median over the documents that report one", () => {
    const summary = timingSummary([
      { status: "FINALISED", timings: { pages: 1, ingestMs: 10, extractMs: 1, einvoiceMs: 4 } },
      { status: "FINALISED", timings: { pages: 1, ingestMs: 10, extractMs: 1, einvoiceMs: 6 } },
      { status: "FINALISED", timings: { pages: 1, ingestMs: 10, extractMs: 1 } },
    ]);
    assert.equal(summary?.medianEInvoiceMs, 5);
  });
});
