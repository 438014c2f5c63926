/**
 * One synthetic document from one seed: the public library entry point (the accuracy and split benches both use it).
 */
import { PDFDocument } from "pdf-lib";
import { isoDate, labelAmount, labelTime } from "./format.js";
import { withIdVariants } from "./id-variants.js";
import { supplierTaxId } from "./ids.js";
import { type InvoiceData, planInvoice } from "./invoice-data.js";
import {
  enrichInvoice,
  invoiceLineItemLabels,
  type LineItemLabel,
  receiptLineItemLabels,
  type TableStyle,
} from "./line-items.js";
import { INVOICE_LOCALES, localeProfile, RECEIPT_LOCALES } from "./locales.js";
import { Rng } from "./prng.js";
import { labelledTotalCents, planReceipt, type ReceiptData, withPaymentLayout } from "./receipt-data.js";
import { renderInvoice } from "./render-invoice.js";
import { renderReceipt } from "./render-receipt.js";
import { renderSaas, saasLabels } from "./render-saas.js";

export type DocumentKind = "invoice" | "receipt";

export interface GenerateOptions {
  /** BCP 47 tag of a supported locale; by default drawn from the seed. */
  locale?: string;
  /** Force (or forbid) a credit note; invoices only. */
  credit?: boolean;
  /** Invoices: force "Page i of n" markers on or off (by default on multi-page and on some single pages). */
  pageMarkers?: boolean;
  /** Invoices: number of line items, to get long multi-page documents (about 25 items per page). */
  itemCount?: number;
  /** Invoices: draw the subscription/SaaS layout of render-saas.ts (bill-to first, seller in the footer...). */
  saas?: boolean;
  /**
   * Invoices: numbers with dots and dashes, a supplier number beside the invoice number, the due date inside a terms
   * sentence (id-variants.ts), drawn from a stream of their own: without it a document is what it always was.
   */
  idVariants?: boolean;
  /**
   * Invoices: a credit note that prints every figure without a sign. Its totals are labelled negative (the catalogue's
   * credits) and its rows as printed (the README's line items).
   */
  unsignedCredit?: boolean;
  /** Invoices: the customer's block on the right without a label (render-invoice.ts `rightWindow`). */
  rightWindow?: boolean;
  /** Invoices: several tax rates, the totals printed as a breakdown by rate (render-invoice.ts `breakdown`). */
  breakdown?: boolean;
  /** Invoices: a logo picture spelling the supplier's brand above its name (logo.ts). */
  logo?: boolean;
  /**
   * Invoices: the customer's VAT id under a "Your details" heading in its column, half the suppliers printing none of
   * their own (render-invoice.ts `idsColumn`), drawn from a stream of their own.
   */
  idsColumn?: boolean;
  /** Invoices: a department of the customer over its name (render-invoice.ts `department`), a stream of its own. */
  department?: boolean;
  /**
   * English receipts: a payment block rounding cash to the coin or a pay station's (receipt-data.ts
   * `withPaymentLayout`), drawn from a stream of its own.
   */
  payment?: boolean;
}

/** A field's label: a normal form, or the rows of a line-item table (`invoice.lineItems`, `receipt.lineItems`). */
export type LabelValue = string | LineItemLabel[];

export interface SyntheticDocument {
  pdf: Uint8Array;
  /** Catalogue field name -> normal form, for every field the document prints. */
  labels: Record<string, LabelValue>;
  product: "invoices" | "receipts";
  locale: string;
  pages: number;
}

/** The labels that are one normal form each (every field but the line-item tables). */
export function headerLabels(doc: Pick<SyntheticDocument, "labels">): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, value] of Object.entries(doc.labels)) if (typeof value === "string") out[field] = value;
  return out;
}

/** A fixed date for PDF metadata: generation must not depend on the clock. */
const EPOCH = new Date(Date.UTC(2024, 0, 1));

