/**
 * Invoice numbers and due dates on layouts nobody tuned for (issue #15): an id printed with typographic hyphens stays
 * whole, a code between a title and its "Nr." is not the number, a supplier's or customer's number is never the
 * invoice's, and due dates behind the payment-term phrases of several languages. Documents are built here as text
 * layers of rows, not taken from any corpus.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document } from "../../src/document/model.js";
import { documentNumber, paymentReference } from "../../src/extract/identifiers.js";
import { buildLayout } from "../../src/extract/layout.js";
import { parseDate } from "../../src/extract/normalise/date.js";
import { invoiceFields } from "../helpers/invoice-fields.js";
import { scannedDocument, textDocument } from "../helpers/receipt-document.js";

type Row = Array<[string, number]>;

/** An invoice page: `head` rows, then a customer, one item and totals. */
function invoice(head: Row[], tail: Row[] = []): Document {
  return textDocument(
    [
      [["Muster Handel GmbH", 40]],
      [["Hauptstr. 1, 10115 Berlin", 40]],
      ...head,
      [["Kunde AG", 40]],
      [["Ringweg 9, 80331 München", 40]],
      [
        ["Beschreibung", 40],
        ["Betrag", 700],
      ],
      [
        ["Beratung", 40],
        ["100,00", 700],
      ],
      [
        ["Nettobetrag", 40],
        ["100,00", 700],
      ],
      [
        ["USt 19%", 40],
        ["19,00", 700],
      ],
      [
        ["Gesamtbetrag", 40],
        ["119,00", 700],
      ],
      ...tail,
    ],
    900,
  );
}

describe("invoice numbers", () => {
  it("keeps an id with dots and typographic hyphens (U+2010) whole, as written with '-'", () => {
    const doc = invoice([
      [["Rechnung des Versicherers (575) Nr. 01.234.567.8\u20102018\u20101 vom 06.12.2018", 40]],
      [["Verkäufer", 40]],
      [
        ["Nummer:", 40],
        ["549910", 300],
      ],
    ]);
    assert.equal(invoiceFields(doc).get("invoice.number"), "01.234.567.8-2018-1");
  });

  it("reads 'R18‐31' after 'Handelsrechnung (380) Nr.', not the type code", () => {
    const doc = invoice([[["Handelsrechnung (380) Nr. R18\u201031 vom 03.10.2018", 40]]]);
    assert.equal(invoiceFields(doc).get("invoice.number"), "R18-31");
  });

  it("takes the value a 'No.' label owns, not the code printed before that label", () => {
    const doc = invoice([[["Invoice 380 No. 4711 of 03.10.2018", 40]]]);
    assert.equal(invoiceFields(doc).get("invoice.number"), "4711");
  });

  it("reads an id OCR split after its letters ('INV' '-2021-11343', 'WY' '7884600', 3 px apart) as one", () => {
    // "Invoice no: INV" ends at x 540; the rest of the id starts 3 px on, where a printed space takes 8.
    const doc = scannedDocument(
      [
        [["Albion Print PLC", 40]],
        [
          ["Invoice no: INV", 420],
          ["-2021-11343", 543],
        ],
        [
          ["Payment reference: WY", 420],
          ["7884600", 591],
        ],
      ],
      900,
    );
    const layout = buildLayout(doc);
    assert.equal(documentNumber(layout, false).best?.value, "INV-2021-11343");
    assert.equal(paymentReference(layout).best?.value, "WY7884600");
  });

  it("keeps a label word apart from the number it labels however close ('No' '4711')", () => {
    const doc = scannedDocument(
      [
        [["Albion Print PLC", 40]],
        [
          ["Invoice No", 420],
          ["4711", 503],
        ],
      ],
      900,
    );
    assert.equal(documentNumber(buildLayout(doc), false).best?.value, "4711");
  });

  it("reads an id past the rule of the box it is printed in ('|INV-2025-38950')", () => {
    const doc = scannedDocument([[["Oakwood Consulting LLP", 40]], [["Invoice No. |INV-2025-38950", 420]]], 900);
    assert.equal(documentNumber(buildLayout(doc), false).best?.value, "INV-2025-38950");
  });

  it("never answers with a supplier or customer number (Lieferanten Nr., Kd. Nr., Vendor No., codice fornitore)", () => {
    const labels = [
      "Supplier No.",
      "Vendor No.",
      "Lieferanten Nr.",
      "Kd. Nr.",
      "N° fournisseur",
      "Codice fornitore n.",
    ];
    for (const label of labels) {
      const doc = textDocument(
        [
          [["Muster Handel GmbH", 40]],
          [
            [label, 40],
            ["549910", 300],
          ],
        ],
        900,
      );
      assert.equal(documentNumber(buildLayout(doc), false).best, null, label);
    }
  });

  it("never answers with a party's location number or another paper's number (GLN, delivery note, contract)", () => {
    // The invoice's own number is left unread, as OCR leaves a number it could not read: what else is printed
    // under the header's "Nr."-style labels numbers something else.
    const lines = [
      "Références sur la facture GLN : 3654789851",
      "N° BON DE LIVRAISON : DESPADV002",
      "N° CONTRAT : CT2018120802",
      "N° BON DE VENTE : SALES REF 2547",
      "Rechnung ILN 4000001123452",
      "Lieferschein-Nr. L87654321012",
      "Delivery note no. DN-2291",
    ];
    for (const line of lines) {
      const doc = textDocument([[["Muster Handel GmbH", 40]], [["FACTURE N° :", 500]], [[line, 40]]], 900);
      assert.equal(documentNumber(buildLayout(doc), false).best, null, line);
    }
  });

  it("reads no label phrase across a column gap ('AVOIR o.' then 'N°:' is no 'on', a date's label)", () => {
    const doc = scannedDocument(
      [
        [["Atelier Dupuis SARL", 40]],
        [
          ["AVOIR o.", 500],
          ["N°:", 600],
          ["F20260028", 760],
        ],
        [
          ["Date :", 500],
          ["31/01/2026", 760],
        ],
      ],
      900,
    );
    assert.equal(documentNumber(buildLayout(doc), false).best?.value, "F20260028");
  });

  it("reads what a generic 'Ref' numbers from the label before it, and keeps its own sense beside that", () => {
    const doc = invoice([[["Rechnung Ref 4711 vom 03.10.2018", 40]]]);
    assert.equal(invoiceFields(doc).get("invoice.number"), "4711");
    assert.equal(paymentReference(buildLayout(doc)).best?.value, "4711");
  });
});

