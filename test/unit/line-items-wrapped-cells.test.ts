/**
 * Tables as browsers print them (issue #18): narrow figure columns whose price and amount stand one space apart with
 * their currency codes ("55.99 GBP 55.99 GBP"), a header cell wrapped over two lines ("Prix" over "unitaire"), a
 * period column whose range wraps in its cell with the description beside it and the amount's currency sign under it,
 * and a date written "September 20, 2021" in a period column. Pages are real text-layer PDFs drawn here, read by
 * ingest.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { extractLineItems } from "../../src/extract/line-items/index.js";
import { localeHints } from "../../src/extract/normalise/locale.js";
import { type PlacedLine, placedTextDocument } from "../helpers/pdf-fixtures.js";

async function rowsOf(lines: readonly PlacedLine[], locale: string) {
  const table = extractLineItems(await placedTextDocument(lines), { locale: localeHints(locale) });
  return (table?.rows ?? []).map((r) => [r.description, r.quantity, r.unitPrice, r.amount]);
}

describe("extractLineItems: cells of browser-printed tables", () => {
  it("reads a unit price and an amount printed one space apart, each with its currency code", async () => {
    const rows = await rowsOf(
      [
        ["Pos.", 40, 200, 9],
        ["Description", 70, 200, 9],
        ["Service period", 190, 200, 9],
        ["Qty", 400, 200, 9],
        ["Unit price", 440, 200, 9],
        ["Amount", 515, 200, 9],
        ["1", 40, 216, 9],
        ["API requests overage", 70, 216, 9],
        ["20 November 2025 - 19 December 2025", 190, 216, 9],
        ["1", 410, 216, 9],
        ["55.99 GBP 55.99 GBP", 462, 216, 9],
        ["2", 40, 230, 9],
        ["Compute instances", 70, 230, 9],
        ["20 November 2025 - 19 December 2025", 190, 230, 9],
        ["2", 410, 230, 9],
        ["12.50 GBP 25.00 GBP", 462, 230, 9],
        ["Sub-total", 400, 260, 9],
        ["80.99 GBP", 507, 260, 9],
        ["IBAN LD01 4379 3833 8437", 400, 780, 8],
      ],
      "en-GB",
    );
    assert.deepEqual(rows, [
      ["API requests overage", "1", "55.99", "55.99"],
      ["Compute instances", "2", "12.50", "25.00"],
    ]);
  });

  it("reads a header cell wrapped over two lines, and a row whose description and period wrap", async () => {
    const rows = await rowsOf(
      [
        ["Pos.", 40, 200, 9],
        ["Désignation", 70, 200, 9],
        ["Période", 210, 200, 9],
        ["Qté", 400, 200, 9],
        ["Prix", 450, 200, 9],
        ["Montant", 510, 200, 9],
        ["unitaire", 450, 211, 9],
        ["1", 40, 228, 9],
        ["Utilisateurs", 70, 228, 9],
        ["11 novembre 2024 - 10 décembre", 210, 228, 9],
        ["16", 405, 228, 9],
        ["457,37 €", 450, 228, 9],
        ["7 317,92", 515, 228, 9],
        ["supplémentaires", 70, 239, 9],
        ["2024", 210, 239, 9],
        ["€", 540, 239, 9],
        ["Total HT", 400, 270, 9],
        ["7 317,92 €", 505, 270, 9],
      ],
      "fr-FR",
    );
    assert.deepEqual(rows, [["Utilisateurs supplémentaires", "16", "457.37", "7317.92"]]);
  });

  it("keeps a date's day and year together in a period column", async () => {
    const rows = await rowsOf(
      [
        ["Pos.", 40, 200, 9],
        ["Description", 70, 200, 9],
        ["Billing period", 190, 200, 9],
        ["Qty", 420, 200, 9],
        ["Unit price", 450, 200, 9],
        ["Amount", 520, 200, 9],
        ["1", 40, 216, 9],
        ["Email sending (10k)", 70, 216, 9],
        ["September 20, 2021 - October 19, 2021", 190, 216, 9],
        ["1", 425, 216, 9],
        ["$84.80", 460, 216, 9],
        ["$84.80", 525, 216, 9],
        ["Subtotal", 420, 250, 9],
        ["$84.80", 525, 250, 9],
      ],
      "en-US",
    );
    assert.deepEqual(rows, [["Email sending (10k)", "1", "84.80", "84.80"]]);
  });
});

describe("extractLineItems: a name ending in a colon", () => {
  it("leaves the colon that introduces the details under a name out of the description", async () => {
    const rows = await rowsOf(
      [
        ["Artikel", 40, 200, 9],
        ["Menge", 300, 200, 9],
        ["Preis", 380, 200, 9],
        ["Betrag", 500, 200, 9],
        ["Heiße Luft pro Liter:", 40, 220, 9],
        ["2", 305, 220, 9],
        ["10,00", 380, 220, 9],
        ["20,00", 500, 220, 9],
        ["Künstlerische Gestaltung (Stunde) :", 40, 240, 9],
        ["1", 305, 240, 9],
        ["160,00", 380, 240, 9],
        ["160,00", 500, 240, 9],
        ["Summe", 380, 270, 9],
        ["180,00", 500, 270, 9],
      ],
      "de-DE",
    );
    assert.deepEqual(rows, [
      ["Heiße Luft pro Liter", "2", "10.00", "20.00"],
      ["Künstlerische Gestaltung (Stunde)", "1", "160.00", "160.00"],
    ]);
  });
});
