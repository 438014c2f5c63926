/**
 * Receipt mode, for till rolls without a table header: item lines are the lines ending in an amount with cents at
 * the right edge, between the merchant block and the first subtotal, total or tax line. "2 x Milk", "Milk 2 x 1.50"
 * and a "2 x 1.50" line under a description-only line carry a quantity and a unit price.
 */
import { LABELS } from "../labels.js";
import type { LocaleHints } from "../normalise/locale.js";
import { hasCents, moneyCell } from "./cells.js";
import { rowCloses } from "./checks.js";
import { addChunk, type DraftRow } from "./draft.js";
import type { ColumnRole } from "./headers.js";
import { startsWithStop } from "./headers.js";
import { boxOf, type Chunk, type VisualLine } from "./lines.js";

const QTY = String.raw`(\d{1,4}(?:[.,]\d{1,3})?)`;
const TIMES = String.raw`\s*[x×X*@]\s*`;
/** "2 x Milk" */
const QTY_FIRST = new RegExp(`^${QTY}${TIMES}(\\S.*)$`);
/** "2 x 1.50" or "2 @ 1.50" alone on a line under its description */
const QTY_PRICE = new RegExp(`^${QTY}${TIMES}(\\S+)$`);
/** "Pro plan × 3": a quantity after the description, the amount the line's own. */
const DESC_TIMES_QTY = /^(.*\p{L}.*?)\s+[x×X]\s*(\d{1,4})$/u;
/** "Milk 2 x 1.50" */
const DESC_QTY_PRICE = new RegExp(`^(.*\\p{L}.*?)\\s+${QTY}${TIMES}(\\S+)$`, "u");

/** A part of a chunk's text, with the chunk's words that the part contains (all of them when none match). */
function part(chunk: Chunk, text: string): Chunk {
  const tokens = new Set(text.split(/\s+/));
  const words = chunk.words.filter((w) => tokens.has(w.text));
  if (words.length === 0) return { ...chunk, text };
  return { words, text, folded: chunk.folded, box: boxOf(words) };
}

function joinChunks(chunks: readonly Chunk[]): Chunk | null {
  const first = chunks[0];
  if (first === undefined) return null;
  const words = chunks.flatMap((c) => c.words);
  return {
    words,
    text: chunks.map((c) => c.text).join(" "),
    folded: chunks.flatMap((c) => c.folded),
    box: {
      x0: Math.min(...chunks.map((c) => c.box.x0)),
      y0: Math.min(...chunks.map((c) => c.box.y0)),
      x1: Math.max(...chunks.map((c) => c.box.x1)),
      y1: Math.max(...chunks.map((c) => c.box.y1)),
    },
  };
}

interface ItemLine {
  line: VisualLine;
  amount: Chunk;
  left: Chunk | null;
}

/** The line's last chunk when it is an amount with cents. */
function trailingAmount(line: VisualLine, hints: LocaleHints): Chunk | null {
  const last = line.chunks[line.chunks.length - 1];
  if (last === undefined || line.chunks.length < 2) return null;
  // The amount may be split from its currency mark ("RM 12.00") or glued to a tax code ("12.00 A").
  const before = line.chunks[line.chunks.length - 2];
  const mark = before !== undefined && before.text.length <= 4 && !/\d/.test(before.text);
  const pair = joinChunks(line.chunks.slice(-2));
  const candidates = (mark ? [pair, last] : [last, pair]).filter((c): c is Chunk => c !== null);
  for (const c of candidates) {
    const text = c.text.replace(/\s+[A-Z]$/, "");
    if (hasCents(text) && moneyCell(text, hints) !== null) return part(c, text);
  }
  return null;
}

