/**
 * OCR-tolerant reading by the table's arithmetic. A scan loses a decimal separator ("7252" for 72,52), a minus sign,
 * or reads a digit wrong; quantity x unit price = amount per row, and the rows' sum = the printed subtotal or total,
 * say which cell was misread and what it said. Only a repair the arithmetic pins down exactly is made.
 */
import { formatAmount } from "../normalise/amount.js";
import { plainDecimal } from "./cells.js";
import { rowCloses } from "./checks.js";
import type { LineItemRow } from "./types.js";

function cents(text: string): number {
  return Math.round(Number(text) * 100);
}

/** The digits of a value as printed: a whole amount read from "7252" has no cents to compare. */
function digits(text: string): string {
  const value = Number(text);
  const printed = Number.isInteger(value) ? String(Math.abs(value)) : text;
  return printed.replace(/\D/g, "").replace(/^0+/, "");
}

/** A quantity as invoices print them: whole, or in halves, quarters or thousandths up to 10000. */
function plausibleQuantity(value: number): boolean {
  return value > 0 && value <= 10000 && Math.abs(value * 1000 - Math.round(value * 1000)) < 1e-6;
}

/**
 * One row's cells made to agree where one of them was misread and the other two pin it down: an amount or unit price
 * whose digits are those of the product (a lost separator), a quantity OCR could not read. Returns the cells changed.
 */
export function repairRow(row: LineItemRow): string[] {
  const changed: string[] = [];
  const { quantity, unitPrice, amount } = row;
  if (quantity !== null && unitPrice !== null && amount === null) {
    row.amount = formatAmount(Number(quantity) * Number(unitPrice));
    return ["amount"];
  }
  if (unitPrice !== null && amount !== null && quantity === null && cents(unitPrice) !== 0) {
    const q = Number(amount) / Number(unitPrice);
    if (plausibleQuantity(Math.round(q * 1000) / 1000) && Math.abs(Math.round(q * 1000) / 1000 - q) < 1e-6) {
      row.quantity = plainDecimal(q);
      changed.push("quantity");
    }
    return changed;
  }
  if (quantity === null || unitPrice === null || amount === null || rowCloses(row) !== false) return changed;
  const product = formatAmount(Number(quantity) * Number(unitPrice));
  if (digits(product) === digits(amount)) {
    row.amount = product;
    return ["amount"];
  }
  const q = Number(quantity);
  if (q !== 0) {
    const unit = formatAmount(Number(amount) / q);
    if (digits(unit) === digits(unitPrice) && rowCloses({ quantity, unitPrice: unit, amount }) === true) {
      row.unitPrice = unit;
      return ["unitPrice"];
    }
  }
  return changed;
}

/**
 * The table against its printed sum: when the rows' sum misses it, one row whose amount disagrees with its quantity
 * x unit price, or whose sign was lost, and whose correction closes the sum exactly, is corrected. Returns the row.
 */
export function repairSum(rows: LineItemRow[], expected: readonly (string | null | undefined)[]): LineItemRow | null {
  const sum = rows.reduce((s, r) => s + (r.amount === null ? 0 : cents(r.amount)), 0);
  const targets = expected.filter((e): e is string => typeof e === "string" && e !== "").map(cents);
  if (targets.length === 0 || targets.includes(sum)) return null;
  for (const target of targets) {
    const diff = target - sum;
    const fits: [LineItemRow, string][] = [];
    for (const row of rows) {
      if (row.amount === null) continue;
      const now = cents(row.amount);
      const wanted = now + diff;
      if (row.unitPrice !== null && cents(row.unitPrice) !== 0) {
        // The amount misread: quantity x unit price (or a whole number of unit prices, quantity unread) gives it.
        const q = row.quantity !== null ? Number(row.quantity) : wanted / cents(row.unitPrice);
        if (
          plausibleQuantity(Math.abs(q)) &&
          Math.abs(q * cents(row.unitPrice) - wanted) <= Math.max(1, Math.abs(q) * 0.5)
        ) {
          fits.push([row, formatAmount(wanted / 100)]);
        }
      } else if (row.quantity === null && wanted === -now && now !== 0) {
        // A discount or surcharge whose sign OCR lost (or added).
        fits.push([row, formatAmount(wanted / 100)]);
      }
    }
    const only = fits.length === 1 ? fits[0] : undefined;
    if (only === undefined) continue;
    const [row, amount] = only;
    row.amount = amount;
    if (row.quantity === null && row.unitPrice !== null) {
      const q = Number(amount) / Number(row.unitPrice);
      if (plausibleQuantity(Math.abs(Math.round(q * 1000) / 1000)))
        row.quantity = plainDecimal(Math.round(q * 1000) / 1000);
    }
    return row;
  }
  return null;
}
