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