export function readReceiptItems(pages: readonly VisualLine[][], hints: LocaleHints): DraftRow[] | null {
  const lines = pages.flat();
  const candidates: ItemLine[] = [];
  for (const line of lines) {
    const amount = trailingAmount(line, hints);
    if (amount === null) continue;
    const leftChunks = line.chunks.filter(
      (c) => c.box.x1 <= amount.box.x0 + 1e-6 && !amount.words.includes(c.words[0]!),
    );
    candidates.push({ line, amount, left: joinChunks(leftChunks) });
  }
  if (candidates.length === 0) return null;
  const right = Math.max(...candidates.map((c) => c.amount.box.x1));
  const width = Math.max(...lines.map((l) => l.box.x1)) - Math.min(...lines.map((l) => l.box.x0));
  const rows: DraftRow[] = [];
  let previous: VisualLine | null = null;
  for (const line of lines) {
    const label = leadingWords(line, hints);
    if (startsWithStop(label)) {
      if (rows.length > 0) break;
      previous = null;
      continue;
    }
    const item = candidates.find((c) => c.line === line);
    if (item === undefined && quantityUnder(rows[rows.length - 1], previous, line, hints)) {
      previous = line;
      continue;
    }
    if (item === undefined || right - item.amount.box.x1 > width * 0.15 || item.left === null) {
      previous = line;
      continue;
    }
    const cells = new Map<ColumnRole, Chunk[]>();
    const left = item.left.text.trim();
    const qtyPrice = QTY_PRICE.exec(left);
    const descQty = DESC_QTY_PRICE.exec(left);
    const qtyFirst = QTY_FIRST.exec(left);
    const descTimes = DESC_TIMES_QTY.exec(left);
    if (qtyPrice !== null && moneyCell(qtyPrice[2] ?? "", hints) !== null) {
      const above = previous;
      if (above === null || trailingAmount(above, hints) !== null || !/\p{L}/u.test(above.chunks[0]?.text ?? "")) {
        continue;
      }
      const description = joinChunks(above.chunks);
      if (description !== null) addChunk(cells, "description", description);
      addChunk(cells, "quantity", part(item.left, qtyPrice[1] ?? ""));
      addChunk(cells, "unitPrice", part(item.left, qtyPrice[2] ?? ""));
    } else if (descQty !== null && moneyCell(descQty[3] ?? "", hints) !== null) {
      addChunk(cells, "description", part(item.left, descQty[1] ?? ""));
      addChunk(cells, "quantity", part(item.left, descQty[2] ?? ""));
      addChunk(cells, "unitPrice", part(item.left, descQty[3] ?? ""));
    } else if (descTimes !== null) {
      addChunk(cells, "description", part(item.left, descTimes[1] ?? ""));
      addChunk(cells, "quantity", part(item.left, descTimes[2] ?? ""));
    } else if (qtyFirst !== null && /\p{L}/u.test(qtyFirst[2] ?? "")) {
      addChunk(cells, "quantity", part(item.left, qtyFirst[1] ?? ""));
      addChunk(cells, "description", part(item.left, qtyFirst[2] ?? ""));
    } else if (/\p{L}/u.test(left)) {
      addChunk(cells, "description", item.left);
    } else {
      previous = line;
      continue;
    }
    addChunk(cells, "amount", item.amount);
    if (cells.has("quantity") && !cells.has("unitPrice")) impliedUnitPrice(cells, item.amount, hints);
    rows.push({ page: line.page, cells, bottom: line.box.y1 });
    previous = line;
  }
  return rows.length === 0 ? null : rows;
}

/**
 * "Team plan" ... "£6,656.16" over "16 x £416.01": a quantity and unit price printed alone under an item line, whose
 * product is the item's amount, are the item's; the row gains them and true is returned.
 */
function quantityUnder(
  row: DraftRow | undefined,
  previous: VisualLine | null,
  line: VisualLine,
  hints: LocaleHints,
): boolean {
  const chunk = line.chunks.length === 1 ? line.chunks[0] : undefined;
  const above = row?.cells.get("amount")?.[0];
  if (row === undefined || chunk === undefined || above === undefined || row.cells.has("quantity")) return false;
  if (previous === null || !above.words.every((w) => previous.words.includes(w))) return false;
  const m = QTY_LEAD.exec(chunk.text.trim());
  const quantity = Number((m?.[1] ?? "").replace(",", "."));
  const priceText = chunk.text.trim().slice(m?.[0].length ?? 0);
  const price = moneyCell(priceText, hints);
  const amount = moneyCell(above.text, hints);
  if (m === null || price === null || amount === null || !(quantity > 0)) return false;
  if (rowCloses({ quantity: String(quantity), unitPrice: price, amount }) !== true) return false;
  addChunk(row.cells, "quantity", part(chunk, m[1] ?? ""));
  addChunk(row.cells, "unitPrice", part(chunk, priceText));
  return true;
}

/** The quantity and sign before a price: "16 x " of "16 x £416.01". */
const QTY_LEAD = new RegExp(String.raw`^${QTY}${TIMES}(?=\S)`);

/**
 * An invoice's items listed without a table header (a cloud bill's detail, a payment receipt's summary): the runs of
 * item lines between summary and total lines, read as receipt items are; a run counts only when its amounts add up
 * to one of `sums` (the printed subtotal, total, total less tax) or to an amount printed under a summary label (a
 * bill's "Charges" before its credits), or, for two lines or more, to an amount another line of the page ends in
 * (under a label the vocabulary lacks: two amounts adding up to a third printed elsewhere are no coincidence), and
 * holds no summary line; of those the longest, the later on a tie (a summary's "Charges" line comes before the detail
 * it sums). Null when no run adds up.
 */
