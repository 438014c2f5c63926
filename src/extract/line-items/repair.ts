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
 * The simplest quantity (whole, then halves, quarters, then thousandths) whose product with the unit price, rounded to
 * cents, is the amount: 1.5 x 753.91 prints 1130.87, not 1130.865.
 */
function quantityFor(unitPrice: string, amount: string): number | null {
  const unit = Number(unitPrice);
  const total = Number(amount);
  if (unit === 0 || !Number.isFinite(unit) || !Number.isFinite(total)) return null;
  const ratio = total / unit;
  for (const step of [1, 0.5, 0.25]) {
    const q = Math.round(ratio / step) * step;
    if (plausibleQuantity(q) && Math.abs(q * unit - total) <= 0.005 + 1e-9) return q;
  }
  const q = Math.round(ratio * 1000) / 1000;
  return plausibleQuantity(q) && Math.abs(q - ratio) < 1e-6 ? q : null;
}

/** Whether `read` is what OCR makes of `truth`: the same digits without the separator, or one digit fewer. */
function misreadOf(truth: string, read: string): boolean {
  const t = digits(truth);
  const r = digits(read);
  if (t === r) return true;
  if (t.length !== r.length + 1) return false;
  for (let i = 0; i < t.length; i++) if (t.slice(0, i) + t.slice(i + 1) === r) return true;
  return false;
}

/**
 * One row's cells made to agree where one of them was misread and the other two pin it down: an amount or unit price
 * whose digits are those of the product (a lost separator), a quantity OCR could not read or read without its decimal
 * separator ("45" for 4.5) or a digit ("5" for 1.5). Returns the cells changed.
 */
export function repairRow(row: LineItemRow): string[] {
  const changed: string[] = [];
  const { quantity, unitPrice, amount } = row;
  if (quantity !== null && unitPrice !== null && amount === null) {
    row.amount = formatAmount(Number(quantity) * Number(unitPrice));
    return ["amount"];
  }
  if (unitPrice !== null && amount !== null && quantity === null && cents(unitPrice) !== 0) {
    const q = quantityFor(unitPrice, amount);
    if (q !== null) {
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
  const read = quantityFor(unitPrice, amount);
  if (read !== null && misreadOf(plainDecimal(read), quantity)) {
    row.quantity = plainDecimal(read);
    return ["quantity"];
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

/** A "1" OCR read as a letter before a unit it is glued to ("Apples ikg", "Water lml"): units take a figure. */
const LOST_ONE = /(^|\s)[iIl|!](kg|mg|ml|cl|dl|mm|cm|km)(?=$|[\s,.;)])/gi;

/** A scanned row's description with a figure OCR read as a letter before a unit ("ikg") read as the figure. */
export function repairDescription(text: string | null): string | null {
  return text === null ? null : text.replace(LOST_ONE, (_, before: string, unit: string) => `${before}1${unit}`);
}
