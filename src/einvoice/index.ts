/**
 * E-invoices: the CII or UBL invoice XML a Factur-X / ZUGFeRD / XRechnung PDF embeds, read into the catalogue's
 * fields exactly (pure, like extract/). Ingest finds the attachments (src/ingest/pdf-attachments.ts); applyEInvoice
 * merges what they state over the page reading and says where the two disagree.
 */
export { applyEInvoice, type EInvoiceOutcome } from "./merge.js";
export type { EInvoice, EInvoiceLine } from "./model.js";
export { type AttachedFile, type EInvoiceReading, readEInvoice, readInvoiceXml } from "./read.js";
