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

/** A column of a tax breakdown: its label, a value per tax rate, and their sum. */
export interface BreakdownColumn {
  label: string;
  parts: readonly string[];
  sum: string;
}

/**
 * Totals printed as a tax breakdown (issue #15): labels over columns (net, tax, gross), a row per tax rate with the
 * rate at its left, and under them, unlabelled, a row of the columns' sums (the invoice's subtotal, tax and total),
 * after a rule or a gap, as German invoice software prints it. Returns the top of the line after it.
 */
export function drawBreakdownGrid(
  sheet: Sheet,
  rates: readonly string[],
  columns: readonly BreakdownColumn[],
  place: GridPlace,
  rng: Rng,
): number {
  const { right, size, lineH } = place;
  const widest = Math.max(...columns.map((c) => sheet.measure(c.sum, { size: size + 0.5, bold: true })));
  const columnW = Math.max(rng.float(70, 95), widest + 14);
  const gridLeft = right - columnW * columns.length;
  const rateX = gridLeft - rng.float(10, 40);
  const x1Of = (i: number): number => gridLeft + columnW * (i + 1) - 4;
  let y = place.top;
  columns.forEach((c, i) => {
    sheet.text(c.label, x1Of(i), y, { size: sheet.fit(c.label, size, columnW - 8, true), bold: true, align: "right" });
  });
  sheet.rule(gridLeft - 50, right, y + lineH * 1.05, 0.4);
  y += lineH * 1.3;
  rates.forEach((rate, r) => {
    sheet.text(rate, rateX, y, { size, align: "right" });
    for (const [i, c] of columns.entries()) sheet.text(c.parts[r] ?? "", x1Of(i), y, { size, align: "right" });
    y += lineH * 1.15;
  });
  if (rng.chance(0.6)) sheet.rule(gridLeft, right, y - lineH * 0.15, 0.4);
  y += rng.chance(0.5) ? lineH * 0.6 : 0;
  const bold = rng.chance(0.6);
  for (const [i, c] of columns.entries()) {
    sheet.text(c.sum, x1Of(i), y, { size: bold ? size + 0.5 : size, bold, align: "right" });
  }
  return y + lineH * 1.3;
}
