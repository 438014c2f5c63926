/** The arithmetic of a table: quantity x unit price = amount per row, and the rows' sum against a printed amount. */
import { formatAmount } from "../normalise/amount.js";
import type { LineItemChecks, LineItemRow, SumCheck } from "./types.js";

/** Whether quantity x unit price gives the amount within rounding (half a cent per unit of quantity, at least 1 cent). */
export function rowCloses(row: Pick<LineItemRow, "quantity" | "unitPrice" | "amount">): boolean | null {
  if (row.quantity === null || row.unitPrice === null || row.amount === null) return null;
  const qty = Number(row.quantity);
  const product = qty * Number(row.unitPrice);
  const tolerance = Math.max(0.011, Math.abs(qty) * 0.005 + 0.001);
  return Math.abs(product - Number(row.amount)) <= tolerance;
}

function cents(text: string): number {
  return Math.round(Number(text) * 100);
}

/**
 * The table's arithmetic. The rows' sum closes against the printed subtotal or total, or one of `others` (the total
 * less tax, a sum printed under a summary label: items before a discount or credits); a mismatch is reported against
 * the subtotal, else the total.
 */
export function checkTable(
  rows: readonly LineItemRow[],
  subtotal: string | null | undefined,
  total: string | null | undefined,
  others: readonly (readonly [SumCheck["against"], string])[] = [],
): LineItemChecks {
  let rowsClosing = 0;
  let rowsOpen = 0;
  let sumCents = 0;
  for (const row of rows) {
    const closes = rowCloses(row);
    if (closes === true) rowsClosing++;
    if (closes === false) rowsOpen++;
    if (row.amount !== null) sumCents += cents(row.amount);
  }
  const sum = formatAmount(sumCents / 100);
  let sumCheck: SumCheck | null = null;
  const printed: (readonly [SumCheck["against"], string])[] = [];
  if (subtotal) printed.push(["subtotal", subtotal]);
  if (total) printed.push(["total", total]);
  for (const [against, expected] of [...printed, ...others]) {
    if (cents(expected) === sumCents) {
      sumCheck = { against, closes: true, expected: formatAmount(cents(expected) / 100), found: sum };
      break;
    }
  }
  const [firstAgainst, firstExpected] = printed[0] ?? [];
  if (sumCheck === null && firstAgainst !== undefined && firstExpected !== undefined) {
    sumCheck = { against: firstAgainst, closes: false, expected: formatAmount(cents(firstExpected) / 100), found: sum };
  }
  return { rowsClosing, rowsOpen, sum, sumCheck };
}
