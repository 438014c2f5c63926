/**
 * Column roles from the rows' arithmetic. A header that names no amount column (none over it, or a word the
 * vocabulary does not know) has its rightmost money column taken for the amount (columns.ts). Where on most rows
 * quantity x that column = the rightmost number printed right of it (within rounding), that column is the unit price
 * and the amount is that rightmost number column.
 */
import type { LocaleHints } from "../normalise/locale.js";
import { isPercent, moneyCell, priceCell, quantityCell } from "./cells.js";
import { rowCloses } from "./checks.js";
import { type Column, columnOf, type Header } from "./columns.js";
import type { Chunk, VisualLine } from "./lines.js";

/** Lines under the header looked at: enough rows to tell, no more (the check runs once per table). */
const LOOK_AHEAD = 40;

/**
 * The header with its guessed amount column read as the unit price and an amount column where quantity x unit price
 * falls on two rows or more, and on two rows in three of those with a quantity, a unit price and a number right of
 * them; else the header as it is. `from`: the first line under the header.
 */
export function amountByArithmetic(
  header: Header,
  lines: readonly VisualLine[],
  from: number,
  hints: LocaleHints,
): Header {
  const guessed = header.columns.find((c) => c.role === "amount" && c.guessed === true);
  if (guessed === undefined || !header.columns.some((c) => c.role === "quantity")) return header;
  let rows = 0;
  const closing: Chunk[] = [];
  for (const line of lines.slice(from, from + LOOK_AHEAD)) {
    let quantity: string | null = null;
    let price: string | null = null;
    for (const chunk of line.chunks) {
      const role = columnOf(chunk, header.columns, hints)?.role;
      if (role === "quantity") quantity = quantityCell(chunk.text, hints)?.quantity ?? null;
      if (role === "amount") price = priceCell(chunk.text, hints);
    }
    const right = line.chunks.findLast(
      (c) => c.box.x0 > guessed.x1 && !isPercent(c.text) && moneyCell(c.text, hints) !== null,
    );
    const amount = right === undefined ? null : moneyCell(right.text, hints);
    if (quantity === null || price === null || right === undefined || amount === null) continue;
    rows++;
    if (rowCloses({ quantity, unitPrice: price, amount }) === true) closing.push(right);
  }
  if (closing.length < 2 || closing.length * 3 < rows * 2) return header;
  const amount: Column = {
    role: "amount",
    x0: Math.min(...closing.map((c) => c.box.x0)),
    x1: Math.max(...closing.map((c) => c.box.x1)),
    headerWords: [],
    fromRows: true,
  };
  return withAmount(header, amount);
}

/** The header with its guessed amount column read as the unit price, and `amount` its amount column. */
function withAmount(header: Header, amount: Column): Header {
  const columns = header.columns.map(
    (c): Column => (c.guessed === true ? { ...c, role: "unitPrice", guessed: false } : c),
  );
  return { ...header, columns: [...columns, amount].sort((a, b) => a.x0 - b.x0) };
}

/**
 * A repeated header read as the first one was: where the first one's amount came from the arithmetic and the repeat
 * guessed its amount again, the repeat's guess is the unit price and the first one's amount column stands.
 */
export function sameAmount(repeated: Header, first: Header): Header {
  const amount = first.columns.find((c) => c.role === "amount" && c.fromRows === true);
  if (amount === undefined || !repeated.columns.some((c) => c.role === "amount" && c.guessed === true)) return repeated;
  return withAmount(repeated, amount);
}
