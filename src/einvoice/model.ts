/** What an embedded e-invoice states, in the catalogue's normal forms. */

/** One invoice line as the line-items issue shapes it: cells normalised text or null. */
export interface EInvoiceLine {
  description: string | null;
  quantity: string | null;
  /** UN/ECE Recommendation 20 unit code as the XML states it ("C62", "HUR"). */
  unit: string | null;
  unitPrice: string | null;
  amount: string | null;
  /** Percent with two decimals ("19.00"). */
  taxRate: string | null;
  productCode: string | null;
  date: string | null;
}

export type EInvoiceSyntax = "cii-zugferd1" | "cii" | "ubl";

export interface EInvoice {
  syntax: EInvoiceSyntax;
  /** UNTDID 1001 document type code (380 invoice, 381 credit note, ...); "381" for a UBL CreditNote. */
  typeCode: string | null;
  credit: boolean;
  /** Catalogue field name -> value, for every field the XML states. */
  fields: ReadonlyMap<string, string>;
  lines: readonly EInvoiceLine[];
}

/** Document type codes of credit notes (UNTDID 1001): credit note, self-billed and factored credit notes. */
const CREDIT_CODES = new Set(["381", "261", "396"]);

export function isCreditCode(code: string | null): boolean {
  return code !== null && CREDIT_CODES.has(code);
}

/** The fields map without the values the XML left out. */
export function definedFields(entries: ReadonlyArray<readonly [string, string | null]>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of entries) if (value !== null && value.trim() !== "") out.set(name, value);
  return out;
}

/** An address in the form page extraction gives: its lines joined with ", ". */
export function joinAddress(parts: ReadonlyArray<string | null>): string | null {
  const lines = parts.map((p) => p?.replace(/\s+/g, " ").trim() ?? "").filter((p) => p !== "");
  return lines.length === 0 ? null : lines.join(", ");
}
