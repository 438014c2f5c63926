/**
 * Column roles from the rows' arithmetic. A header that names no amount column (none over it, or a word the
 * vocabulary does not know) has its rightmost money column taken for the amount (columns.ts). Where on most rows
 * quantity x that column = the rightmost number printed right of it (within rounding), that column is the unit price
 * and the amount is that rightmost number column. A header naming the amount twice with no quantity column ("Amount |
 * Product | Price | Total", "Amount" as a count) has its left one read as the quantity where on most rows it times the
 * unit price gives the number under the right one. Either way the number may stand alone on the line under the row's
 * other figures (an amount set low).
 */
import type { LocaleHints } from "../normalise/locale.js";
import { isPercent, moneyCell, priceCell, quantityCell } from "./cells.js";
import { rowCloses } from "./checks.js";
import { type Column, columnOf, type Header } from "./columns.js";
import type { ColumnRole } from "./headers.js";
import type { Chunk, VisualLine } from "./lines.js";

/** Lines under the header looked at: enough rows to tell, no more (the check runs once per table). */
const LOOK_AHEAD = 40;

/** A row's quantity and unit price as read. */
interface RowFigures {
  quantity: string | null;
  unitPrice: string | null;
}

/**
 * Of the lines under a header (from `from`, at most LOOK_AHEAD), those `read` finds a quantity and a unit price on and
 * `rightOf` an amount chunk, on the line or alone on the line tight under it (an amount set low), (`rows`), and the
 * amount chunks of those where quantity x unit price = amount (`closing`).
 */
function closingRows(
  lines: readonly VisualLine[],
  from: number,
  hints: LocaleHints,
  read: (line: VisualLine) => RowFigures,
  rightOf: (line: VisualLine) => Chunk | undefined,
): { rows: number; closing: Chunk[] } {
  let rows = 0;
  const closing: Chunk[] = [];
  for (const [k, line] of lines.slice(from, from + LOOK_AHEAD).entries()) {
    const { quantity, unitPrice } = read(line);
    const next = lines[from + k + 1];
    const low = next !== undefined && next.box.y0 - line.box.y1 < line.height * 1.1 && next.chunks.length === 1;
    const right = rightOf(line) ?? (low ? rightOf(next) : undefined);
    const amount = right === undefined ? null : moneyCell(right.text, hints);
    if (quantity === null || unitPrice === null || right === undefined || amount === null) continue;
    rows++;
    if (rowCloses({ quantity, unitPrice, amount }) === true) closing.push(right);
  }
  return { rows, closing };
}

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
  const { rows, closing } = closingRows(
    lines,
    from,
    hints,
    (line) => {
      let quantity: string | null = null;
      let unitPrice: string | null = null;
      for (const chunk of line.chunks) {
        const role = columnOf(chunk, header.columns, hints)?.role;
        // The first under the quantity's title: a figure right of it may have that column nearest too.
        if (role === "quantity" && quantity === null) quantity = quantityCell(chunk.text, hints)?.quantity ?? null;
        // Under the guessed column, not a figure right of it that its nearest column is too.
        if (role === "amount" && chunk.box.x0 <= guessed.x1) unitPrice = priceCell(chunk.text, hints);
      }
      return { quantity, unitPrice };
    },
    (line) =>
      line.chunks.findLast((c) => c.box.x0 > guessed.x1 && !isPercent(c.text) && moneyCell(c.text, hints) !== null),
  );
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

/** Whether enough rows close: two or more and two in three of those read, or every row read when only one is. */
function enoughClose(closing: number, rows: number): boolean {
  return closing >= 2 ? closing * 3 >= rows * 2 : closing === 1 && rows === 1;
}

/**
 * The header with its amount column read as the quantity and its later amount cell as the amount where, on the rows,
 * the first times the unit price gives the number under the later cell; else the header as it is.
 */
export function quantityByArithmetic(
  header: Header,
  lines: readonly VisualLine[],
  from: number,
  hints: LocaleHints,
): Header {
  const { laterAmount, ...rest } = header;
  if (laterAmount === undefined) return header;
  const first = header.columns.find((c) => c.role === "amount");
  const price = header.columns.find((c) => c.role === "unitPrice");
  if (first === undefined || price === undefined || !(first.x1 < price.x0 && price.x1 < laterAmount.x0)) return rest;
  const { rows, closing } = closingRows(
    lines,
    from,
    hints,
    (line) => {
      const cells = new Map<ColumnRole, Chunk>();
      for (const chunk of line.chunks) {
        const role = columnOf(chunk, header.columns, hints)?.role;
        if (role !== undefined && !cells.has(role)) cells.set(role, chunk);
      }
      return {
        quantity: quantityCell(cells.get("amount")?.text ?? "", hints)?.quantity ?? null,
        unitPrice: priceCell(cells.get("unitPrice")?.text ?? "", hints),
      };
    },
    (line) => line.chunks.findLast((c) => c.box.x0 > price.x1 && !isPercent(c.text)),
  );
  if (!enoughClose(closing.length, rows)) return rest;
  const columns = header.columns.map(
    (c): Column => (c === first ? { ...c, role: "quantity", countedAmount: true } : c),
  );
  return { ...rest, columns: [...columns, laterAmount].sort((a, b) => a.x0 - b.x0) };
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
 * guessed its amount again, the repeat's guess is the unit price and the first one's amount column stands; where the
 * first one's amount cell counts the items, so does the repeat's.
 */
export function sameAmount(repeated: Header, first: Header): Header {
  const { laterAmount, ...rest } = repeated;
  if (laterAmount !== undefined && first.columns.some((c) => c.countedAmount === true)) {
    const columns = rest.columns.map((c): Column => (c.role === "amount" ? { ...c, role: "quantity" } : c));
    return { ...rest, columns: [...columns, laterAmount].sort((a, b) => a.x0 - b.x0) };
  }
  const amount = first.columns.find((c) => c.role === "amount" && c.fromRows === true);
  if (amount === undefined || !rest.columns.some((c) => c.role === "amount" && c.guessed === true)) return rest;
  return withAmount(rest, amount);
}
