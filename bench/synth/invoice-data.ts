/**
 * The facts of one invoice, decided before anything is drawn. Every non-null fact here is printed by the renderer,
 * so the labels can be derived from this object alone.
 */

import { addDays, type CalendarDate, randomDate } from "./format.js";
import { bic, type Country, iban, supplierTaxId } from "./ids.js";
import type { LocaleProfile } from "./locales.js";
import { ITEMS, type Party, party } from "./parties.js";
import type { Rng } from "./prng.js";

export interface LineItem {
  description: string;
  /** Optional second line under the description (smaller, often grey). */
  detail: string | null;
  qty: number;
  unitCents: number;
  amountCents: number;
  /** A second description line the renderer wraps onto (line-items.ts). */
  wrap?: string;
  /** A discount row: no quantity or unit price, a negative amount (line-items.ts). */
  discount?: boolean;
  /** The row's rate when the invoice has several (line-items.ts); else the invoice's rate. */
  taxRate?: number;
}

export interface PaymentDetails {
  iban: string | null;
  bic: string | null;
  bsb: string | null;
  accountNo: string | null;
}

export interface InvoiceData {
  locale: LocaleProfile;
  credit: boolean;
  number: string;
  issueDate: CalendarDate;
  dueDate: CalendarDate | null;
  purchaseOrder: string | null;
  customerNo: string | null;
  reference: string | null;
  supplier: Party;
  supplierTaxId: string | null;
  supplierPhone: string | null;
  supplierEmail: string | null;
  customer: Party;
  /** The customer's own VAT id: printed on B2B invoices, never the answer for supplier.taxId. */
  customerTaxId: string | null;
  items: LineItem[];
  taxRate: number;
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
  /** A prepayment line, printed when > 0 (amount due is then total minus it). */
  prepaidCents: number;
  /** Printed "amount due" line; null when the invoice shows only the total. */
  amountDueCents: number | null;
  payment: PaymentDetails;
}

const TAX_RATES: Record<Country, readonly number[]> = {
  DE: [19, 19, 7],
  CH: [8.1, 8.1, 2.6],
  FR: [20, 20, 10, 5.5],
  ES: [21, 21, 10],
  NL: [21, 21, 9],
  GB: [20],
  AU: [10],
  US: [6, 7.25, 8.875, 8.25, 4],
  MY: [6, 8],
};

function invoiceNumber(rng: Rng, year: number): string {
  const n = rng.int(1, 99999);
  return rng.weighted<() => string>([
    [() => `INV-${year}-${String(n).padStart(4, "0")}`, 3],
    [() => `RE-${rng.int(10000, 99999)}`, 2],
    [() => `F${year}/${String(rng.int(1, 999)).padStart(3, "0")}`, 2],
    [() => `${year}-${String(n).padStart(5, "0")}`, 2],
    [() => `${rng.letters(1)}-${rng.int(1000, 9999)}`, 1],
    [() => String(rng.int(100000, 9999999)), 3],
    [() => `${rng.letters(2)}${rng.digits(6)}`, 1],
  ])();
}

function poNumber(rng: Rng): string {
  return rng.weighted<() => string>([
    [() => `PO-${rng.int(1000, 99999)}`, 3],
    [() => `${rng.digits(8)}`, 2],
    [() => `${rng.letters(3)}/${rng.int(100, 999)}/${rng.int(10, 99)}`, 1],
    [() => `4500${rng.digits(6)}`, 2],
  ])();
}

function round(cents: number): number {
  return Math.round(cents);
}

function lineItems(rng: Rng, locale: LocaleProfile, credit: boolean, forcedCount: number | undefined): LineItem[] {
  // Most invoices are short; a tail of long ones makes multi-page documents.
  const drawn = rng.weighted<() => number>([
    [() => rng.int(1, 4), 45],
    [() => rng.int(5, 12), 35],
    [() => rng.int(13, 25), 20],
  ])();
  const count = forcedCount ?? drawn;
  const descriptions = ITEMS[locale.lang];
  const withDetails = rng.chance(0.25);
  const items: LineItem[] = [];
  for (let i = 0; i < count; i++) {
    const qty = rng.weighted<() => number>([
      [() => 1, 5],
      [() => rng.int(2, 20), 4],
      [() => rng.int(1, 16) / 2, 1],
    ])();
    const unitCents = rng.weighted<() => number>([
      [() => rng.int(1, 99) * 100, 2],
      [() => rng.int(100, 99999), 5],
      [() => rng.int(1000, 300000), 2],
    ])();
    const amount = round(qty * unitCents);
    items.push({
      description: rng.pick(descriptions),
      detail: withDetails && rng.chance(0.7) ? `${rng.letters(2)}-${rng.digits(5)}` : null,
      qty,
      unitCents: credit ? -unitCents : unitCents,
      amountCents: credit ? -amount : amount,
    });
  }
  return items;
}

