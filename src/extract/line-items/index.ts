/**
 * Line items: the table of an invoice or receipt, row by row, across pages, checked by its arithmetic.
 * Pure and synchronous over the Document's words. Header mode first (columns from the header line); receipts without
 * a header fall back to item lines (receipt.ts), invoices to a run of item lines that adds up to a printed sum
 * (readItemList). The caller passes the printed subtotal, total and tax to check the sum.
 */
import type { Document, Word } from "../../document/model.js";
import type { LineItemCellName } from "../../domain/line-items.js";
import type { LocaleHints } from "../normalise/locale.js";
import { dateCell, moneyCell, priceCell, quantityCell, taxRateCell } from "./cells.js";
import { checkTable, rowCloses } from "./checks.js";
import { cellText, type DraftRow, descriptionText } from "./draft.js";
import type { ColumnRole } from "./headers.js";
import { boxOf, visualLines } from "./lines.js";
import { DISCOUNT_ROLES, printedSums, readItemList, readReceiptItems } from "./receipt.js";
import { repairDescription, repairRow, repairSum } from "./repair.js";
import { readHeaderTable } from "./table.js";
import type { LineItemHints, LineItemRow, LineItemTable } from "./types.js";

export { checkTable, rowCloses } from "./checks.js";
export type {
  CellBox,
  LineItemChecks,
  LineItemHints,
  LineItemRow,
  LineItemTable,
  SumCheck,
} from "./types.js";

const CELL_ROLES: readonly [LineItemCellName, ColumnRole][] = [
  ["description", "description"],
  ["quantity", "quantity"],
  ["unit", "unit"],
  ["unitPrice", "unitPrice"],
  ["amount", "amount"],
  ["taxRate", "taxRate"],
  ["productCode", "productCode"],
  ["date", "date"],
];

function clean(text: string): string | null {
  const t = text.replace(/\s+/g, " ").trim();
  return t === "" ? null : t;
}

function toRow(draft: DraftRow, hints: LocaleHints, original: ReadonlyMap<number, Word>): LineItemRow {
  const c = draft.cells;
  // Two chunks under the quantity header ("3 PCE" | "3,00", a base quantity beside it): the last one that reads.
  const quantity =
    quantityCell(cellText(c, "quantity"), hints) ??
    (c.get("quantity") ?? []).map((chunk) => quantityCell(chunk.text, hints)).findLast((q) => q !== null) ??
    null;
  // Unit prices may print three or four decimals; amounts print cents.
  const moneyOf = (role: ColumnRole): string | null => {
    const read = role === "unitPrice" ? priceCell : moneyCell;
    const whole = read(cellText(c, role), hints);
    if (whole !== null) return whole;
    // A number OCR broke with a space ("42,0 0") is glued within its chunk; two chunks are two cells (a column the
    // header did not name beside it): the last one that reads.
    const chunks = c.get(role) ?? [];
    for (let i = chunks.length - 1; i >= 0; i--) {
      const text = chunks[i]?.text ?? "";
      const one = read(text, hints) ?? read(text.replace(/\s+/g, ""), hints);
      if (one !== null) return one;
    }
    return null;
  };
  const unitText = clean(cellText(c, "unit"));
  const dateText = clean(cellText(c, "date"));
  const row: LineItemRow = {
    // A colon ending the name introduces the details under it ("Heiße Luft pro Liter:"): not part of the name.
    description: clean(descriptionText(c.get("description") ?? []).replace(/\s*:+\s*$/, "")),
    quantity: quantity?.quantity ?? null,
    unit: unitText ?? quantity?.unit ?? null,
    unitPrice: moneyOf("unitPrice"),
    amount: moneyOf("amount"),
    taxRate: taxRateCell(cellText(c, "taxRate").replace(/\s+/g, "")),
    productCode: clean(cellText(c, "productCode")),
    date: dateText === null ? null : dateCell(dateText, hints),
    confidence: 0,
    boundingBoxes: [],
  };
  for (const [cell, role] of CELL_ROLES) {
    const chunks = c.get(role) ?? [];
    if (chunks.length === 0 || row[cell] === null) continue;
    // Boxes as ingest gave them, not as deskewed for reading.
    const words = chunks.flatMap((ch) => ch.words).map((w) => original.get(w.id) ?? w);
    row.boundingBoxes.push({
      cell,
      page: draft.page,
      box: boxOf(words),
      tokenIds: [...new Set(words.map((w) => w.id))],
    });
  }
  if (row.unitPrice === null) row.unitPrice = priceFromDetails(draft, row, hints);
  const closes = rowCloses(row);
  row.confidence = closes === true ? 0.95 : closes === false ? 0.5 : row.description !== null ? 0.75 : 0.55;
  return row;
}

