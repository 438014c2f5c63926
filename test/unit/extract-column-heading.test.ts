/**
 * Whose a VAT id is, by the heading its column opens under (issue #15): "Vos identifiants" heads the addressee's
 * numbers, "Nos références" the sender's. Pages are built here as text layers of rows, not taken from any corpus.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document } from "../../src/document/model.js";
import { columnHeadingOwner } from "../../src/extract/column-heading.js";
import { buildLayout } from "../../src/extract/layout.js";
import { invoiceFields } from "../helpers/invoice-fields.js";
import { textDocument } from "../helpers/receipt-document.js";

/** A French invoice whose only VAT id stands in the right column under `heading`; the seller's own is not printed. */
function invoice(heading: string): Document {
  return textDocument(
    [
      [
        ["Atelier Dupuis SARL", 40],
        ["FACTURE N° : F-2031", 500],
      ],
      [
        ["12 rue des Lilas", 40],
        ["Date : 03/02/2026", 500],
      ],
      [
        ["69002 LYON", 40],
        ["CLIENT :", 500],
      ],
      [["Maison Bernard", 500]],
      [["8 quai Sud", 500]],
      [["13002 MARSEILLE", 500]],
      [],
      [[heading, 500]],
      [["SIREN : 987 654 321", 500]],
      [["N° TVA : FR 05 987 654 321", 500]],
      [],
      [
        ["Désignation", 40],
        ["Montant", 700],
      ],
      [
        ["Prestation", 40],
        ["100,00", 700],
      ],
      [
        ["Total HT", 500],
        ["100,00", 700],
      ],
      [
        ["TVA 20 %", 500],
        ["20,00", 700],
      ],
      [
        ["Total TTC", 500],
        ["120,00", 700],
      ],
    ],
    900,
  );
}

describe("column headings", () => {
  it("names the addressee under 'Vos identifiants', 'Your details', 'Ihre Angaben' and the sender under 'Nos références'", () => {
    const owner = (heading: string) => {
      const layout = buildLayout(invoice(heading));
      const vat = layout.segments.find((s) => s.text.startsWith("N° TVA"));
      assert.ok(vat);
      return columnHeadingOwner(layout, vat);
    };
    assert.equal(owner("Vos identifiants"), "addressee");
    assert.equal(owner("Your details"), "addressee");
    assert.equal(owner("Ihre Angaben"), "addressee");
    assert.equal(owner("Nos références"), "sender");
    assert.equal(owner("Identifiants"), null);
  });

  it("never answers the supplier's VAT id with the one under the addressee's heading", () => {
    assert.equal(invoiceFields(invoice("Vos identifiants")).get("supplier.taxId"), null);
    assert.equal(invoiceFields(invoice("Nos identifiants")).get("supplier.taxId"), "FR05987654321");
  });
});
