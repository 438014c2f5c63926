/** The facts of one shop receipt, decided before drawing; every non-null fact is printed. */
import { type CalendarDate, type ClockTime, randomDate } from "./format.js";
import { supplierTaxId } from "./ids.js";
import type { LocaleProfile } from "./locales.js";
import { address, RECEIPT_ITEMS, shopName } from "./parties.js";
import type { Rng } from "./prng.js";

export interface ReceiptItem {
  description: string;
  qty: number;
  unitCents: number;
  amountCents: number;
}

export interface ReceiptData {
  locale: LocaleProfile;
  merchantName: string;
  merchantAddress: string[];
  /** A business-registration line (ABN, GST ID, VAT no.): a distractor, receipts have no tax-id field. */
  registration: string | null;
  phone: string | null;
  date: CalendarDate;
  time: ClockTime | null;
  receiptNo: string | null;
  items: ReceiptItem[];
  /** Tax rate in percent; the tax is included in the prices (EU, AU, GB) or added on top (US, MY). */
  taxRate: number;
  taxIncluded: boolean;
  subtotalCents: number;
  /** Printed tax amount, or null when the receipt prints no tax line. */
  taxCents: number | null;
  totalCents: number;
  /** Cash tendered (change follows) or null for a card payment. */
  cashCents: number | null;
  /** Whether the currency appears as a symbol or code; when false, receipt.currency is not labelled. */
  currencyPrinted: boolean;
  /** A payment block of its own (bench:synth --rounding-share), or the usual total, cash and change lines. */
  payment?: PaymentLayout;
}

/**
 * Payment blocks of shops that round cash to the coin, and of pay stations:
 * - rounded-total: the total, "Rounding Adj" and the rounded total after it, which is the receipt's total (what was
 *   paid); change from the rounded total;
 * - rounding-under-payment: the total (its label may name the tax before its inclusion, "TOTAL (GST INCL)"), the cash,
 *   then the rounding line and the change from the rounded total: the receipt's total is the one printed;
 * - pay-station: the total, "Accepted total" (what the machine took in) and the change.
 */
export interface PaymentLayout {
  style: "rounded-total" | "rounding-under-payment" | "pay-station";
  /** The total rounded to 0.05, the amount paid in cash (the total itself at a pay station). */
  roundedCents: number;
}

/** The receipt with one of the payment blocks of PaymentLayout, paid in cash; its other facts unchanged. */
export function withPaymentLayout(data: ReceiptData, rng: Rng): ReceiptData {
  const style = rng.pick(["rounded-total", "rounding-under-payment", "pay-station"] as const);
  const roundedCents = style === "pay-station" ? data.totalCents : Math.round(data.totalCents / 5) * 5;
  const step = style === "pay-station" ? 100 : 500;
  const cashCents = Math.ceil(roundedCents / step) * step + (rng.chance(0.5) ? step : 0);
  return { ...data, cashCents, payment: { style, roundedCents } };
}

/** The receipt's total as labelled: what a rounded-total block prints last, else the total printed. */
export function labelledTotalCents(data: ReceiptData): number {
  return data.payment?.style === "rounded-total" ? data.payment.roundedCents : data.totalCents;
}

const RATES: Record<string, readonly number[]> = {
  "en-US": [6, 7.25, 8.875, 8.25],
  "en-GB": [20],
  "en-AU": [10],
  "en-MY": [6, 8],
  "de-DE": [19, 7],
  "fr-FR": [20, 10, 5.5],
  "es-ES": [21, 10],
  "nl-NL": [21, 9],
};

function registration(rng: Rng, locale: LocaleProfile): string | null {
  switch (locale.tag) {
    case "en-AU":
      return `ABN ${supplierTaxId(rng, "AU")!.replace(/^(\d{2})(\d{3})(\d{3})(\d{3})$/, "$1 $2 $3 $4")}`;
    case "en-MY":
      return rng.chance(0.5) ? `GST ID : ${rng.digits(12)}` : `(${rng.int(100000, 1299999)}-${rng.letters(1)})`;
    case "en-GB":
      return rng.chance(0.6) ? `VAT No: ${supplierTaxId(rng, "GB")}` : null;
    case "de-DE":
      return rng.chance(0.6)
        ? `USt-IdNr.: ${supplierTaxId(rng, "DE")}`
        : `St.-Nr. ${rng.digits(3)}/${rng.digits(3)}/${rng.digits(5)}`;
    case "fr-FR":
      return `SIRET ${rng.digits(3)} ${rng.digits(3)} ${rng.digits(3)} ${rng.digits(5)}`;
    case "es-ES":
      return `NIF: ${supplierTaxId(rng, "ES")!.slice(2)}`;
    case "nl-NL":
      return rng.chance(0.6) ? `BTW: ${supplierTaxId(rng, "NL")}` : `KvK ${rng.digits(8)}`;
    default:
      return null;
  }
}

export function planReceipt(rng: Rng, locale: LocaleProfile): ReceiptData {
  const count = rng.weighted<() => number>([
    [() => rng.int(1, 3), 4],
    [() => rng.int(4, 8), 4],
    [() => rng.int(9, 16), 2],
  ])();
  const items: ReceiptItem[] = [];
  for (let i = 0; i < count; i++) {
    const qty = rng.chance(0.7) ? 1 : rng.int(2, 6);
    const unitCents = rng.weighted<() => number>([
      [() => rng.int(50, 999), 6],
      [() => rng.int(1000, 4999), 3],
      [() => rng.int(5000, 25000), 1],
    ])();
    items.push({ description: rng.pick(RECEIPT_ITEMS[locale.lang]), qty, unitCents, amountCents: qty * unitCents });
  }
  const taxRate = rng.pick(RATES[locale.tag] ?? [0]);
  const taxIncluded = locale.country !== "US" && locale.country !== "MY";
  const itemsSum = items.reduce((s, it) => s + it.amountCents, 0);
  const taxCents = taxIncluded
    ? Math.round((itemsSum * taxRate) / (100 + taxRate))
    : Math.round((itemsSum * taxRate) / 100);
  const totalCents = taxIncluded ? itemsSum : itemsSum + taxCents;
  // Tax lines are near universal where tax is added on top; in Europe small tickets sometimes omit them.
  const printTax = !taxIncluded || rng.chance(0.8);
  const cash = rng.chance(0.5);
  const country = locale.country;
  const upper = locale.tag === "en-MY" || rng.chance(0.2);
  const name = shopName(rng, country);
  const lines = address(rng, country, false);
  const hasTime = rng.chance(0.85);
  return {
    locale,
    merchantName: upper ? name.toUpperCase() : name,
    merchantAddress: upper ? lines.map((l) => l.toUpperCase()) : lines,
    registration: registration(rng, locale),
    phone: rng.chance(0.6) ? `${rng.digits(3)} ${rng.digits(3)} ${rng.digits(4)}` : null,
    date: randomDate(rng, 2017, 2026),
    time: hasTime ? { h: rng.int(7, 22), min: rng.int(0, 59), s: rng.int(0, 59) } : null,
    receiptNo: rng.chance(0.7) ? `${rng.int(1000, 999999)}` : null,
    items,
    taxRate,
    taxIncluded,
    subtotalCents: itemsSum,
    taxCents: printTax ? taxCents : null,
    totalCents,
    cashCents: cash ? Math.ceil(totalCents / 500) * 500 + (rng.chance(0.4) ? 1000 : 0) : null,
    currencyPrinted: locale.tag === "en-MY" || locale.tag === "en-AU" || locale.tag === "en-US" || rng.chance(0.75),
  };
}
