/** The values extract() answers for product `invoices` on a Document, by field name (null when withheld). */
import { resolveFields } from "../../src/catalog/lookup.js";
import type { Document } from "../../src/document/model.js";
import { extract } from "../../src/extract/index.js";

export function invoiceFields(document: Document): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const f of extract(document, resolveFields({ products: ["invoices"] }))) {
    out.set(f.name, typeof f.value === "string" ? f.value : null);
  }
  return out;
}