function payment(rng: Rng, country: Country): PaymentDetails {
  if (country === "AU") {
    return {
      iban: null,
      bic: null,
      bsb: `${rng.digits(3)}-${rng.digits(3)}`,
      accountNo: String(rng.int(10000000, 999999999)),
    };
  }
  if (country === "US") {
    return { iban: null, bic: null, bsb: null, accountNo: String(rng.int(100000000, 9999999999)) };
  }
  const ibanValue = iban(rng, country);
  return { iban: ibanValue, bic: rng.chance(0.85) ? bic(rng, country, ibanValue) : null, bsb: null, accountNo: null };
}

function phone(rng: Rng, country: Country): string {
  switch (country) {
    case "DE":
      return `+49 ${rng.int(30, 899)} ${rng.digits(7)}`;
    case "FR":
      return `+33 ${rng.int(1, 9)} ${rng.digits(2)} ${rng.digits(2)} ${rng.digits(2)} ${rng.digits(2)}`;
    case "GB":
      return `020 ${rng.digits(4)} ${rng.digits(4)}`;
    case "AU":
      return `(0${rng.int(2, 8)}) ${rng.digits(4)} ${rng.digits(4)}`;
    case "US":
      return `(${rng.int(201, 989)}) ${rng.digits(3)}-${rng.digits(4)}`;
    default:
      return `+${rng.int(30, 60)} ${rng.digits(2)} ${rng.digits(3)} ${rng.digits(4)}`;
  }
}

export interface InvoicePlanOptions {
  credit?: boolean;
  /** Number of line items (more items, more pages); drawn from 1-25 by default. */
  itemCount?: number;
}

export function planInvoice(rng: Rng, locale: LocaleProfile, options: InvoicePlanOptions = {}): InvoiceData {
  const country = locale.country;
  const credit = options.credit ?? rng.chance(0.08);
  const issueDate = randomDate(rng, 2019, 2026);
  const items = lineItems(rng, locale, credit, options.itemCount);
  const taxRate = rng.pick(TAX_RATES[country]);
  const subtotalCents = items.reduce((s, it) => s + it.amountCents, 0);
  const taxCents = round((subtotalCents * taxRate) / 100);
  const totalCents = subtotalCents + taxCents;
  const prepaidCents = !credit && totalCents > 10000 && rng.chance(0.12) ? round(totalCents * rng.float(0.1, 0.5)) : 0;
  const showAmountDue = prepaidCents > 0 || rng.chance(0.45);
  const supplier = party(rng, country, rng.chance(0.05), rng.chance(0.3));
  const taxId = supplierTaxId(rng, country);
  const customerIsPerson = rng.chance(0.25);
  const customer = party(rng, country, customerIsPerson, rng.chance(0.3));
  const euB2B = !customerIsPerson && (country === "DE" || country === "FR" || country === "NL" || country === "ES");
  const pay = payment(rng, country);
  const hasPayment = !credit && rng.chance(0.85);
  return {
    locale,
    credit,
    number: invoiceNumber(rng, issueDate.y),
    issueDate,
    dueDate: !credit && rng.chance(0.7) ? addDays(issueDate, rng.pick([7, 10, 14, 14, 21, 30, 30, 45, 60])) : null,
    purchaseOrder: rng.chance(0.35) ? poNumber(rng) : null,
    customerNo: rng.chance(0.4) ? `${rng.int(10000, 99999)}` : null,
    reference: hasPayment && rng.chance(0.35) ? `${rng.letters(2)}${rng.digits(7)}` : null,
    supplier,
    supplierTaxId: taxId !== null && rng.chance(0.85) ? taxId : null,
    supplierPhone: rng.chance(0.6) ? phone(rng, country) : null,
    supplierEmail: rng.chance(0.5)
      ? `billing@${supplier.name
          .split(" ")[0]!
          .toLowerCase()
          .replace(/[^a-z]/g, "")}.example`
      : null,
    customer,
    customerTaxId: euB2B && rng.chance(0.4) ? supplierTaxId(rng, country) : null,
    items,
    taxRate,
    subtotalCents,
    taxCents,
    totalCents,
    prepaidCents,
    amountDueCents: showAmountDue ? totalCents - prepaidCents : null,
    payment: hasPayment ? pay : { iban: null, bic: null, bsb: null, accountNo: null },
  };
}
