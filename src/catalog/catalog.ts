/**
 * Products -> field sets -> fields. These ids are the public contract (served at GET /catalog):
 * add to them freely, never rename or remove one.
 */

export type FieldType =
  | "date"
  | "time"
  | "amount"
  | "currency"
  | "text"
  | "name"
  | "address"
  | "id"
  | "taxId"
  | "iban"
  | "bic"
  | "enum"
  | "language"
  /** An array of rows (src/domain/line-items.ts), not a string: see LineItemsField in src/domain/result.ts. */
  | "lineItems";

export interface FieldDef {
  name: string;
  type: FieldType;
  description: string;
  /** Allowed values for enum fields. */
  values?: readonly string[];
}

export interface FieldSetDef {
  id: string;
  description: string;
  fields: readonly FieldDef[];
}

export interface ProductDef {
  id: string;
  description: string;
  fieldSets: readonly string[];
}

export const DOCUMENT_TYPES = ["invoice", "credit_note", "receipt", "statement", "other"] as const;

const LINE_ITEM_ROW =
  "Each row: description, quantity, unit, unitPrice, amount, taxRate, productCode, date (normalised text or null), " +
  "confidence and boundingBoxes (one per cell). Discounts and surcharges are rows with an amount and no quantity.";

const INVOICE_LINE_ITEMS: FieldDef = {
  name: "invoice.lineItems",
  type: "lineItems",
  description: `The invoice's line-item table, row by row across pages; null when the document has none. ${LINE_ITEM_ROW}`,
};

const RECEIPT_LINE_ITEMS: FieldDef = {
  name: "receipt.lineItems",
  type: "lineItems",
  description: `The items bought, one row per item line; null when none are printed. ${LINE_ITEM_ROW}`,
};

export const FIELD_SETS: readonly FieldSetDef[] = [
  {
    id: "invoice",
    description: "Header facts and totals of an invoice or credit note.",
    fields: [
      { name: "invoice.number", type: "id", description: "Invoice (or credit note) number as printed." },
      { name: "invoice.date", type: "date", description: "Issue date of the invoice." },
      { name: "invoice.dueDate", type: "date", description: "Date by which payment is due." },
      { name: "invoice.purchaseOrderNo", type: "id", description: "The buyer's purchase order number referenced." },
      { name: "invoice.currency", type: "currency", description: "ISO 4217 currency of the amounts." },
      { name: "invoice.subtotal", type: "amount", description: "Net total before tax." },
      { name: "invoice.tax", type: "amount", description: "Total tax (VAT, GST, sales tax) amount." },
      { name: "invoice.total", type: "amount", description: "Gross total including tax; negative for credits." },
      {
        name: "invoice.amountDue",
        type: "amount",
        description: "Amount still to be paid after prepayments and credits.",
      },
      INVOICE_LINE_ITEMS,
    ],
  },
  {
    id: "parties",
    description: "Who issued the invoice and who it is addressed to.",
    fields: [
      { name: "supplier.name", type: "name", description: "Name of the issuing company or person." },
      { name: "supplier.address", type: "address", description: "Postal address of the supplier." },
      { name: "supplier.taxId", type: "taxId", description: "Supplier VAT/GST/tax id, compact upper case." },
      { name: "customer.name", type: "name", description: "Name of the billed company or person." },
      { name: "customer.address", type: "address", description: "Postal (billing) address of the customer." },
    ],
  },
  {
    id: "payment",
    description: "How to pay the invoice.",
    fields: [
      { name: "payment.iban", type: "iban", description: "IBAN to pay to, compact upper case." },
      { name: "payment.bic", type: "bic", description: "BIC/SWIFT code of the supplier's bank." },
      { name: "payment.bsb", type: "id", description: "Australian bank-state-branch number (NNN-NNN)." },
      { name: "payment.accountNo", type: "id", description: "Bank account number (outside IBAN countries)." },
      { name: "payment.reference", type: "id", description: "Reference to quote with the payment." },
    ],
  },
  {
    id: "receipt",
    description: "Facts of a shop or restaurant receipt.",
    fields: [
      { name: "receipt.merchantName", type: "name", description: "Name of the shop or business." },
      { name: "receipt.merchantAddress", type: "address", description: "Address of the shop as printed." },
      { name: "receipt.date", type: "date", description: "Date of the purchase." },
      { name: "receipt.time", type: "time", description: "Time of the purchase, HH:MM (24 h)." },
      { name: "receipt.total", type: "amount", description: "Total paid, including tax." },
      { name: "receipt.tax", type: "amount", description: "Tax (GST/VAT) amount included." },
      { name: "receipt.currency", type: "currency", description: "ISO 4217 currency of the amounts." },
      RECEIPT_LINE_ITEMS,
    ],
  },
  {
    id: "lineItems",
    description:
      "Line items alone, for any document: the table goes to receipt.lineItems when the document reads as a " +
      "receipt and to invoice.lineItems otherwise; the other field is null.",
    fields: [INVOICE_LINE_ITEMS, RECEIPT_LINE_ITEMS],
  },
  {
    id: "document",
    description: "What kind of document this is, for routing.",
    fields: [
      {
        name: "document.type",
        type: "enum",
        description: "One of invoice, credit_note, receipt, statement, other.",
        values: DOCUMENT_TYPES,
      },
      { name: "document.date", type: "date", description: "The document's main date." },
      { name: "document.language", type: "language", description: "ISO 639-1 code of the main language." },
      { name: "document.referenceNo", type: "id", description: "The document's own number or reference." },
    ],
  },
];

export const PRODUCTS: readonly ProductDef[] = [
  { id: "invoices", description: "Invoices and credit notes.", fieldSets: ["invoice", "parties", "payment"] },
  { id: "receipts", description: "Shop and restaurant receipts.", fieldSets: ["receipt"] },
  { id: "documents", description: "Any document: type, date, language, reference.", fieldSets: ["document"] },
];
