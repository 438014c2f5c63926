/**
 * Totals printed as labels over values ("Total HT   TOTAL TVA   Total TTC" above "100,00   20,00   120,00", a note
 * between), a VAT id printed in five groups under "N° TVA intra", and a hand-set choice's confidence from a fitted
 * calibrator that knows how contested the choice was. Documents are generated here (a text layer), not taken from
 * any corpus.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document } from "../../src/document/model.js";
import { applyModel, type FieldDecision } from "../../src/extract/decision.js";
import { rawDecisions } from "../../src/extract/index.js";
import type { LinearModel, RankerModel } from "../../src/extract/model/ranker.js";
import { invoiceFields } from "../helpers/invoice-fields.js";
import { scannedDocument, textDocument } from "../helpers/receipt-document.js";
import { type Cell, left, right, tablePage } from "../helpers/table-page.js";

/** A text-layer page, 800 px wide: each row's cells as [text, x in px], words 8 px per character, rows 18 px apart. */
const page = (rows: ReadonlyArray<ReadonlyArray<[string, number]>>): Document => textDocument(rows, 800);

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

/** The page with its words' boxes 8 px high on rows 18 px apart: OCR boxes hug the ink. Labels and values with a note
 * between them stand 3.5 word heights apart. */
function tightlyBoxed(document: Document): Document {
  const page = document.pages[0];
  for (const word of page?.words ?? []) word.box.y1 = word.box.y0 + 8 / (page?.height ?? 1);
  return document;
}

