/**
 * A credit note printed with positive figures: the catalogue gives credits negative, so its totals are returned
 * negative, its rows as printed (README) and checked against the totals as printed; an invoice with the same figures
 * keeps them positive. Documents are generated here.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveFields } from "../../src/catalog/lookup.js";
import type { Document } from "../../src/document/model.js";
import { negated } from "../../src/extract/credit-sign.js";
import { applyModel } from "../../src/extract/decision.js";
import { extract, extractResult, rawDecisions } from "../../src/extract/index.js";
import type { RankerModel } from "../../src/extract/model/ranker.js";
import RANKERS from "../../src/extract/model/rankers.json" with { type: "json" };
import { textDocument } from "../helpers/receipt-document.js";

/** A text-layer page, 800 px wide: each row's cells as [text, x in px], words 8 px per character, rows 18 px apart. */
const page = (rows: ReadonlyArray<ReadonlyArray<[string, number]>>): Document => textDocument(rows, 800);

function document(title: string): Document {
  return page([
    [
      ["Muster Handel GmbH", 20],
      [title, 420],
    ],
    [
      ["Hauptstraße 5, 10115 Berlin", 20],
      ["Datum: 14.03.2025", 420],
    ],
    [["Kunde: Beispiel AG, Ringweg 2, 80331 München", 20]],
    [
      ["Beschreibung", 20],
      ["Menge", 420],
      ["Betrag", 640],
    ],
    [
      ["Rücksendung Bürostuhl", 20],
      ["1", 420],
      ["100,00", 640],
    ],
    [
      ["Nachlass", 20],
      ["-10,00", 640],
    ],
    [
      ["Nettobetrag", 420],
      ["90,00", 640],
    ],
    [
      ["MwSt 19 %", 420],
      ["17,10", 640],
    ],
    [
      ["Gesamtbetrag", 420],
      ["107,10 EUR", 640],
    ],
  ]);
}

function read(doc: Document): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const f of extract(doc, resolveFields({ products: ["invoices", "documents"] }))) out.set(f.name, f.value);
  return out;
}

describe("credit notes printed with positive figures", () => {
  it("gives a credit note's totals negative and its rows as printed, their sum checked against the printed totals", () => {
    const got = read(document("Gutschrift Nr. GS-2025-017"));
    assert.equal(got.get("document.type"), "credit_note");
    assert.deepEqual(
      ["invoice.subtotal", "invoice.tax", "invoice.total"].map((n) => got.get(n)),
      ["-90.00", "-17.10", "-107.10"],
    );
    const rows = got.get("invoice.lineItems") as { description: string; amount: string }[];
    assert.deepEqual(
      rows.map((r) => [r.description, r.amount]),
      [
        ["Rücksendung Bürostuhl", "100.00"],
        ["Nachlass", "-10.00"],
      ],
    );
    const { warnings } = extractResult(
      document("Gutschrift Nr. GS-2025-017"),
      resolveFields({ products: ["invoices"] }),
    );
    assert.deepEqual(warnings, []);
  });

  it("keeps the sign when the learned ranker chooses again among the hand-set decision's alternatives", () => {
    const raw = rawDecisions(document("Gutschrift Nr. GS-2025-017"), ["invoice.total"], { model: null });
    const decision = raw.get("invoice.total");
    assert.ok(decision?.alternatives !== undefined && decision.alternatives.length > 0);
    assert.equal(applyModel(decision, RANKERS as RankerModel).best?.value, "-107.10");
  });

  it("reads a title that names a credit note with an invoice's word in it ('Facture d'avoir') as a credit note", () => {
    const doc = page([
      [
        ["Facture d'avoir", 20],
        ["Bâtiment Bellevue SARL", 420],
      ],
      [["135 rue des Lilas, 33000 Bordeaux", 420]],
      [
        ["Facturé à :", 20],
        ["Date de facture : 26/10/2026", 420],
      ],
      [
        ["Transports Bellevue SAS", 20],
        ["Avoir n° : 2026-40707", 420],
      ],
      [
        ["Désignation", 20],
        ["Montant HT", 640],
      ],
      [
        ["Retour marchandise", 20],
        ["500,00", 640],
      ],
      [
        ["Total HT", 420],
        ["500,00", 640],
      ],
      [
        ["TVA 20 %", 420],
        ["100,00", 640],
      ],
      [
        ["Total TTC", 420],
        ["600,00", 640],
      ],
    ]);
    const got = read(doc);
    assert.equal(got.get("document.type"), "credit_note");
    assert.equal(got.get("invoice.total"), "-600.00");
  });

  it("reads a credit note's title OCR glued to its number label ('AVOIRN°:') as a credit note", () => {
    const got = read(document("AVOIRN°: AV-2025-017"));
    assert.equal(got.get("document.type"), "credit_note");
    assert.equal(got.get("invoice.total"), "-107.10");
  });

  it("keeps an invoice's figures as printed", () => {
    const got = read(document("Rechnung Nr. RE-2025-017"));
    assert.equal(got.get("document.type"), "invoice");
    assert.deepEqual(
      ["invoice.subtotal", "invoice.tax", "invoice.total"].map((n) => got.get(n)),
      ["90.00", "17.10", "107.10"],
    );
  });

  it("turns only what needs turning", () => {
    assert.deepEqual(["12.50", "-3.00", "0.00"].map(negated), ["-12.50", "-3.00", "0.00"]);
  });
});
