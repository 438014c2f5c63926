/**
 * An invoice's summary read by its arithmetic where labels say too little: a net amount no label names ("Leistungen",
 * "Prestations") that the labelled tax brings to the labelled total, a negative line between subtotal and total that
 * is a discount and no tax, and a footer's label column whose left neighbour labels its own number. Documents are
 * generated here (a text layer of rows), not taken from any corpus.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document } from "../../src/document/model.js";
import { invoiceFields } from "../helpers/invoice-fields.js";
import { type ReceiptRow, textDocument } from "../helpers/receipt-document.js";

const page = (rows: ReceiptRow[]): Document => textDocument(rows, 400);

const row = (label: string, amount: string): ReceiptRow => [
  [label, 20],
  [amount, 300],
];

/** Line items under the summary, each amount printed once. */
const ITEMS: ReadonlyArray<readonly [string, string]> = [
  ["Pro-Tarif", "2.937,87"],
  ["Cloud Server CX21", "3.576,80"],
  ["Team-Tarif", "294,00"],
  ["Premium-Support", "368,58"],
  ["Zusätzliche Nutzer", "487,62"],
  ["Backup-Speicher", "41,00"],
  ["Managed Datenbank", "51,99"],
  ["Domain", "4.899,20"],
];

describe("a net amount only the summary's arithmetic names", () => {
  it("takes the amount over the tax line that the tax brings to the total as the subtotal", () => {
    const got = invoiceFields(
      page([
        [
          ["Rechnung an:", 20],
          ["Rechnungsnr.: EPOM3396", 220],
        ],
        [["Paul Fischer", 20]],
        [["Übersicht", 20]],
        row("Leistungen", "EUR 20.296,14"),
        row("MwSt. 19 %", "EUR 3.856,27"),
        row("Gesamtbetrag dieser Rechnung", "EUR 24.152,41"),
        [["Einzelaufstellung", 20]],
        ...ITEMS.map(([name, amount]) => row(name, `EUR ${amount}`)),
      ]),
    );
    assert.equal(got.get("invoice.subtotal"), "20296.14");
    assert.equal(got.get("invoice.tax"), "3856.27");
    assert.equal(got.get("invoice.total"), "24152.41");
  });

  it("reads a French summary the same way", () => {
    const got = invoiceFields(
      page([
        [["Facture n° ESLV2249", 20]],
        [["Récapitulatif", 20]],
        row("Prestations", "985,72 €"),
        row("TVA 20 %", "197,14 €"),
        row("Total de cette facture", "1182,86 €"),
        [["Détail", 20]],
        ...ITEMS.map(([name, amount]) => row(name, `${amount} €`)),
      ]),
    );
    assert.equal(got.get("invoice.subtotal"), "985.72");
  });

  it("takes no unlabelled amount the arithmetic does not close as the subtotal", () => {
    const got = invoiceFields(
      page([
        [["Facture n° ESLV2250", 20]],
        row("Prestations", "985,70 €"),
        row("TVA 20 %", "197,14 €"),
        row("Total de cette facture", "1182,86 €"),
      ]),
    );
    assert.notEqual(got.get("invoice.subtotal"), "985.70");
  });
});

describe("a discount between the subtotal and the total", () => {
  it("is no tax: the net after the discount is the subtotal", () => {
    const got = invoiceFields(
      page([
        [["Invoice # GCAF6375-3584", 20]],
        [
          ["Extra storage 100 GB", 20],
          ["9.37 USD", 300],
        ],
        [
          ["Email sending (10k)", 20],
          ["2,612.10 USD", 300],
        ],
        row("Sub-total", "2,621.47 USD"),
        row("Discount (SAVE20, 20% off)", "-524.29 USD"),
        row("Total excluding tax", "2,097.18 USD"),
        row("Total", "2,097.18 USD"),
        row("Amount due", "2,097.18 USD"),
      ]),
    );
    assert.notEqual(got.get("invoice.tax"), "-524.29");
    assert.equal(got.get("invoice.subtotal"), "2097.18");
    assert.equal(got.get("invoice.total"), "2097.18");
  });
});

describe("a footer printed in label columns", () => {
  it("takes the VAT id under its label, not one its left neighbour's label and number stand before", () => {
    const rows: ReceiptRow[] = [
      [["Facture", 20]],
      [["Facturé à :", 20]],
      [["Groupe Dupont SAS", 20]],
      [["12 rue de la Paix, 75002 Paris", 20]],
      [["N° TVA FR89445789845", 20]],
      row("Total TTC", "120,00 €"),
      ...Array.from({ length: 30 }, (_, i) => row(`Prestation ${i + 1}`, "4,00 €")),
      [
        ["Atelier Bellevue EURL", 20],
        ["Gérant: Chloé Richard", 200],
        ["TVA intracommunautaire:", 420],
      ],
      [
        ["48 rue des Lilas", 20],
        ["RCS 710622172", 200],
        ["FR92190714378", 420],
      ],
    ];
    const got = invoiceFields(textDocument(rows, 700));
    assert.equal(got.get("supplier.taxId"), "FR92190714378");
  });
});

describe("a summary printed in parts", () => {
  it("sums goods and shipping netted apart, and their taxes, when they make the total", () => {
    const got = invoiceFields(
      page([
        [["Rechnung RE2207", 20]],
        ...ITEMS.slice(0, 3).map(([name, amount]) => row(name, `${amount} €`)),
        row("Positionen netto", "1.250,00 €"),
        row("Versandkosten netto", "12,50 €"),
        [
          ["Positionen USt. 19,00% auf 1.250,00 €", 20],
          ["237,50 €", 300],
        ],
        [
          ["Versandkosten USt. 19,00% auf 12,50 €", 20],
          ["2,38 €", 300],
        ],
        row("Endsumme", "1.502,38 €"),
      ]),
    );
    assert.equal(got.get("invoice.subtotal"), "1262.50");
    assert.equal(got.get("invoice.tax"), "239.88");
    assert.equal(got.get("invoice.total"), "1502.38");
  });

  it("sums two nets under one tax line", () => {
    const got = invoiceFields(
      page([
        [["Invoice INV-5531", 20]],
        row("Goods net", "100.00"),
        row("Shipping net", "10.00"),
        row("VAT 20%", "22.00"),
        row("Total", "132.00"),
      ]),
    );
    assert.equal(got.get("invoice.subtotal"), "110.00");
    assert.equal(got.get("invoice.tax"), "22.00");
  });

  it("sums no parts that do not make the total", () => {
    const got = invoiceFields(
      page([
        [["Invoice INV-5532", 20]],
        row("Goods net", "100.00"),
        row("Shipping net", "10.00"),
        row("VAT 20%", "22.00"),
        row("Total", "133.00"),
      ]),
    );
    assert.notEqual(got.get("invoice.subtotal"), "110.00");
  });
});
