/**
 * Labels of fields read by OCR (issue #16's scanned invoices): a smudge OCR read between a label and its value, with
 * next to no confidence, is no word of the line.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { invoiceFields } from "../helpers/invoice-fields.js";
import { line, type Read, scan } from "../helpers/scanned-page.js";

describe("labels of scanned invoices", () => {
  it("labels the invoice number across a smudge OCR read between the label and it", () => {
    const smudged: Read[] = [...line("FACTURE N°", 1000, 120), ["eo.", 1190, 120, 24, 0], ["F20260029", 1290, 120, 24]];
    const got = invoiceFields(
      scan([
        line("LE FOURNISSEUR SARL", 120, 120, 30),
        smudged,
        line("35 rue d'ici", 120, 170),
        line("75018 PARIS", 120, 200),
        [...line("N° DE CLIENT : REFCLI0215", 120, 400), ...line("GLN : 3654789851", 1000, 400)],
        // A number whose nearest label word, past another column's gap, is the title's.
        [...line("Références sur la facture", 120, 440), ...line("GLN : 3654789851", 1000, 440)],
        line("Total HT 100,00", 1000, 900),
        line("TVA 10,00", 1000, 940),
        line("Total TTC 110,00", 1000, 980),
      ]),
    );
    assert.equal(got.get("invoice.number"), "F20260029");
  });
});