describe("due dates", () => {
  const cases: Array<[string, string, string]> = [
    ["Date limite de règlement :", "19/10/2023", "2023-10-19"],
    ["Payable le", "19/10/2023", "2023-10-19"],
    ["Zahlbar am", "29.10.2023", "2023-10-29"],
    ["Da pagare entro il", "19/10/2023", "2023-10-19"],
    ["Vence el", "19/10/2023", "2023-10-19"],
    ["Uiterlijk te voldoen op", "19-10-2023", "2023-10-19"],
  ];
  for (const [label, printed, iso] of cases) {
    it(`reads the date after '${label}'`, () => {
      const doc = invoice(
        [
          [
            ["Rechnungsnummer:", 500],
            ["RE-2023-17", 700],
          ],
          [
            ["Rechnungsdatum:", 500],
            ["20.09.2023", 700],
          ],
        ],
        [[[`${label} ${printed}`, 40]]],
      );
      assert.equal(invoiceFields(doc).get("invoice.dueDate"), iso);
    });
  }
});

describe("due dates from payment terms", () => {
  const head: Row[] = [
    [
      ["Rechnungsnummer:", 500],
      ["RE-2023-17", 700],
    ],
    [
      ["Rechnungsdatum:", 500],
      ["19.09.2023", 700],
    ],
  ];

  it("takes the date the terms on its row work out to (issue date + N days)", () => {
    for (const line of [
      "Zahlungsbedingungen: 30 Tage netto (19.10.2023)",
      "Payment terms: net 30, 19/10/2023",
      "Paiement à 30 jours, soit le 19/10/2023",
    ]) {
      assert.equal(invoiceFields(invoice(head, [[[line, 40]]])).get("invoice.dueDate"), "2023-10-19", line);
    }
  });

  it("reads a bracketed date that ends a sentence ('(19.10.2023).')", () => {
    assert.equal(parseDate("(19.10.2023).", { dateOrder: "DMY" })?.iso, "2023-10-19");
    const line = "Règlement à 30 jours net (19/10/2023).";
    assert.equal(invoiceFields(invoice(head, [[[line, 40]]])).get("invoice.dueDate"), "2023-10-19");
  });

  it("leaves a date the terms do not work out to unlabelled", () => {
    const doc = invoice(head, [[["Zahlungsbedingungen: 14 Tage netto (19.10.2023)", 40]]]);
    assert.equal(invoiceFields(doc).get("invoice.dueDate"), null);
  });
});

describe("a value before a weaker 'Ref' label", () => {
  it("stays the invoice number ('Invoice No 12345 Ref 777')", () => {
    const doc = invoice([[["Invoice No 12345 Ref 777", 40]]]);
    assert.equal(invoiceFields(doc).get("invoice.number"), "12345");
  });
});
