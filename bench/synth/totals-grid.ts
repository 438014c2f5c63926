/**
 * Totals printed as a grid: a row of labels (net, tax, total, amount due) and the values in the row below, each under
 * its label, as many German and French invoices print them ("Total HT   TVA   Total TTC" over "100,00  20,00
 * 120,00"). A line of other text (terms, a late-payment notice) may run at the left between labels and values, so the
 * values are not always in the row right under their labels.
 */
import type { Rng } from "./prng.js";
import type { Sheet } from "./sheet.js";

export interface GridCell {
  label: string;
  value: string;
  bold: boolean;
}

export interface GridPlace {
  /** Left margin: where a note between the rows starts. */
  left: number;
  /** Right edge of the last column. */
  right: number;
  top: number;
  size: number;
  lineH: number;
}

/** Draws the grid and returns the top of the line after it. */
export function drawTotalsGrid(
  sheet: Sheet,
  cells: readonly GridCell[],
  place: GridPlace,
  rng: Rng,
  note: string | null,
): number {
  const { left, right, size, lineH } = place;
  const widest = Math.max(...cells.map((c) => sheet.measure(c.value, { size: size + 0.5, bold: c.bold })));
  const columnW = Math.min(Math.max(rng.float(70, 100), widest + 14), ((right - left) * 0.85) / cells.length);
  const gridLeft = right - columnW * cells.length;
  const centred = rng.chance(0.4);
  const rule = rng.chance(0.5);
  let y = place.top;
  cells.forEach((cell, i) => {
    const x1 = gridLeft + columnW * (i + 1) - 4;
    const labelSize = sheet.fit(cell.label, size, columnW - 8, true);
    const anchor = centred ? x1 - (columnW - 8) / 2 : x1;
    sheet.text(cell.label, anchor, y, { size: labelSize, bold: true, align: centred ? "center" : "right" });
  });
  if (rule) sheet.rule(gridLeft, right, y + lineH * 1.05, 0.4);
  y += lineH * 1.3;
  if (note) {
    const noteSize = sheet.fit(note, size - 0.5, gridLeft - left - 16, false);
    sheet.text(note, left, y, { size: noteSize, grey: 0.2 });
    y += lineH * 1.1;
  }
  cells.forEach((cell, i) => {
    const x1 = gridLeft + columnW * (i + 1) - 4;
    const anchor = centred ? x1 - (columnW - 8) / 2 : x1;
    sheet.text(cell.value, anchor, y, {
      size: cell.bold ? size + 0.5 : size,
      bold: cell.bold,
      align: centred ? "center" : "right",
    });
  });
  return y + lineH * 1.3;
}