describe("totals printed as labels over values", () => {
  it("reads each value from under its label, past a note between the rows", () => {
    const got = invoiceFields(page([...HEADER, ...GRID_TOTALS]));
    assert.equal(got.get("invoice.subtotal"), "100.00");
    assert.equal(got.get("invoice.tax"), "20.00");
    assert.equal(got.get("invoice.total"), "120.00");
  });

  it("reads the totals from the row that adds up a breakdown's rows, unlabelled, above a footer", () => {
    const got = invoiceFields(
      page([
        ...HEADER,
        [
          ["Description", 20],
          ["Amount", 640],
        ],
        [
          ["Consulting", 20],
          ["100.00", 640],
        ],
        [
          ["Books", 20],
          ["50.00", 640],
        ],
        [
          ["Net amount", 300],
          ["VAT amount", 420],
          ["Rate", 540],
          ["Gross", 640],
        ],
        [
          ["100.00", 300],
          ["19.00", 420],
          ["19 %", 540],
          ["119.00", 640],
        ],
        [
          ["50.00", 300],
          ["3.50", 420],
          ["7 %", 540],
          ["53.50", 640],
        ],
        [],
        [
          ["150.00", 300],
          ["22.50", 420],
          ["172.50", 640],
        ],
        [
          ["Registered office", 20],
          ["Company no. 372876 Register court", 300],
        ],
      ]),
    );
    assert.equal(got.get("invoice.subtotal"), "150.00");
    assert.equal(got.get("invoice.tax"), "22.50");
    assert.equal(got.get("invoice.total"), "172.50");
  });

  it("reads a scan's grid labels that OCR ran together and misread", () => {
    const rows: ReadonlyArray<ReadonlyArray<[string, number]>> = [
      ...HEADER,
      ...GRID_TOTALS.slice(0, 3),
      [
        ["TOTALHT", 440],
        ["TOTALTVA", 540],
        ["TOTALTIC", 640],
      ],
      ...GRID_TOTALS.slice(4),
    ];
    const got = invoiceFields(scannedDocument(rows, 800));
    assert.equal(got.get("invoice.subtotal"), "100.00");
    assert.equal(got.get("invoice.tax"), "20.00");
    assert.equal(got.get("invoice.total"), "120.00");
  });

  it("reads a scan's grid values past a box's rule OCR read as doubtful figures between labels and values", () => {
    const rows: ReadonlyArray<ReadonlyArray<[string, number]>> = [
      ...HEADER,
      ...GRID_TOTALS.slice(0, 3),
      [
        ["TOTAL HT", 440],
        ["TOTAL TVA", 540],
        ["TOTAL TTC", 640],
      ],
      [
        ["1000", 436],
        ["200", 548],
        ["1200", 644],
      ],
      ...GRID_TOTALS.slice(5),
    ];
    const document = scannedDocument(rows, 800);
    for (const word of document.pages[0]?.words ?? []) if (/^1?[02]00$/.test(word.text)) word.confidence = 0.4;
    const got = invoiceFields(document);
    assert.equal(got.get("invoice.subtotal"), "100.00");
    assert.equal(got.get("invoice.tax"), "20.00");
    assert.equal(got.get("invoice.total"), "120.00");
  });

  it("reads a scan's grid values past a note, where OCR boxes hug the ink and labels and values stand 3.5 word heights apart", () => {
    const got = invoiceFields(tightlyBoxed(scannedDocument([...HEADER, ...GRID_TOTALS], 800)));
    assert.equal(got.get("invoice.subtotal"), "100.00");
    assert.equal(got.get("invoice.tax"), "20.00");
    assert.equal(got.get("invoice.total"), "120.00");
  });

  it("reads a scan's grid values when a skew put the middle one in the next line, with a note, not under the others", () => {
    const rows: ReadonlyArray<ReadonlyArray<[string, number]>> = [
      ...HEADER,
      ...GRID_TOTALS.slice(0, 4),
      [
        ["Merci", 20],
        ["100,00", 440],
        ["120,00", 640],
      ],
      [
        ["20,00", 548],
        ["Les règlements reçus avant échéance", 20],
      ],
    ];
    const document = scannedDocument(rows, 800);
    const page = document.pages[0];
    assert.ok(page);
    // The values' line slants down to the left; the tax, read into the note's line, lies level with its neighbours.
    const lowered: Record<string, number> = { "100,00": 5, "120,00": 1, "20,00": -11 };
    for (const word of page.words) {
      const dy = lowered[word.text] ?? 0;
      word.box.y0 += dy / page.height;
      word.box.y1 += dy / page.height;
    }
    const got = invoiceFields(document);
    assert.equal(got.get("invoice.subtotal"), "100.00");
    assert.equal(got.get("invoice.tax"), "20.00");
    assert.equal(got.get("invoice.total"), "120.00");
  });

  it("reads a scan's grid value whose label OCR garbled as the gross when the net and tax labelled beside add up to it", () => {
    const rows: ReadonlyArray<ReadonlyArray<[string, number]>> = [
      ...HEADER,
      ...GRID_TOTALS.slice(0, 3),
      [
        ["TOTAL HT", 440],
        ["TOTAL TVA", 540],
        ["goes", 640],
      ],
      ...GRID_TOTALS.slice(4),
    ];
    const got = invoiceFields(scannedDocument(rows, 800));
    assert.equal(got.get("invoice.subtotal"), "100.00");
    assert.equal(got.get("invoice.tax"), "20.00");
    assert.equal(got.get("invoice.total"), "120.00");
  });

  it('reads a value under the word joining a tax label to its rate ("TVA à 20 %") as the tax', () => {
    const rows: ReadonlyArray<ReadonlyArray<[string, number]>> = [
      ...HEADER,
      ...GRID_TOTALS.slice(0, 3),
      [
        ["Sous-total", 420],
        ["TVA à 20%", 532],
        ["Total TTC", 640],
      ],
      [["Voir conditions", 20]],
      [
        ["100,00", 420],
        ["20,00", 566],
        ["120,00", 640],
      ],
    ];
    const tax = rawDecisions(tightlyBoxed(scannedDocument(rows, 800)), ["invoice.tax"], { model: null }).get(
      "invoice.tax",
    );
    const chosen = tax?.alternatives?.find((a) => a.scored.value === "20.00");
    assert.equal(tax?.best?.value, "20.00");
    assert.ok((chosen?.features.labelTax ?? 0) > 0.5, "labelled by the tax label over it, not by arithmetic alone");
  });

  it("reads the values past a note printed across their columns", () => {
    const got = invoiceFields(
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

  it("reads a tax under a label that carries its rate in brackets, above a footer with a phone number", () => {
    const got = invoiceFields(
      page([
        ...HEADER,
        [
          ["Item", 20],
          ["Quantity", 420],
          ["Net", 660],
        ],
        [
          ["Network cable CAT6 5m", 20],
          ["6", 440],
          ["USD 4107.48", 660],
        ],
        [
          ["Project management", 20],
          ["1", 440],
          ["USD 34.00", 660],
        ],
        [
          ["Net amount", 300],
          // Set close: one segment with the next label.
          ["Tax (8.25%)", 430],
          ["Total incl. tax", 526],
          ["Please pay", 680],
        ],
        // The tax set flush right under its label: only the rate stands over it.
        [
          ["USD 4141.48", 300],
          ["341.67", 470],
          ["USD 4483.15", 540],
          ["USD 4483.15", 680],
        ],
        [],
        [],
        [],
        [
          ["Lakeside Systems LLC", 20],
          ["T: (650) 345-1949", 300],
          ["Account 4605852500", 540],
        ],
      ]),
    );
    assert.equal(got.get("invoice.subtotal"), "4141.48");
    assert.equal(got.get("invoice.tax"), "341.67");
    assert.equal(got.get("invoice.total"), "4483.15");
  });

  it("reads a tax under its bracketed rate's label, the footer's numbers far below no table row", () => {
    const l = (text: string, x0: number): Cell => left(text, x0, 0.008);
    const r = (text: string, x1: number): Cell => right(text, x1, 0.008);
    const rows: Cell[][] = [
      [l("Albion Consulting LLP", 0.05), l("TAX INVOICE", 0.7)],
      [l("131 Baker Street, Leeds", 0.05), l("Invoice no. 4711-23", 0.7)],
      [l("Bill to: Northwind Ltd, 2 Mill Lane, York", 0.05), l("Issue date: 2021-12-23", 0.7)],
      [l("Item", 0.05), l("Units", 0.55), r("Line total", 0.93)],
      [l("Software licence (annual)", 0.05), r("1", 0.6), r("9.00", 0.93)],
      [l("Software licence (annual)", 0.05), r("4", 0.6), r("352.08", 0.93)],
      [l("Replacement filter", 0.05), r("1", 0.6), r("26.00", 0.93)],
      [l("Support hours", 0.05), r("1", 0.6), r("621.47", 0.93)],
      [l("Consulting services", 0.05), r("17", 0.6), r("629.00", 0.93)],
      [l("Travel expenses", 0.05), r("1", 0.6), r("318.18", 0.93)],
      [l("Website maintenance", 0.05), r("20", 0.6), r("3232.80", 0.93)],
      [l("Net total", 0.35), l("VAT (20%)", 0.52), l("Total (incl. VAT)", 0.66), l("Amount Due", 0.83)],
      [r("£5188.53", 0.43), r("£1037.71", 0.6), r("£6226.24", 0.78), r("£6226.24", 0.93)],
      [l("Albion Print PLC", 0.05), l("T: 020 7110 6413", 0.4), l("IBAN: GB82BARC63279392359625", 0.66)],
    ];
    const tops = [0.05, 0.07, 0.09, 0.2, 0.22, 0.24, 0.26, 0.28, 0.3, 0.32, 0.34, 0.4, 0.42, 0.9];
    const got = invoiceFields({ type: "pdf", pages: [tablePage(1, rows, { tops })] });
    assert.equal(got.get("invoice.tax"), "1037.71");
    assert.equal(got.get("invoice.total"), "6226.24");
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
    const got = invoiceFields(page([...HEADER, ...GRID_TOTALS]));
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
