/** An invoice page with a line-item table (header, three rows, subtotal, VAT, total) for the line-items tests. */
import type { TextLine } from "./pdf-fixtures.js";

/** The rows the page prints, as the catalogue gives them. */
export const TABLE_ROWS = [
  { description: "Office chairs", quantity: "4", unitPrice: "210.00", amount: "840.00" },
  { description: "Standing desk", quantity: "1", unitPrice: "197.44", amount: "197.44" },
  { description: "Monitor arms", quantity: "2", unitPrice: "45.50", amount: "91.00" },
] as const;

/** The rows add up to 1,128.44; print another `subtotal` to make the sum disagree. */
export function tableInvoicePage(subtotal = "1,128.44"): TextLine[] {
  const at = (text: string, x: number, y: number, size = 11): TextLine => ({ text, x, y, size });
  return [
    at("Acme Supplies Ltd", 50, 790, 16),
    at("INVOICE", 420, 790, 18),
    at("Invoice number: INV-7001", 350, 750),
    at("Invoice date: 12/03/2024", 350, 734),
    at("Bill to: Contoso Ltd, 5 Market Road, Leeds LS1 4AB", 50, 700),
    at("Description", 50, 640),
    at("Qty", 300, 640),
    at("Unit price", 360, 640),
    at("Amount", 480, 640),
    ...TABLE_ROWS.flatMap((row, i) => [
      at(row.description, 50, 620 - 18 * i),
      at(row.quantity, 300, 620 - 18 * i),
      at(row.unitPrice, 360, 620 - 18 * i),
      at(row.amount, 480, 620 - 18 * i),
    ]),
    at("Subtotal", 360, 550),
    at(subtotal, 480, 550),
    at("VAT 20%", 360, 534),
    at("225.69", 480, 534),
    at("Total GBP", 360, 516, 12),
    at("1,354.13", 480, 516, 12),
  ];
}
