/** What an embedded e-invoice states, in the catalogue's normal forms. */
import type { LineItemCells } from "../domain/line-items.js";

/** One invoice line as the line-items issue shapes it. */
export type EInvoiceLine = LineItemCells;

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
