/**
 * Totals printed as labels over values ("Total HT   TOTAL TVA   Total TTC" above "100,00   20,00   120,00", a note
 * between), a VAT id printed in five groups under "N° TVA intra", and a hand-set choice's confidence from a fitted
 * calibrator that knows how contested the choice was. Documents are generated here (a text layer), not taken from
 * any corpus.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveFields } from "../../src/catalog/lookup.js";
import type { Document } from "../../src/document/model.js";
import { applyModel, type FieldDecision } from "../../src/extract/decision.js";
import { extract, rawDecisions } from "../../src/extract/index.js";
import type { LinearModel, RankerModel } from "../../src/extract/model/ranker.js";
import { textDocument } from "../helpers/receipt-document.js";

/** A text-layer page, 800 px wide: each row's cells as [text, x in px], words 8 px per character, rows 18 px apart. */
const page = (rows: ReadonlyArray<ReadonlyArray<[string, number]>>): Document => textDocument(rows, 800);

function fields(document: Document): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const f of extract(document, resolveFields({ products: ["invoices"] }))) {
    out.set(f.name, typeof f.value === "string" ? f.value : null);
  }
  return out;
}

const HEADER: ReadonlyArray<ReadonlyArray<[string, number]>> = [
  [
    ["LE FOURNISSEUR", 20],
    ["FACTURE N° : F20260101", 420],
  ],
  [
    ["35 rue d'ici", 20],
    ["Date : 31/01/2026", 420],
  ],
  [
    ["75018 PARIS", 20],
    ["CLIENT :", 420],
  ],
  [
    ["N° TVA intra : FR 11 123 456 782", 20],
    ["LA CLIENTE SARL", 420],
  ],
  [["06000 NICE", 420]],
  [["N° TVA : FR 05 987 654 321", 420]],
];

/** Line items whose net prices carry a "(Net):" label, then the totals as a grid of labels over values. */
const GRID_TOTALS: ReadonlyArray<ReadonlyArray<[string, number]>> = [
  [
    ["Désignation", 20],
    ["Montant", 640],
  ],
  [
    ["PRESTATION SUPPORT", 20],
    ["(Net): 60,00", 420],
    ["60,00", 640],
  ],
  [
    ["FOURNITURES", 20],
    ["(Net): 40,00", 420],
    ["40,00", 640],
  ],
  [
    ["TOTAL HT", 440],
    ["TOTAL TVA", 540],
    ["TOTAL TTC", 640],
  ],
  [["Voir conditions", 20]],
  [
    ["Merci", 20],
    ["100,00", 440],
    ["20,00", 548],
    ["120,00", 640],
  ],
];

describe("totals printed as labels over values", () => {
  it("reads each value from under its label, past a note between the rows", () => {
    const got = fields(page([...HEADER, ...GRID_TOTALS]));
    assert.equal(got.get("invoice.subtotal"), "100.00");
    assert.equal(got.get("invoice.tax"), "20.00");
    assert.equal(got.get("invoice.total"), "120.00");
  });

  it("reads the values past a note printed across their columns", () => {
    const got = fields(
      page([
        ...HEADER,
        [
          ["Artikel", 20],
          ["Menge", 420],
          ["Einzelpreis", 500],
          ["Gesamt", 680],
        ],
        [
          ["Projektmanagement", 20],
          ["8", 440],
          ["359,80", 500],
          ["2.878,40", 680],
        ],
        [
          ["Versandkosten", 20],
          ["1", 440],
          ["76,00", 500],
          ["76,00", 680],
        ],
        [
          ["Reisekosten", 20],
          ["4", 440],
          ["424,92", 500],
          ["1.699,68", 680],
        ],
        [
          ["Zwischensumme", 300],
          ["zzgl. 19% MwSt.", 420],
          ["Gesamt", 560],
          ["Offener Betrag", 660],
        ],
        [["Bei Zahlung innerhalb von 8 Tagen gewähren wir 2 % Skonto.", 20]],
        [
          ["4.654,08 €", 300],
          ["884,28 €", 420],
          ["5.538,36 €", 560],
          ["5.538,36 €", 660],
        ],
      ]),
    );
    assert.equal(got.get("invoice.subtotal"), "4654.08");
    assert.equal(got.get("invoice.total"), "5538.36");
  });

  it("keeps a tax breakdown table (two rows of numbers under the labels) a weakly labelled table", () => {
    const decisions = rawDecisions(
      page([
        ...HEADER,
        [
          ["TOTAL HT", 440],
          ["TOTAL TVA", 540],
          ["TOTAL TTC", 640],
        ],
        [
          ["10,00 %", 20],
          ["50,00", 440],
          ["5,00", 548],
          ["55,00", 640],
        ],
        [
          ["20,00 %", 20],
          ["50,00", 440],
          ["10,00", 548],
          ["60,00", 640],
        ],
        [
          ["Total à payer", 420],
          ["115,00", 640],
        ],
      ]),
      ["invoice.total"],
      { model: null },
    );
    assert.equal(decisions.get("invoice.total")?.best?.value, "115.00");
  });
});

describe("the supplier's VAT id", () => {
  it("reads a VAT id printed in five groups under 'N° TVA intra', not the customer's", () => {
    const got = fields(page([...HEADER, ...GRID_TOTALS]));
    assert.equal(got.get("supplier.taxId"), "FR11123456782");
  });
});

describe("confidence of a hand-set choice from a fitted calibrator", () => {
  // A calibrator that learned a choice among rival values is less often right (weights on standardised features).
  const calibrator: LinearModel = { features: ["rivals"], mean: [0.2], scale: [0.5], weights: [-2], bias: 3 };
  const model: RankerModel = { version: 1, trainedOn: {}, rankers: {}, calibrators: { "supplier.taxId": calibrator } };
  const taxId = (rows: ReadonlyArray<ReadonlyArray<[string, number]>>): FieldDecision => {
    const decision = rawDecisions(page(rows), ["supplier.taxId"], { model: null }).get("supplier.taxId");
    assert.ok(decision);
    return decision;
  };

  it("gives a contested choice (two VAT ids under equal labels) less confidence than a lone one", () => {
    const alone = applyModel(taxId([...HEADER.slice(0, 4), ...GRID_TOTALS]), model);
    const contested = applyModel(
      taxId([...HEADER.slice(0, 4), [["N° TVA intra : FR 32 123 456 789", 20]], ...GRID_TOTALS]),
      model,
    );
    assert.equal(alone.best?.value, "FR11123456782");
    assert.ok(alone.probability !== undefined && contested.probability !== undefined);
    assert.ok(contested.probability < alone.probability - 0.2, `${contested.probability} vs ${alone.probability}`);
  });
});