export function readItemList(
  pages: readonly VisualLine[][],
  hints: LocaleHints,
  sums: readonly (string | null | undefined)[],
): DraftRow[] | null {
  const targets = sums.filter((v): v is string => typeof v === "string").map((v) => Math.round(Number(v) * 100));
  if (targets.length === 0) return null;
  const lines = pages.flat();
  const printed = lines.map((line) => centsOf(trailingAmount(line, hints)?.text ?? "", hints));
  // Amounts printed under a summary label ("Charges $4.99" before the credits): a one-item list may sum to one.
  const labelled = printedSums(pages, hints).map((v) => centsOf(v, hints));
  let best: DraftRow[] | null = null;
  let start = 0;
  for (let i = 0; i <= lines.length; i++) {
    const line = lines[i];
    if (line !== undefined && !startsWithStop(leadingWords(line, hints))) continue;
    const run = i > start ? readReceiptItems([lines.slice(start, i)], hints) : null;
    const outside = printed.filter((_, j) => j < start || j >= i);
    start = i + 1;
    if (run === null || run.some(summaryLine)) continue;
    const cents = run.reduce((sum, row) => sum + (centsOf(rowAmount(row), hints) ?? 0), 0);
    const adds = targets.includes(cents) || labelled.includes(cents) || (run.length >= 2 && outside.includes(cents));
    if (adds && (best === null || run.length >= best.length)) best = run;
  }
  return best;
}

/** An amount's value in cents, or null when `text` is none. */
function centsOf(text: string, hints: LocaleHints): number | null {
  const value = moneyCell(text, hints);
  return value === null ? null : Math.round(Number(value) * 100);
}

/** Roles of the lines that sum an invoice up: a run holding one ("Charges", "Credits", "Amount paid") is no item list. */
const SUMMARY_ROLES = new Set(["total", "subtotal", "tax", "amountDue", "paid", "discount"]);

function summaryLine(row: DraftRow): boolean {
  return summaryLabel((row.cells.get("description") ?? []).flatMap((c) => c.folded));
}

function summaryLabel(folded: readonly string[], roles: ReadonlySet<string> = SUMMARY_ROLES): boolean {
  return (LABELS.get(folded.join("")) ?? []).some((e) => roles.has(e.role));
}

/** Roles of the lines that take an amount off a table's sum: discounts, coupons, credits. */
export const DISCOUNT_ROLES: ReadonlySet<string> = new Set(["discount"]);

/** Roles of the summary lines a table's amounts may add up to. */
export const SUM_ROLES: ReadonlySet<string> = new Set(["subtotal", "total", "amountDue"]);

/**
 * The amounts the pages print under a label of one of `roles`, two-decimal normal form: with SUM_ROLES, what a
 * table's or a list's rows may add up to ("Charges", "Summe netto" before a discount, "Total").
 */
export function printedSums(
  pages: readonly VisualLine[][],
  hints: LocaleHints,
  roles: ReadonlySet<string> = SUM_ROLES,
  labelDetails = false,
): string[] {
  // With `labelDetails` the label may be followed by its details ("Discount (SAVE10)", "Rabatt (PROMO15, 15 %
  // Rabatt)"); a sum's is the whole label ("Total 0% supplies" totals some of the items only).
  return pages.flat().flatMap((line) => {
    const words = leadingWords(line, hints);
    const labelled = labelDetails
      ? words.some((_, k) => summaryLabel(words.slice(0, k + 1), roles))
      : summaryLabel(words, roles);
    if (!labelled) return [];
    const amount = moneyCell(trailingAmount(line, hints)?.text ?? "", hints);
    return amount === null ? [] : [amount];
  });
}

function rowAmount(row: DraftRow): string {
  return (row.cells.get("amount") ?? []).map((c) => c.text).join(" ");
}

/** "3 x Milk 4.50": the unit price is the amount over the quantity, when that comes out in whole cents. */
function impliedUnitPrice(cells: Map<ColumnRole, Chunk[]>, amount: Chunk, hints: LocaleHints): void {
  const qtyText = cells.get("quantity")?.[0]?.text ?? "";
  const qty = Number(qtyText.replace(",", "."));
  const total = Number(moneyCell(amount.text, hints));
  if (!(qty > 0) || !Number.isFinite(total)) return;
  const cents = (total * 100) / qty;
  if (Math.abs(cents - Math.round(cents)) > 1e-6) return;
  addChunk(cells, "unitPrice", { ...amount, text: (Math.round(cents) / 100).toFixed(2) });
}

/** The line's folded words before its first number, across chunks: OCR may split "SUB  TOTAL" into two chunks. */
export function leadingWords(line: VisualLine, hints: LocaleHints): string[] {
  const out: string[] = [];
  for (const chunk of line.chunks) {
    if (moneyCell(chunk.text, hints) !== null) break;
    out.push(...chunk.folded.filter((w) => w !== ""));
    if (out.length >= 4) break;
  }
  return out;
}
