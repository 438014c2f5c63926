/** The shapes extractLineItems returns: rows of normalised cells, each cell with the words it was read from. */
import type { Box } from "../../document/model.js";
import type { LineItemCellName, LineItemCells } from "../../domain/line-items.js";
import type { LocaleHints } from "../normalise/locale.js";

export interface CellBox {
  cell: LineItemCellName;
  /** 1-based. */
  page: number;
  /** Page ratios, origin top-left (document/model.ts). */
  box: Box;
  /** Word ids of the cell. */
  tokenIds: number[];
}

export interface LineItemRow extends LineItemCells {
  confidence: number;
  boundingBoxes: CellBox[];
}

/** The arithmetic of the table: per-row products and the sum against the printed subtotal or total. */
export interface LineItemChecks {
  /** Rows with quantity and unit price whose product equals the amount within rounding. */
  rowsClosing: number;
  /** Rows with quantity, unit price and amount whose product does not. */
  rowsOpen: number;
  /** Sum of the rows' amounts, two decimals. */
  sum: string;
  /** Null when the caller passed no subtotal or total to compare with. */
  sumCheck: SumCheck | null;
}

export interface SumCheck {
  /**
   * Which printed amount the sum was compared with: a mismatch names the subtotal or the total; a sum may close
   * against the total less tax, the subtotal with the discounts printed under it added back, or a sum printed under
   * a summary label ("Summe netto" before a discount).
   */
  against: "subtotal" | "total" | "total less tax" | "subtotal before discounts" | "printed sum";
  closes: boolean;
  /** For a `line_items_sum_mismatch` warning: the printed amount and the rows' sum. */
  expected: string;
  found: string;
}

export interface LineItemTable {
  rows: LineItemRow[];
  confidence: number;
  /** The table's box on its first page. */
  page: number;
  box: Box;
  /** "header" when read under a header line; "receipt" when read as item lines without one (receipts and invoices). */
  mode: "header" | "receipt";
  checks: LineItemChecks;
}

export interface LineItemHints {
  /** Parser hints (decimal separator, language); {} when unknown. */
  locale?: LocaleHints;
  /** Receipts may have no header: their item lines are then read between the merchant block and the total. */
  kind?: "invoice" | "receipt";
  /** Printed amounts, two-decimal normal form, to check the rows' sum against (subtotal first, then total). */
  subtotal?: string | null;
  total?: string | null;
  /** The printed tax: items listed without a header may add up to the total less it (a payment receipt's summary). */
  tax?: string | null;
}