/**
 * A row's unit price from the labelled figures printed about it ("(Brut: 12,00)", "(Net): 10,00") where its unit price
 * column holds none: the one that quantity x price = amount closes on, else null.
 */
function priceFromDetails(draft: DraftRow, row: LineItemRow, hints: LocaleHints): string | null {
  if (row.quantity === null || row.amount === null) return null;
  for (const chunk of draft.details ?? []) {
    const figure = chunk.text.slice(chunk.text.lastIndexOf(":") + 1).replace(/[()]/g, "");
    const price = priceCell(figure, hints);
    if (price !== null && rowCloses({ quantity: row.quantity, unitPrice: price, amount: row.amount }) === true) {
      return price;
    }
  }
  return null;
}

/** The document's line-item table, or null when none is found. */
export function extractLineItems(document: Document, hints: LineItemHints = {}): LineItemTable | null {
  const locale = hints.locale ?? {};
  const pages = document.pages.map((page) => visualLines(page));
  let mode: LineItemTable["mode"] = "header";
  let drafts = readHeaderTable(pages, locale)?.rows ?? null;
  const net = hints.total && hints.tax ? (Number(hints.total) - Number(hints.tax)).toFixed(2) : null;
  if (drafts === null && hints.kind === "receipt") {
    drafts = readReceiptItems(pages, locale);
    mode = "receipt";
  } else if (drafts === null) {
    drafts = readItemList(pages, locale, [hints.subtotal, hints.total, net]);
    mode = "receipt";
  }
  if (drafts === null || drafts.length === 0) return null;
  const original = new Map(document.pages.flatMap((p) => p.words).map((w) => [w.id, w] as const));
  const scanned = new Set(document.pages.filter((p) => p.source !== "text").map((p) => p.pageNum));
  const rows: LineItemRow[] = [];
  for (const draft of drafts) {
    const row = toRow(draft, locale, original);
    // On a scan a cell the arithmetic pins down is read from it; printed text is never changed.
    if (scanned.has(draft.page) && repairRow(row).length > 0) row.confidence = Math.min(row.confidence, 0.7);
    if (scanned.has(draft.page)) row.description = repairDescription(row.description);
    if (row.amount !== null) rows.push(row);
  }
  if (rows.length === 0) return null;
  if (drafts.some((d) => scanned.has(d.page))) {
    const repaired = repairSum(rows, [hints.subtotal, hints.total]);
    if (repaired !== null) repaired.confidence = Math.min(repaired.confidence, 0.6);
  }
  // Rows add up to the subtotal before the discounts and credits printed under it ("Gutschriften -12,84").
  const discounts = printedSums(pages, locale, DISCOUNT_ROLES, true).reduce((sum, d) => sum + Math.abs(Number(d)), 0);
  const beforeDiscounts = hints.subtotal && discounts > 0 ? (Number(hints.subtotal) + discounts).toFixed(2) : null;
  const others = [
    // Where no subtotal is printed (a receipt card: items, tax, total); a printed one the rows miss is a mismatch.
    ...(net === null || hints.subtotal ? [] : [["total less tax", net] as const]),
    ...(beforeDiscounts === null ? [] : [["subtotal before discounts", beforeDiscounts] as const]),
    ...printedSums(pages, locale).map((sum) => ["printed sum", sum] as const),
  ];
  const checks = checkTable(rows, hints.subtotal, hints.total, others);
  const firstPage = drafts[0]?.page ?? 1;
  const boxes = rows.flatMap((r) => r.boundingBoxes.filter((b) => b.page === firstPage).map((b) => b.box));
  const mean = rows.reduce((s, r) => s + r.confidence, 0) / rows.length;
  let confidence = mode === "header" ? 0.15 + 0.7 * mean : 0.1 + 0.65 * mean;
  if (checks.sumCheck?.closes === true) confidence = Math.min(0.99, confidence + 0.15);
  if (checks.sumCheck?.closes === false) confidence *= 0.6;
  return {
    rows,
    confidence: Math.round(confidence * 1000) / 1000,
    page: firstPage,
    box: boxOf(boxes.map((box) => ({ box }))),
    mode,
    checks,
  };
}
