import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveFields } from "../../src/catalog/lookup.js";
import { extract } from "../../src/extract/index.js";
import { LABELS } from "../../src/extract/labels.js";
import { foldForMatching } from "../../src/extract/text.js";
import { titlesFor } from "../../src/extract/vocabulary/titles.js";
import { textDocument } from "../helpers/receipt-document.js";

const ALL = [...titlesFor("type"), ...titlesFor("split"), ...titlesFor("header"), ...titlesFor("label")];

describe("document titles", () => {
  it("lists each title once: one folded text, one kind", () => {
    const kinds = new Map<string, Set<string>>();
    for (const t of ALL) {
      const key = foldForMatching(t.text);
      kinds.set(key, (kinds.get(key) ?? new Set()).add(t.kind));
    }
    const ambiguous = [...kinds].filter(([, k]) => k.size > 1).map(([key]) => key);
    assert.deepEqual(ambiguous, []);
  });

  it("gives the label table the titles that label a document number, under the role of their kind", () => {
    const role = { invoice: "invoiceNumber", credit_note: "creditNumber", receipt: "receiptNumber" } as const;
    for (const t of titlesFor("label")) {
      assert.ok(t.kind === "invoice" || t.kind === "credit_note" || t.kind === "receipt", t.text);
      const roles = (LABELS.get(foldForMatching(t.text)) ?? []).map((e) => e.role);
      assert.ok(roles.includes(role[t.kind]), `${t.text}: ${roles.join(", ")}`);
    }
  });

  it("keeps the titles each place used before the lists were merged", () => {
    const texts = (use: Parameters<typeof titlesFor>[0]) => titlesFor(use).map((t) => t.text);
    assert.ok(texts("type").includes("facture d'avoir"));
    assert.ok(!texts("split").includes("rechnung"), "split opens a page on German compounds by suffix only");
    assert.ok(texts("split").includes("kwitansi"));
    assert.ok(texts("header").includes("invois cukai"));
    assert.ok(!texts("header").includes("storno"));
  });
});

describe("total labels", () => {
  it("reads 'Endsumme' as the total under net, shipping and tax lines", () => {
    const rows: Array<Array<[string, number]>> = [
      [
        ["Muster Software GmbH", 20],
        ["Rechnung RE1001", 400],
      ],
      [["Hauptstraße 4, 10115 Berlin", 20]],
      [],
      [
        ["Bezeichnung", 20],
        ["Menge", 300],
        ["Gesamt €", 480],
      ],
      [
        ["Suite Enterprise", 20],
        ["1,00", 300],
        ["84,95", 480],
      ],
      [
        ["Suite Plus", 20],
        ["1,00", 300],
        ["719,40", 480],
      ],
      [],
      [
        ["Positionen netto", 200],
        ["804,35 €", 480],
      ],
      [
        ["Versandkosten netto", 200],
        ["4,99 €", 480],
      ],
      [
        ["Positionen USt. 19,00% auf 804,35 €", 200],
        ["152,83 €", 480],
      ],
      [
        ["Versandkosten USt. 19,00% auf 4,99 €", 200],
        ["0,95 €", 480],
      ],
      [
        ["Endsumme", 200],
        ["962,12 €", 480],
      ],
    ];
    while (rows.length < 30) rows.push([]);
    const fields = extract(textDocument(rows, 600), resolveFields({ products: ["invoices"] }));
    assert.equal(fields.find((f) => f.name === "invoice.total")?.value, "962.12");
  });

  it("reads 'Steuerbetrag in EUR' as the tax label: the preposition goes with the currency", () => {
    const rows: Array<Array<[string, number]>> = [
      [
        ["Muster Handel GmbH", 20],
        ["Rechnung RE2002", 400],
      ],
      [["Hauptstraße 4, 10115 Berlin", 20]],
      [],
      [
        ["Abschlag Rechnungsrabatt", 20],
        ["280,00", 200],
        ["19 % UST (S)", 300],
        ["-5,60", 480],
      ],
      [
        ["Abschlag Rechnungsrabatt", 20],
        ["130,70", 200],
        ["7 % UST (S)", 300],
        ["-2,61", 480],
      ],
      [
        ["Abschlag Rechnungsrabatt", 20],
        ["280,00", 200],
        ["19 % UST (S)", 300],
        ["-2,50", 480],
      ],
      [
        ["Abschlag Rechnungsrabatt", 20],
        ["130,70", 200],
        ["7 % UST (S)", 300],
        ["-0,50", 480],
      ],
      [
        ["Transportkosten", 20],
        ["19 % UST (S)", 300],
        ["3,00", 480],
      ],
      [],
      [
        ["Positionssumme", 250],
        ["457,20", 480],
      ],
      [
        ["Gesamtbetrag der Zuschläge", 250],
        ["3,00", 480],
      ],
      [
        ["Gesamtbetrag der Abschläge", 250],
        ["-11,21", 480],
      ],
      [
        ["Rechnungssumme ohne USt.", 250],
        ["448,99", 480],
      ],
      [
        ["Steuerbetrag in", 250],
        ["EUR", 400],
        ["70,00", 480],
      ],
      [
        ["Bruttosumme", 250],
        ["518,99", 480],
      ],
    ];
    while (rows.length < 30) rows.push([]);
    const fields = extract(textDocument(rows, 600), resolveFields({ products: ["invoices"] }));
    assert.equal(fields.find((f) => f.name === "invoice.tax")?.value, "70.00");
  });
});
