/**
 * Rows printed as blocks (issue #18): each item a block of tight lines (name, period, attributes) with its figures'
 * line in the middle, the blocks set apart by wider gaps, under a header whose last title stands on a line of its own.
 * The block decides whose text a line is: not the row above's when it opens the next block, no row's when it is the
 * header's, and the next row's when it stands over that row's figures beside a labelled gross price. Pages are real
 * text-layer PDFs drawn here, read by ingest.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { extractLineItems } from "../../src/extract/line-items/index.js";
import { localeHints } from "../../src/extract/normalise/locale.js";
import { type PlacedLine, placedTextDocument } from "../helpers/pdf-fixtures.js";

const FR = { locale: localeHints("fr-FR") };

async function rowsOf(lines: readonly PlacedLine[]) {
  const table = extractLineItems(await placedTextDocument(lines), FR);
  return (table?.rows ?? []).map((r) => [r.description, r.quantity, r.amount]);
}

/** Column titles over four tight lines, the description's last title ("Note") alone on the last one. */
const HEADER: PlacedLine[] = [
  ["NOM & DESIGNATION, Période", 140, 150, 7],
  ["#", 40, 155, 7],
  ["Objet, Classification", 140, 155, 7],
  ["TOTAL HT", 470, 155, 7],
  ["Ligne", 40, 160, 7],
  ["P.U. HT", 310, 160, 7],
  ["Qté", 400, 160, 7],
  ["TVA", 530, 160, 7],
  ["Attributs", 140, 165, 7],
  ["(EUR)", 470, 165, 7],
  ["Note", 140, 170, 7],
];

/** One item's block: lines above its figures, the figures' line, lines under it (4.5 pt apart, as viewers print). */
function block(top: number, above: string[], figures: PlacedLine[], below: string[]): PlacedLine[] {
  const pitch = 4.5;
  const y = top + above.length * pitch;
  return [
    ...above.map((text, k): PlacedLine => [text, 140, top + k * pitch, 7]),
    ...figures.map(([text, x]): PlacedLine => [text, x, y, 7]),
    ...below.map((text, k): PlacedLine => [text, 140, y + (k + 1) * pitch, 7]),
  ];
}

function figures(position: string, price: string, quantity: string, amount: string): PlacedLine[] {
  return [
    [position, 44, 0, 7],
    [price, 320, 0, 7],
    [quantity, 405, 0, 7],
    [amount, 480, 0, 7],
    ["20,00%", 528, 0, 7],
  ];
}

const TOTALS: PlacedLine[] = [
  ["TOTAL HT", 400, 330, 7],
  ["100,00", 480, 330, 7],
];

describe("extractLineItems: rows printed as blocks", () => {
  it("gives each block's lines to the row whose figures stand in it, and the header's last title to none", async () => {
    const rows = await rowsOf([
      ...HEADER,
      ...block(
        185,
        ["PRESTATION SUPPORT - Description", "Période de 01/01/2026 au 31/01/2026", "Equipe : EQUIPE_A"],
        figures("1", "60,00", "1,00", "60,00"),
        ["CATEGORIE : JOUR 8H-20H", "DONT 0,50 EUR de DEEE"],
      ),
      ...block(
        222,
        ["FOURNITURES PAPIER - Description", "Période de 01/01/2026 au 31/01/2026", "Lot number (BB) :"],
        figures("2", "10,00", "3,00", "30,00"),
        ["COULEUR : BLANC - GRAMMAGE : 80g"],
      ),
      ...block(255, ["APPEL - Description"], figures("3", "10,00", "1,00", "10,00"), ["REF : BUY_ACC_REF"]),
      ...TOTALS,
    ]);
    assert.deepEqual(
      rows.map(([description, quantity, amount]) => [description?.split(" - ")[0], quantity, amount]),
      [
        ["PRESTATION SUPPORT", "1", "60.00"],
        ["FOURNITURES PAPIER", "3", "30.00"],
        ["APPEL", "1", "10.00"],
      ],
    );
  });

  it("keeps a block's name printed over its figures beside a labelled gross price", async () => {
    const at = (y: number, line: PlacedLine[]): PlacedLine[] => line.map(([text, x]) => [text, x, y, 7]);
    const rows = await rowsOf([
      ...HEADER,
      ["(Brut: 60,00)", 310, 195, 7],
      ...at(199.5, [...figures("1", "60,00", "1,00", "60,00"), ["PRESTATION SUPPORT - Description", 140, 0, 7]]),
      ["(Net): 60,00", 310, 204, 7],
      ["FOURNITURES PAPIER - Description", 140, 236, 7],
      ["(Brut: 10,00)", 310, 236, 7],
      ...at(240.5, [...figures("2", "10,00", "3,00", "30,00"), ["SKU (SK): SKU1258", 140, 0, 7]]),
      ["(Net): 10,00", 310, 245, 7],
      ["(Brut: 10,00)", 310, 277, 7],
      ...at(281.5, [...figures("3", "10,00", "1,00", "10,00"), ["APPEL - Description", 140, 0, 7]]),
      ["(Net): 10,00", 310, 286, 7],
      ...TOTALS,
    ]);
    assert.deepEqual(rows, [
      ["PRESTATION SUPPORT - Description", "1", "60.00"],
      // "SKU (SK): SKU1258", on the figures' line under the name, is a detail of the row.
      ["FOURNITURES PAPIER - Description", "3", "30.00"],
      ["APPEL - Description", "1", "10.00"],
    ]);
  });

  it("leaves out of a description the attribute and code lines under its name, bracketed tags and all", async () => {
    const rows = await rowsOf([
      ...HEADER,
      ...block(
        185,
        ["PRESTATION SUPPORT - Description", "Work team (AOP): EQUIPE_A - SKU (Stock keeping unit) (SK): SKU2578"],
        figures("1", "60,00", "1,00", "60,00"),
        ["REF:BUY_ACC_REF", "(ATT) CATEGORIE : JOUR 8H-20H"],
      ),
      ...block(222, ["FOURNITURES PAPIER - Description"], figures("2", "10,00", "3,00", "30,00"), [
        "(ATT) COULEUR : BLANC - GRAMMAGE : 80g",
        "(BLU): DONT 0,50 EUR de DEEE",
      ]),
      ...block(
        255,
        ["Câble réseau (gaine LSOH)", "catégorie 6A (blindé), 305 m"],
        figures("3", "10,00", "1,00", "10,00"),
        [],
      ),
      ...block(
        282,
        ["Künstlerische Gestaltung", "(Stunde): Einer Beispielrechnung"],
        figures("4", "10,00", "1,00", "10,00"),
        [],
      ),
      ...TOTALS,
    ]);
    assert.deepEqual(rows, [
      ["PRESTATION SUPPORT - Description", "1", "60.00"],
      ["FOURNITURES PAPIER - Description", "3", "30.00"],
      // A wrapped description whose brackets qualify no label keeps its lines, and so does one whose line opens
      // with words in brackets.
      ["Câble réseau (gaine LSOH) catégorie 6A (blindé), 305 m", "1", "10.00"],
      ["Künstlerische Gestaltung (Stunde): Einer Beispielrechnung", "1", "10.00"],
    ]);
  });
});
