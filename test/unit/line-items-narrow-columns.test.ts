/**
 * Tables of e-invoice viewers (issue #18): narrow description columns whose cell wraps over many lines (a GTIN, a
 * code read into the description's first word, a word broken at a hyphen, a line holding only an amount), a note across
 * the table over two lines before rows whose descriptions stand under their figures, a figure with a mark under a
 * header cell no column names, two figures under the quantity's header, and a later page whose other table's column
 * titles come before any row. Pages are real text-layer PDFs drawn here, read by ingest.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { extractLineItems } from "../../src/extract/line-items/index.js";
import { localeHints } from "../../src/extract/normalise/locale.js";
import { ingest } from "../../src/ingest/index.js";
import { A4, makeTextPdf, type PlacedLine, placedTextDocument } from "../helpers/pdf-fixtures.js";

const DE = { locale: localeHints("de-DE") };

async function rowsOf(lines: readonly PlacedLine[]) {
  const table = extractLineItems(await placedTextDocument(lines), DE);
  return (table?.rows ?? []).map((r) => [r.description, r.quantity, r.unitPrice, r.amount, r.productCode]);
}

/** The column titles of a narrow-column viewer table over two lines. */
const VIEWER_HEADER: PlacedLine[] = [
  ["Pos", 50, 160, 9],
  ["Art-Nr", 76, 160, 9],
  ["Beschreibung", 153, 160, 9],
  ["Nettopreis", 246, 160, 9],
  ["Menge", 360, 160, 9],
  ["USt.", 442, 160, 9],
  ["Betrag", 500, 160, 9],
];

