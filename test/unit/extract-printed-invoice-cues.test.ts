/**
 * Cues of invoices printed from HTML by billing platforms (issue #15; bench/synth/render-html.ts draws such pages):
 * the supplier named by a window letter's sender line, a display-size name wrapped over two lines, a title before the
 * issuer's name ("Receipt from ..."), a receipt number as the document's number, an unlabelled contact block, a
 * contact person over the company billed, a due date in a request to pay, a tax printed with its rate and base, the
 * date of the invoice a credit note refers to.
 * Each page is a real text-layer PDF drawn here, read by ingest as an upload would be; none comes from a corpus.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dateCandidates, labelsOf } from "../../src/extract/candidates.js";
import { roleStrength } from "../../src/extract/context.js";
import { buildLayout } from "../../src/extract/layout.js";
import { localeHints } from "../../src/extract/normalise/locale.js";
import type { LabelRole } from "../../src/extract/vocabulary/label-phrases.js";
import { invoiceFields } from "../helpers/invoice-fields.js";
import { type PlacedLine, placedTextDocument } from "../helpers/pdf-fixtures.js";

async function fieldsOf(lines: readonly PlacedLine[]): Promise<Map<string, string | null>> {
  return invoiceFields(await placedTextDocument(lines));
}

describe("parties of printed invoices", () => {
  it("names the supplier from a window letter's sender line, the addressee under it the customer", async () => {
    const got = await fieldsOf([
      ["Nordlicht Logistik AG · Lindenallee 56a · 28859 Berlin", 40, 110, 7],
      ["Fichtel Logistik e.K.", 40, 126, 9],
      ["Bahnhofstraße 23", 40, 138, 9],
      ["76347 Köln", 40, 150, 9],
      ["Rechnungsnummer: 2766336941", 330, 110, 9],
      ["Datum: 4. Januar 2025", 330, 124, 9],
      ["Rechnung 2766336941", 40, 220, 14],
      ["Premium-Support 10,00 EUR", 40, 260, 9],
      ["Rechnungsbetrag 11,90 EUR", 330, 300, 9],
    ]);
    assert.equal(got.get("supplier.name"), "Nordlicht Logistik AG");
    assert.equal(got.get("customer.name"), "Fichtel Logistik e.K.");
  });

  it("reads a display-size name wrapped over two lines as one name", async () => {
    const got = await fieldsOf([
      ["Southern Cross IT", 330, 60, 20],
      ["Services Pty Ltd", 330, 84, 20],
      ["Bill to", 40, 140, 9],
      ["Outback Trading Pty Ltd", 40, 152, 9],
      ["12 Queen Street", 40, 164, 9],
      ["Melbourne VIC 3000", 40, 176, 9],
      ["Invoice No.: R4374600012", 330, 140, 9],
      ["Date: 2024-04-13", 330, 152, 9],
      ["Total $120.00", 330, 260, 9],
    ]);
    assert.equal(got.get("supplier.name"), "Southern Cross IT Services Pty Ltd");
    assert.equal(got.get("customer.name"), "Outback Trading Pty Ltd");
  });

  it("takes the issuer after a receipt's title, its receipt number, and the customer from an unlabelled contact block", async () => {
    const got = await fieldsOf([
      ["Receipt from Kingsley Joinery PLC", 150, 80, 16],
      ["Receipt number 1967066731", 220, 104, 9],
      ["Amount paid", 60, 150, 8],
      ["Date paid", 250, 150, 8],
      ["Payment method", 430, 150, 8],
      ["£668.90", 60, 164, 10],
      ["28 November 2025", 250, 164, 10],
      ["Mastercard – 6793", 430, 164, 10],
      ["Premium support", 60, 220, 9],
      ["£557.42", 480, 220, 9],
      ["Sales tax 20 %", 60, 236, 9],
      ["£111.48", 480, 236, 9],
      ["Total", 60, 252, 9],
      ["£668.90", 480, 252, 9],
      ["Isla Jones", 60, 300, 9],
      ["isla@islajones.example", 60, 312, 9],
      ["Questions? Contact us at support@kingsleyjoinery.cloud", 60, 330, 9],
    ]);
    assert.equal(got.get("supplier.name"), "Kingsley Joinery PLC");
    assert.equal(got.get("invoice.number"), "1967066731");
    assert.equal(got.get("customer.name"), "Isla Jones");
    assert.equal(got.get("invoice.date"), "2025-11-28");
  });

  it("answers the company billed, not the contact person printed over it", async () => {
    const got = await fieldsOf([
      ["TAX INVOICE", 40, 60, 20],
      ["Invoice number 9673225834", 40, 100, 9],
      ["Issue date 13 April 2020", 40, 112, 9],
      ["From", 40, 150, 8],
      ["Southern Cross Trading Pty Ltd", 40, 162, 9],
      ["379 Queen Street", 40, 174, 9],
      ["Melbourne VIC 3000", 40, 186, 9],
      ["Billed to", 300, 150, 8],
      ["Mia Smith", 300, 162, 9],
      ["Banksia Electrical Pty Ltd", 300, 174, 9],
      ["mia@banksiaelectrical.example", 300, 186, 9],
      ["Total (incl. GST) $110.00", 330, 260, 9],
    ]);
    assert.equal(got.get("customer.name"), "Banksia Electrical Pty Ltd");
    assert.equal(got.get("supplier.name"), "Southern Cross Trading Pty Ltd");
  });
});

describe("dates and amounts of printed invoices", () => {
  it("reads the due date of a request to pay and of 'dû le'", async () => {
    const english = await fieldsOf([
      ["Granite Analytics Corp.", 40, 60, 18],
      ["Invoice #: R1799235359", 330, 110, 9],
      ["Date of issue: 02/11/2026", 330, 124, 9],
      ["Total due $19.07", 330, 200, 9],
      ["Please pay the amount by 03/13/2026 to the account below.", 40, 240, 9],
    ]);
    assert.equal(english.get("invoice.date"), "2026-02-11");
    assert.equal(english.get("invoice.dueDate"), "2026-03-13");
    const french = await fieldsOf([
      ["Conseil Moreau SAS", 40, 60, 18],
      ["Facture n°: 3770353461", 330, 100, 9],
      ["Date: 6 août 2021", 330, 114, 9],
      ["Montant total dû le 20 août 2021", 40, 160, 9],
      ["105,60 EUR", 450, 160, 14],
      ["Total de cette facture 105,60 EUR", 40, 220, 9],
    ]);
    assert.equal(french.get("invoice.dueDate"), "2021-08-20");
  });

  it("reads a tax printed with its rate and base, and totals qualified 'excl.'/'incl. Sales tax'", async () => {
    const got = await fieldsOf([
      ["Redbrick Supply Inc.", 40, 60, 18],
      ["Invoice number INV-2024-37744", 40, 100, 9],
      ["Date of issue June 6, 2024", 40, 112, 9],
      ["Premium support", 40, 180, 9],
      ["$52.99", 480, 180, 9],
      ["Subtotal (excl. Sales tax)", 300, 220, 9],
      ["$52.99", 480, 220, 9],
      ["Sales tax (10% on $52.99)", 300, 236, 9],
      ["$5.30", 480, 236, 9],
      ["Total (incl. Sales tax)", 300, 252, 9],
      ["$58.29", 480, 252, 9],
    ]);
    assert.equal(got.get("invoice.tax"), "5.30");
    assert.equal(got.get("invoice.subtotal"), "52.99");
    assert.equal(got.get("invoice.total"), "58.29");
  });

  it("reads a tax whose base wrapped to the next line, a cloud bill's 'Charges', and no amount in a date's day", async () => {
    const got = await fieldsOf([
      ["Liberty Design Inc.", 40, 60, 18],
      ["Invoice # AOJM8536-7510", 40, 100, 9],
      ["Issue date May 19, 2025", 40, 112, 9],
      ["USD 8656.27 due 13 Jun 2025", 40, 150, 14],
      ["API requests overage", 40, 200, 9],
      ["USD 7950.65", 480, 200, 9],
      ["Charges", 300, 240, 9],
      ["USD 7950.65", 480, 240, 9],
      ["Sales tax (8.875% on USD", 300, 256, 9],
      ["USD 705.62", 480, 256, 9],
      ["7950.65)", 300, 268, 9],
      ["Balance due", 300, 284, 9],
      ["USD", 480, 284, 9],
      ["8656.27", 480, 296, 9],
    ]);
    assert.equal(got.get("invoice.tax"), "705.62");
    assert.equal(got.get("invoice.subtotal"), "7950.65");
    assert.notEqual(got.get("invoice.amountDue"), "13.00");
  });
});

describe("dates of credit notes", () => {
  it("labels the date of the invoice a credit note refers to as another date, not the issue date", async () => {
    const layout = buildLayout(
      await placedTextDocument([
        ["AVOIR N° :", 300, 50, 8],
        ["AV20260042", 505, 50, 8],
        ["Date :", 300, 60, 8],
        ["27/02/2026", 505, 60, 8],
        ["N° DE FACTURE ASSOCIÉE : F20260003", 40, 200, 8],
        ["DATE DE FACTURE ASSOCIÉE : 15/01/2026", 40, 210, 8],
        ["Original invoice date: 16/01/2026", 40, 230, 8],
        ["Datum der Ursprungsrechnung: 17.01.2026", 40, 250, 8],
      ]),
    );
    const strength = (iso: string, role: LabelRole): number => {
      const date = dateCandidates(layout, localeHints("fr-FR")).find((c) => c.iso === iso);
      assert.ok(date, iso);
      return roleStrength(labelsOf(layout, date), [role]);
    };
    assert.ok(strength("2026-02-27", "genericDate") > 0);
    for (const iso of ["2026-01-15", "2026-01-16", "2026-01-17"]) {
      assert.equal(strength(iso, "invoiceDate"), 0, iso);
      assert.ok(strength(iso, "otherDate") > 0, iso);
    }
  });
});
