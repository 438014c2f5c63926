/**
 * Line items (issue #18): the rows of an invoice's or receipt's table as the catalogue's `invoice.lineItems` and
 * `receipt.lineItems` give them, shared by extraction, the e-invoice reader, validation and every reader of results.
 */
import type { Point } from "./result.js";

/** A line item's cells as the catalogue gives them (issue #18): normalised text, or null where the row states none. */
export interface LineItemCells {
  description: string | null;
  /** Plain decimal without trailing zeros: "3", "2.5". */
  quantity: string | null;
  /** As stated: a unit word on the page, a UN/ECE Recommendation 20 code in an e-invoice ("C62", "HUR"). */
  unit: string | null;
  /** Two decimals, "-" for negatives: "191.00". */
  unitPrice: string | null;
  amount: string | null;
  /** Percentage, two decimals: "19.00". */
  taxRate: string | null;
  productCode: string | null;
  /** ISO date when the cell reads as one, else the cell's text. */
  date: string | null;
}

/** The cells of a row, in the order the field's value lists them. */
export const LINE_ITEM_CELLS = [
  "description",
  "quantity",
  "unit",
  "unitPrice",
  "amount",
  "taxRate",
  "productCode",
  "date",
] as const satisfies readonly (keyof LineItemCells)[];

export type LineItemCellName = (typeof LINE_ITEM_CELLS)[number];

/** Where one cell of a row is printed, in the shape of a field's boundingBox plus the cell's name. */
export interface LineItemCellBox {
  cell: LineItemCellName;
  pageNum: number;
  topLeft: Point;
  bottomRight: Point;
  tokenIds: number[];
}

/** One row of a line-items field's value. */
export interface LineItem extends LineItemCells {
  confidence: number;
  /** One box per cell the page shows; empty when no cell was located (a reviewer's row, an e-invoice line not printed). */
  boundingBoxes: LineItemCellBox[];
}

/** The catalogue's line-items fields, by the field set that selects them. */
export const LINE_ITEM_FIELDS = { invoice: "invoice.lineItems", receipt: "receipt.lineItems" } as const;

export function isLineItemsFieldName(name: string): boolean {
  return name === LINE_ITEM_FIELDS.invoice || name === LINE_ITEM_FIELDS.receipt;
}