describe("extractLineItems: narrow columns of e-invoice viewers", () => {
  it("reads a description wrapped over five lines, with a GTIN, a code beside it and a word broken at a hyphen", async () => {
    const rows = await rowsOf([
      ...VIEWER_HEADER,
      ["1", 58, 190, 9],
      ["GTIN:", 155, 190, 9],
      ["9,9000", 274, 190, 9],
      ["20 Stk", 358, 190, 9],
      ["19 %", 443, 190, 9],
      ["198,00", 508, 190, 9],
      ["4012345001235", 155, 201, 9],
      ["4012345001235 Unsere Art.-", 72, 212, 9],
      ["Nr.: TB100A4", 155, 223, 9],
      ["Trennblätter", 155, 234, 9],
      ["A4", 155, 245, 9],
      ["Rechnungssumme ohne USt.", 290, 320, 9],
      ["198,00", 508, 320, 9],
    ]);
    assert.deepEqual(rows, [
      ["GTIN: 4012345001235 Unsere Art.-Nr.: TB100A4 Trennblätter A4", "20", "9.90", "198.00", "4012345001235"],
    ]);
  });

  it("keeps a line of the description holding only an amount in the description", async () => {
    const rows = await rowsOf([
      ...VIEWER_HEADER,
      ["1", 58, 190, 9],
      ["Grundpreis", 155, 190, 9],
      ["3,9000", 274, 190, 9],
      ["1 Stk", 358, 190, 9],
      ["7 %", 443, 190, 9],
      ["3,90", 515, 190, 9],
      ["2", 58, 215, 9],
      ["Stadtfahrt", 155, 215, 9],
      ["2,0000", 274, 215, 9],
      ["6,5 Stk", 352, 215, 9],
      ["7 %", 443, 215, 9],
      ["13,00", 510, 215, 9],
      ["- 2,00", 165, 226, 9],
      ["Euro je", 155, 237, 9],
      ["Kilometer", 155, 248, 9],
      ["Rechnungssumme ohne USt.", 290, 320, 9],
      ["16,90", 510, 320, 9],
    ]);
    assert.deepEqual(rows, [
      ["Grundpreis", "1", "3.90", "3.90", null],
      ["Stadtfahrt - 2,00 Euro je Kilometer", "6.5", "2.00", "13.00", null],
    ]);
  });

  it("reads past a note across the table over two lines, each row's description under its figures", async () => {
    const rows = await rowsOf([
      ["GTIN", 40, 270, 9],
      ["Art-Nr-Lieferant", 112, 270, 9],
      ["Menge", 242, 270, 9],
      ["Nettopreis", 348, 270, 9],
      ["MwSt-%", 460, 270, 9],
      ["Nettowert", 520, 270, 9],
      ["Art-Nr-Kunde", 40, 279, 9],
      ["Artikelbezeichnung", 112, 279, 9],
      ["Gemäß Ihrem Schreiben vom 10.09.2026 und unserem Telefonat vom 12.09.2026 erhalten Sie die", 40, 298, 9],
      ["folgenden Leistungen gutgeschrieben.", 40, 307, 9],
      ["4123456000014", 40, 325, 9],
      ["ZS997", 112, 325, 9],
      ["-5,0000 Stk.", 237, 325, 9],
      ["1,0000", 362, 325, 9],
      ["19,0", 470, 325, 9],
      ["-5,00", 540, 325, 9],
      ["Zitronensäure 100ml", 112, 334, 9],
      ["Verpackung : Flasche", 112, 343, 9],
      ["4123456000021", 40, 360, 9],
      ["GZ250", 112, 360, 9],
      ["-2,0000 Stk.", 237, 360, 9],
      ["1,4500", 362, 360, 9],
      ["7,0", 474, 360, 9],
      ["-2,90", 540, 360, 9],
      ["Gelierzucker Extra 250g", 112, 369, 9],
      ["Verpackung : Karton", 112, 378, 9],
      ["Summe netto", 400, 430, 9],
      ["-7,90", 540, 430, 9],
    ]);
    assert.deepEqual(
      rows.map((r) => [r[0], r[1], r[3]]),
      [
        ["Zitronensäure 100ml", "-5", "-5.00"],
        ["Gelierzucker Extra 250g", "-2", "-2.90"],
      ],
    );
  });

  it("leaves a figure under a header cell it cannot name out of the description, and reads two figures under Qté", async () => {
    const table = extractLineItems(
      await placedTextDocument([
        ["Désignation", 120, 200, 8],
        ["P.U. HT", 300, 200, 8],
        ["Unité", 360, 200, 8],
        ["Qté", 400, 200, 8],
        ["Remise (-)", 430, 200, 8],
        ["Total HT", 480, 200, 8],
        ["TVA", 525, 200, 8],
        ["FOURNITURES DIVERSES", 120, 230, 8],
        ["-1,00 (RE)", 430, 230, 8],
        ["10,00", 305, 238, 8],
        ["3 PCE", 360, 238, 8],
        ["3,00", 405, 238, 8],
        ["29,00", 487, 238, 8],
        ["20,00%", 522, 238, 8],
        ["Total HT", 420, 300, 8],
        ["29,00", 487, 300, 8],
      ]),
      { locale: localeHints("fr-FR") },
    );
    const row = table?.rows[0];
    assert.deepEqual([row?.description, row?.quantity, row?.amount], ["FOURNITURES DIVERSES", "3", "29.00"]);
  });

  it("reads a header cell stacked over and under the titles' line as the header's, and a rate with its category", async () => {
    // "Bezug Kunde / Bezug Lieferant" over the titles' line and "Kennung / (Typ)" under it, beside "Pos", naming no
    // column; each row's tax rate printed with its category ("19 % VAT (S)").
    const rows = await rowsOf([
      ["Bezug Kunde", 70, 150, 8],
      ["Bezug Lieferant", 70, 159, 8],
      ["Pos", 50, 164, 8],
      ["Beschreibung", 153, 164, 8],
      ["Nettopreis", 246, 164, 8],
      ["Menge", 350, 164, 8],
      ["Steuer", 430, 164, 8],
      ["Entgelt", 510, 164, 8],
      ["Kennung", 70, 169, 8],
      ["(Typ)", 70, 178, 8],
      ["1", 54, 190, 8],
      ["Zitronensäure", 153, 190, 8],
      ["1,00", 275, 190, 8],
      ["-5 Stk", 355, 190, 8],
      ["19 % VAT (S)", 405, 190, 8],
      ["-5,00", 518, 190, 8],
      ["100ml", 153, 199, 8],
      ["2", 54, 215, 8],
      ["Gelierzucker", 153, 215, 8],
      ["1,45", 275, 215, 8],
      ["-2 Stk", 355, 215, 8],
      ["7 % VAT (S)", 410, 215, 8],
      ["-2,90", 518, 215, 8],
      ["Extra 250g", 153, 224, 8],
      ["Positionssumme", 300, 260, 8],
      ["-7,90", 518, 260, 8],
    ]);
    const table = rows.map((r) => [r[0], r[3]]);
    assert.deepEqual(table, [
      ["Zitronensäure 100ml", "-5.00"],
      ["Gelierzucker Extra 250g", "-2.90"],
    ]);
    const rates = extractLineItems(
      await placedTextDocument([
        ["Pos", 50, 164, 8],
        ["Beschreibung", 153, 164, 8],
        ["Menge", 350, 164, 8],
        ["Steuer", 430, 164, 8],
        ["Entgelt", 510, 164, 8],
        ["1", 54, 190, 8],
        ["Zitronensäure 100ml", 153, 190, 8],
        ["5 Stk", 355, 190, 8],
        ["19 % VAT (S)", 405, 190, 8],
        ["5,00", 518, 190, 8],
      ]),
      DE,
    )?.rows.map((r) => [r.description, r.taxRate]);
    assert.deepEqual(rates, [["Zitronensäure 100ml", "19.00"]]);
  });

  it("reads a size set apart from the name under it ('Zitronensäure' | '100ml') as the name's, not a quantity", async () => {
    const rows = await rowsOf([
      ["GTIN", 50, 160, 8],
      ["Art-Nr-Lieferant", 130, 160, 8],
      ["Menge", 290, 160, 8],
      ["Nettopreis", 400, 160, 8],
      ["Nettowert", 510, 160, 8],
      ["Artikelbezeichnung", 130, 169, 8],
      ["4123456000014", 50, 190, 8],
      ["ZS997", 130, 190, 8],
      ["-5,0000 Stk.", 285, 190, 8],
      ["1,0000", 420, 190, 8],
      ["-5,00", 525, 190, 8],
      ["Zitronensäure", 130, 199, 8],
      ["100ml", 238, 199, 8],
      ["4123456000021", 50, 215, 8],
      ["GZ250", 130, 215, 8],
      ["-2,0000 Stk.", 285, 215, 8],
      ["1,4500", 420, 215, 8],
      ["-2,90", 525, 215, 8],
      ["Gelierzucker Extra 250g", 130, 224, 8],
      ["Summe Positionen", 300, 260, 8],
      ["-7,90", 525, 260, 8],
    ]);
    assert.deepEqual(
      rows.map((r) => [r[0], r[1], r[3]]),
      [
        ["Zitronensäure 100ml", "-5", "-5.00"],
        ["Gelierzucker Extra 250g", "-2", "-2.90"],
      ],
    );
  });

  it("ends the table at another table's column titles on a later page before any row of it", async () => {
    const at = (lines: PlacedLine[]) => lines.map(([text, x, top, size]) => ({ text, x, y: A4.height - top, size }));
    const first = at([
      ...VIEWER_HEADER,
      ["1", 58, 190, 9],
      ["Zitronensäure 100ml", 155, 190, 9],
      ["1,0000", 274, 190, 9],
      ["100 Stk", 352, 190, 9],
      ["19 %", 443, 190, 9],
      ["100,00", 508, 190, 9],
      ["Seite 1 von 2", 260, 800, 8],
    ]);
    const second = at([
      ["Zahlungsbedingungen:", 50, 80, 9],
      ["Bei Zahlung innerhalb 14 Tagen gewähren wir 2,0% Skonto.", 50, 95, 9],
      ["Zu- und Abschläge:", 50, 130, 9],
      ["Art", 50, 145, 9],
      ["Basisbetrag", 260, 145, 9],
      ["Steuer", 420, 145, 9],
      ["Betrag", 500, 145, 9],
      ["Abschlag Rechnungsrabatt", 50, 160, 9],
      ["100,00", 270, 160, 9],
      ["19 % USt", 420, 160, 9],
      ["-2,00", 515, 160, 9],
    ]);
    const { bytes } = await makeTextPdf([first, second]);
    const table = extractLineItems(await ingest(bytes, { concurrency: 1 }), DE);
    assert.deepEqual(
      table?.rows.map((r) => [r.description, r.amount]),
      [["Zitronensäure 100ml", "100.00"]],
    );
  });
});
