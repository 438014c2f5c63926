/**
 * What a scan's OCR does to a page that the born-digital page does not: a skew that merges a labelled line into the
 * row right under a totals grid's values ("Montant déjà payé : 10,00" beside the grid), and a word read twice into
 * two segments ("FACTURE N.:" and "N:" over the same "N°"). Documents are generated here, not taken from any corpus.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document } from "../../src/document/model.js";
import { invoiceFields } from "../helpers/invoice-fields.js";
import { scannedDocument, textDocument } from "../helpers/receipt-document.js";

type Rows = ReadonlyArray<ReadonlyArray<[string, number]>>;

const HEADER: Rows = [
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
  [["LA CLIENTE SARL", 420]],
];

/** A totals grid whose values row has, right under it, the amount already paid on a line of its own label. */
const GRID_THEN_PAID: Rows = [
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
  [
    ["Merci", 20],
    ["100,00", 440],
    ["20,00", 548],
    ["120,00", 640],
  ],
  [
    ["Montant déjà payé :", 480],
    ["10,00", 648],
  ],
  [
    ["NET A PAYER", 480],
    ["110,00", 640],
  ],
];

describe("a scan's rows under a totals grid", () => {
  for (const [name, make] of [
    ["born-digital", (rows: Rows) => textDocument(rows, 800)],
    ["scanned", (rows: Rows) => scannedDocument(rows, 800)],
  ] as const) {
    it(`reads the grid's values under their labels with a labelled line right under them (${name})`, () => {
      const got = invoiceFields(make([...HEADER, ...GRID_THEN_PAID]));
      assert.equal(got.get("invoice.subtotal"), "100.00");
      assert.equal(got.get("invoice.tax"), "20.00");
      assert.equal(got.get("invoice.total"), "120.00");
    });
  }

  it("reads the grid's values when OCR misread the paid line's colon as a doubtful digit (scanned)", () => {
    const rows = GRID_THEN_PAID.map((row) =>
      row.map(([text, x]): [string, number] => [text === "Montant déjà payé :" ? "Montant déjà payé 2" : text, x]),
    );
    const document = scannedDocument([...HEADER, ...rows], 800);
    for (const page of document.pages) {
      const paid = page.words.findIndex((w) => w.text === "payé");
      const misread = page.words[paid + 1];
      assert.equal(misread?.text, "2");
      if (misread) misread.confidence = 0.41;
    }
    const got = invoiceFields(document);
    assert.equal(got.get("invoice.subtotal"), "100.00");
    assert.equal(got.get("invoice.tax"), "20.00");
    assert.equal(got.get("invoice.total"), "120.00");
  });

  it("reads the paid line's label on its own level when a skew put the line under it into its row (scanned)", () => {
    const rows = [...HEADER, ...GRID_THEN_PAID.slice(0, 6), [["(ou à payer par un tiers)", 480]] as const];
    const document = scannedDocument([...rows, ...GRID_THEN_PAID.slice(6)], 800);
    for (const page of document.pages) {
      // The note under the paid line, raised by most of a line into the paid line's row, as a skewed scan reads it.
      const note = page.lines[rows.length - 1];
      for (const id of note?.wordIds ?? []) {
        const word = page.words[id];
        if (word) word.box = { ...word.box, y0: word.box.y0 - 13 / page.height, y1: word.box.y1 - 13 / page.height };
      }
    }
    const got = invoiceFields(document);
    assert.equal(got.get("invoice.subtotal"), "100.00");
    assert.equal(got.get("invoice.tax"), "20.00");
    assert.equal(got.get("invoice.total"), "120.00");
  });

  it("keeps a tax breakdown's second row of figures a table row, not a labelled line", () => {
    const got = invoiceFields(
      scannedDocument(
        [
          ...HEADER,
          [
            ["Base HT", 440],
            ["TVA", 540],
            ["Total TTC", 640],
          ],
          [
            ["20 %", 300],
            ["100,00", 440],
            ["20,00", 548],
            ["120,00", 640],
          ],
          [
            ["5,5 %", 300],
            ["40,00", 448],
            ["2,20", 556],
            ["42,20", 648],
          ],
          [
            ["TOTAL TTC", 480],
            ["162,20", 640],
          ],
        ],
        800,
      ),
    );
    assert.equal(got.get("invoice.total"), "162.20");
  });
});

