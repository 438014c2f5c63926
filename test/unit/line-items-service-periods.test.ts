/**
 * Subscription rows (issue #18): the service period printed under an item's name ("Nov 1 – Dec 1, 2024", "Période de
 * 01/01/2026 au 31/01/2026", "Abrechnungszeitraum KW 36"), or in a period column, is no part of the row's description,
 * as an e-invoice's XML names the item apart from its billing period. Pages are real text-layer PDFs drawn here, read by ingest.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { extractLineItems } from "../../src/extract/line-items/index.js";
import { localeHints } from "../../src/extract/normalise/locale.js";
import { type PlacedLine, placedTextDocument } from "../helpers/pdf-fixtures.js";

async function rowsOf(lines: readonly PlacedLine[], locale: string) {
  const table = extractLineItems(await placedTextDocument(lines), { locale: localeHints(locale) });
  return (table?.rows ?? []).map((r) => [r.description, r.amount]);
}

describe("extractLineItems: service periods", () => {
  it("keeps the period line under an item out of its description", async () => {
    const rows = await rowsOf(
      [
        ["Description", 40, 200, 9],
        ["Qty", 300, 200, 9],
        ["Unit price", 380, 200, 9],
        ["Amount", 500, 200, 9],
        ["Pro plan", 40, 220, 9],
        ["1", 305, 220, 9],
        ["$20.00", 380, 220, 9],
        ["$20.00", 500, 220, 9],
        ["Nov 1, 2024 – Dec 1, 2024", 40, 231, 7],
        ["Additional seats", 40, 250, 9],
        ["4", 305, 250, 9],
        ["$5.00", 380, 250, 9],
        ["$20.00", 500, 250, 9],
        ["Nov 1, 2024 – Dec 1, 2024", 40, 261, 7],
        ["Subtotal", 380, 290, 9],
        ["$40.00", 500, 290, 9],
      ],
      "en-US",
    );
    assert.deepEqual(rows, [
      ["Pro plan", "20.00"],
      ["Additional seats", "20.00"],
    ]);
  });

  it("keeps a period named as such out of the description, wrapped or not, under or over the figures", async () => {
    const rows = await rowsOf(
      [
        ["Descripción", 40, 200, 9],
        ["Cantidad", 300, 200, 9],
        ["Importe", 500, 200, 9],
        // Name over the figures, the titled period under them, wrapped after its first date.
        ["Cable de red CAT6", 40, 220, 9],
        ["2", 305, 231, 9],
        ["60,00", 500, 231, 9],
        ["Periodo del 01/11/2026 al", 40, 242, 9],
        ["28/11/2026", 40, 253, 9],
        // Name and period over the figures, in one block.
        ["Mantenimiento web", 40, 280, 9],
        ["Periodo del 01/07/2026 al 28/07/2026", 40, 291, 9],
        ["1", 305, 302, 9],
        ["120,00", 500, 302, 9],
        // A calendar week as the period.
        ["Gastos de viaje", 40, 329, 9],
        ["1", 305, 340, 9],
        ["35,00", 500, 340, 9],
        ["Abrechnungszeitraum KW 36", 40, 351, 9],
        ["Subtotal", 380, 380, 9],
        ["215,00", 500, 380, 9],
      ],
      "es-ES",
    );
    assert.deepEqual(rows, [
      ["Cable de red CAT6", "60.00"],
      ["Mantenimiento web", "120.00"],
      ["Gastos de viaje", "35.00"],
    ]);
  });

  it("reads a period column apart from the description", async () => {
    const rows = await rowsOf(
      [
        ["Pos.", 40, 200, 9],
        ["Bezeichnung", 80, 200, 9],
        ["Leistungszeitraum", 220, 200, 9],
        ["Menge", 380, 200, 9],
        ["Gesamt", 500, 200, 9],
        ["1", 40, 220, 9],
        ["Premium-Support", 80, 220, 9],
        ["01.08.2024 - 31.08.2024", 220, 220, 9],
        ["1", 385, 220, 9],
        ["49,00 EUR", 490, 220, 9],
        ["Summe netto", 380, 250, 9],
        ["49,00 EUR", 490, 250, 9],
      ],
      "de-DE",
    );
    assert.deepEqual(rows, [["Premium-Support", "49.00"]]);
  });
});