export async function generateDocument(
  seed: number,
  kind: DocumentKind,
  options: GenerateOptions = {},
): Promise<SyntheticDocument> {
  const rng = new Rng(seed);
  const dataRng = rng.fork();
  const layoutRng = rng.fork();
  const tag = options.locale ?? rng.weighted(kind === "invoice" ? INVOICE_LOCALES : RECEIPT_LOCALES);
  // Forked after every older draw: line-item variation shifts none of the facts or layout choices drawn before it.
  const itemRng = rng.fork();
  const locale = localeProfile(tag);
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setCreationDate(EPOCH);
  doc.setModificationDate(EPOCH);
  if (kind === "invoice") {
    const planned = planInvoice(dataRng, locale, {
      ...(options.unsignedCredit ? { credit: true } : options.credit === undefined ? {} : { credit: options.credit }),
      ...(options.itemCount === undefined ? {} : { itemCount: options.itemCount }),
    });
    const enriched = enrichInvoice(planned, itemRng, options.breakdown ?? false);
    const table = enriched.table;
    const varied = options.idVariants ? withIdVariants(enriched.data, new Rng(seed ^ 0x1d5eed)) : null;
    const data = withIdsColumn(varied?.data ?? enriched.data, options.idsColumn ? new Rng(seed ^ 0x1d5c01) : null);
    if (options.saas) {
      const saas = await renderSaas(doc, data, rng.fork());
      const labels = saasLabels(invoiceLabels(data, table), data, saas, labelAmount) as Record<string, LabelValue>;
      return { pdf: await doc.save(), labels, product: "invoices", locale: tag, pages: saas.pages };
    }
    const pages = await renderInvoice(doc, data, layoutRng, {
      table,
      tableRng: itemRng,
      ...(varied ? { variants: varied.variants } : {}),
      ...(options.unsignedCredit ? { unsigned: true } : {}),
      ...(options.rightWindow ? { rightWindow: true } : {}),
      ...(options.breakdown ? { breakdown: true } : {}),
      ...(options.logo ? { logo: new Rng(seed ^ 0x1060) } : {}),
      ...(options.idsColumn ? { idsColumn: true } : {}),
      ...(options.department ? { department: new Rng(seed ^ 0xde9a47) } : {}),
      ...(options.pageMarkers === undefined ? {} : { pageMarkers: options.pageMarkers }),
    });
    const labels = invoiceLabels(data, table);
    const rows = labels["invoice.lineItems"];
    if (options.unsignedCredit && rows !== undefined) labels["invoice.lineItems"] = unsignedRows(rows);
    return { pdf: await doc.save(), labels, product: "invoices", locale: tag, pages };
  }
  const planned = planReceipt(dataRng, locale);
  // The payment blocks print English labels: English receipts only.
  const data = options.payment && locale.lang === "en" ? withPaymentLayout(planned, new Rng(seed ^ 0x20d10)) : planned;
  const pages = await renderReceipt(doc, data, layoutRng);
  return { pdf: await doc.save(), labels: receiptLabels(data), product: "receipts", locale: tag, pages };
}

/**
 * The facts of an invoice printing the customer's VAT id under a heading of its own: the customer is given one where
 * its country has them, and half the suppliers print none of their own (the customer's is then no answer at all).
 */
function withIdsColumn(data: InvoiceData, rng: Rng | null): InvoiceData {
  if (!rng) return data;
  const customerTaxId = data.customerTaxId ?? supplierTaxId(rng, data.locale.country);
  return { ...data, customerTaxId, supplierTaxId: rng.chance(0.5) ? null : data.supplierTaxId };
}

/** Line-item labels as an unsigned credit note prints them: amounts and unit prices without their sign. */
function unsignedRows(rows: LabelValue): LabelValue {
  if (!Array.isArray(rows)) return rows;
  const plain = (v: string): string => v.replace(/^-/, "");
  return rows.map((r) => ({
    ...r,
    amount: plain(r.amount),
    unitPrice: r.unitPrice === null ? null : plain(r.unitPrice),
  }));
}

export function invoiceLabels(data: InvoiceData, table: TableStyle | null = null): Record<string, LabelValue> {
  const labels: Record<string, LabelValue> = {
    "invoice.number": data.number,
    "invoice.date": isoDate(data.issueDate),
    "invoice.currency": data.locale.currency,
    "invoice.subtotal": labelAmount(data.subtotalCents),
    "invoice.tax": labelAmount(data.taxCents),
    "invoice.total": labelAmount(data.totalCents),
    "supplier.name": data.supplier.name,
    "supplier.address": data.supplier.addressLines.join(", "),
    "customer.name": data.customer.name,
    "customer.address": data.customer.addressLines.join(", "),
  };
  if (data.dueDate) labels["invoice.dueDate"] = isoDate(data.dueDate);
  if (data.purchaseOrder) labels["invoice.purchaseOrderNo"] = data.purchaseOrder;
  if (data.amountDueCents !== null) labels["invoice.amountDue"] = labelAmount(data.amountDueCents);
  if (data.supplierTaxId) labels["supplier.taxId"] = data.supplierTaxId;
  if (data.payment.iban) labels["payment.iban"] = data.payment.iban;
  if (data.payment.bic) labels["payment.bic"] = data.payment.bic;
  if (data.payment.bsb) labels["payment.bsb"] = data.payment.bsb;
  if (data.payment.accountNo) labels["payment.accountNo"] = data.payment.accountNo;
  if (data.reference) labels["payment.reference"] = data.reference;
  labels["invoice.lineItems"] = invoiceLineItemLabels(data, table?.taxColumn ?? false);
  return labels;
}

export function receiptLabels(data: ReceiptData): Record<string, LabelValue> {
  const labels: Record<string, LabelValue> = {
    "receipt.merchantName": data.merchantName,
    "receipt.merchantAddress": data.merchantAddress.join(", "),
    "receipt.date": isoDate(data.date),
    "receipt.total": labelAmount(labelledTotalCents(data)),
  };
  if (data.time) labels["receipt.time"] = labelTime(data.time);
  if (data.taxCents !== null) labels["receipt.tax"] = labelAmount(data.taxCents);
  if (data.currencyPrinted) labels["receipt.currency"] = data.locale.currency;
  labels["receipt.lineItems"] = receiptLineItemLabels(data);
  return labels;
}