describe("a totals grid whose labels OCR lost", () => {
  it("reads net, tax and gross from a row of three figures adding up to the amount due printed below", () => {
    const got = invoiceFields(
      scannedDocument(
        [
          ...HEADER,
          ...GRID_THEN_PAID.slice(0, 3),
          [
            ["See", 440],
            ["Sree", 540],
            ["aerate", 640],
          ],
          [
            ["Merci", 20],
            ["100,00", 440],
            ["8,00", 556],
            ["108,00", 640],
          ],
          [["CONDITIONS DE PAIEMENT : 30 JOURS", 20]],
          [
            ["NET A PAYER", 480],
            ["108,00", 640],
            ["EUR", 700],
          ],
        ],
        800,
      ),
    );
    assert.equal(got.get("invoice.subtotal"), "100.00");
    assert.equal(got.get("invoice.tax"), "8.00");
    assert.equal(got.get("invoice.total"), "108.00");
  });

  it("reads them beside a note's figure, the gross being the amount due and the payment printed below", () => {
    const got = invoiceFields(
      scannedDocument(
        [
          ...HEADER,
          ...GRID_THEN_PAID.slice(0, 3),
          [
            ["See", 440],
            ["Sree", 540],
            ["aerate", 640],
          ],
          [
            ["paiement : 40 €", 20],
            ["100,00", 440],
            ["10,00", 556],
            ["110,00", 640],
          ],
          [["CONDITIONS DE PAIEMENT : 30 JOURS", 20]],
          [
            ["Acompte :", 480],
            ["10,00", 648],
          ],
          [
            ["NET A PAYER", 480],
            ["100,00", 640],
            ["EUR", 700],
          ],
        ],
        800,
      ),
    );
    assert.equal(got.get("invoice.subtotal"), "100.00");
    assert.equal(got.get("invoice.tax"), "10.00");
    assert.equal(got.get("invoice.total"), "110.00");
  });
});

/**
 * A scanned page whose first row OCR read twice over: "FACTURE N°: F20260029" as one line "FACTURE N: F20260029" and
 * a second line "N.: 26002" over the same "N°" and number, as a scan's two readings came back.
 */
function readTwice(): Document {
  const document = scannedDocument(
    [
      [
        ["LE FOURNISSEUR", 20],
        ["FACTURE N:", 420],
        ["F20260029", 600],
      ],
      [["Date : 31/01/2026", 420]],
      [["CLIENT :", 420]],
      [["LA CLIENTE SARL", 420]],
      [["N° DE FACTURE ASSOCIEE : F20260003", 20]],
      [["DATE DE FACTURE ASSOCIEE : 01/01/2026", 20]],
      [
        ["TOTAL TTC", 480],
        ["120,00", 640],
      ],
    ],
    800,
  );
  const page = document.pages[0];
  assert.ok(page);
  const n = page.words.find((w) => w.text === "N:");
  const number = page.words.find((w) => w.text === "F20260029");
  assert.ok(n && number);
  const again = [
    { text: "N.:", box: { ...n.box, x0: n.box.x0 + 0.004, x1: n.box.x1 + 0.002 }, confidence: 0.3 },
    { text: "26002", box: { ...number.box, x0: number.box.x0 + 0.02, x1: number.box.x1 - 0.02 }, confidence: 0.3 },
  ].map((w, i) => ({ ...w, id: page.words.length + i, source: "ocr" as const }));
  page.words.push(...again);
  page.lines.splice(1, 0, { wordIds: again.map((w) => w.id), box: { ...n.box, x1: number.box.x1 } });
  return document;
}

describe("a word OCR read twice", () => {
  it("reads the invoice number label past a second reading of its 'N°'", () => {
    assert.equal(invoiceFields(readTwice()).get("invoice.number"), "F20260029");
  });
});

describe("a due date whose label's first word OCR misread", () => {
  it('takes the date after "d\'échéance" for the due date when "Date" was read as another word', () => {
    const got = invoiceFields(
      scannedDocument(
        [
          ...HEADER,
          ...GRID_THEN_PAID,
          [
            ["[Pate d'échéance : 02/03/2026", 20],
            ["Merci", 480],
          ],
        ],
        800,
      ),
    );
    assert.equal(got.get("invoice.dueDate"), "2026-03-02");
  });
});

describe("a purchase-order number whose O OCR read as a zero", () => {
  const withOrder = (confidence: number) => {
    const document = scannedDocument([...HEADER, [["N° BON DE COMMANDE : P0201925478", 20]], ...GRID_THEN_PAID], 800);
    for (const page of document.pages) {
      const order = page.words.find((w) => w.text === "P0201925478");
      assert.ok(order);
      order.confidence = confidence;
    }
    return invoiceFields(document).get("invoice.purchaseOrderNo");
  };

  it('reads "P0..." read doubtfully as the "PO" of purchase order', () => {
    assert.equal(withOrder(0.63), "PO201925478");
  });

  it("keeps a number OCR read surely, and a text layer's, as printed", () => {
    assert.equal(withOrder(0.97), "P0201925478");
    const printed = textDocument([...HEADER, [["N° BON DE COMMANDE : P0201925478", 20]], ...GRID_THEN_PAID], 800);
    assert.equal(invoiceFields(printed).get("invoice.purchaseOrderNo"), "P0201925478");
  });
});
