/**
 * Line items in the synthetic corpus: how an invoice's table is varied (tax-rate column, several rates, discount
 * rows, wrapped descriptions, carried-forward lines between pages, header repeated or not) and the rows it labels.
 * Drawn from a stream of its own (document.ts forks it after every older draw), so adding it shifted no existing
 * document's facts or layout choices.
 */
import { labelAmount } from "./format.js";
import type { InvoiceData, LineItem } from "./invoice-data.js";
import type { Lang } from "./locales.js";
import type { Rng } from "./prng.js";
import type { ReceiptData } from "./receipt-data.js";

/**
 * A row as labelled, in the shape of ../shared/data/einvoices-dev/labels.jsonl. Cells the row does not print are null:
 * the tax rate without a rate column, quantity and unit price on a receipt line that shows only the amount.
 */
export interface LineItemLabel {
  description: string;
  quantity: string | null;
  unitPrice: string | null;
  amount: string;
  taxRate: string | null;
  productCode: string | null;
}

export interface TableStyle {
  /** A per-row tax-rate column ("19%") between unit price and amount. */
  taxColumn: boolean;
  /** At a page break: a carried-forward line with the running sum, and a brought-forward line on the next page. */
  carried: boolean;
  /** Whether the header is printed again on each continuation page. */
  repeatHeader: boolean;
}

export const DISCOUNT_WORDS: Record<Lang, readonly string[]> = {
  en: ["Discount", "Loyalty discount", "Volume discount", "Less discount"],
  de: ["Rabatt", "Nachlass", "Treuerabatt", "Mengenrabatt"],
  fr: ["Remise", "Remise fidélité", "Rabais"],
  es: ["Descuento", "Descuento comercial", "Rappel"],
  nl: ["Korting", "Kwantumkorting", "Klantkorting"],
};

export const CARRIED_WORDS: Record<Lang, readonly string[]> = {
  en: ["Carried forward", "Balance carried forward"],
  de: ["Übertrag", "Zwischensumme Übertrag"],
  fr: ["À reporter", "Report à suivre"],
  es: ["Suma y sigue"],
  nl: ["Transport"],
};

export const BROUGHT_WORDS: Record<Lang, readonly string[]> = {
  en: ["Brought forward", "Balance brought forward"],
  de: ["Übertrag"],
  fr: ["Report"],
  es: ["Suma anterior"],
  nl: ["Transport"],
};

/** Second lines that make a description wrap over two lines. */
const WRAP_TAILS: Record<Lang, readonly string[]> = {
  en: [
    "including delivery and installation on site",
    "as agreed in our quotation of last month",
    "per attached schedule",
  ],
  de: ["inklusive Lieferung und Montage vor Ort", "gemäß unserem Angebot vom Vormonat", "laut beigefügter Aufstellung"],
  fr: ["livraison et installation sur site comprises", "selon notre devis du mois dernier", "voir détail en annexe"],
  es: ["incluye entrega e instalación en destino", "según nuestro presupuesto del mes pasado", "ver detalle adjunto"],
  nl: [
    "inclusief levering en installatie ter plaatse",
    "volgens onze offerte van vorige maand",
    "zie bijgevoegd overzicht",
  ],
};

/** Reduced rates a second group of items may carry, by the invoice's main rate. */
const REDUCED: Record<string, number> = { "19": 7, "20": 5.5, "21": 10, "8.1": 2.6, "10": 5.5 };

function round(cents: number): number {
  return Math.round(cents);
}

/**
 * Varies an invoice's items. Discounts keep the subtotal: the discounted item's unit price rises by what the discount
 * row takes off, so the header fields stay as they were. Several tax rates do change the tax and total (about one
 * invoice in eight among those with a reduced rate).
 */
/** `severalRates`: the items carry the reduced tax rate beside the standard one whenever the country has one. */
export function enrichInvoice(
  data: InvoiceData,
  rng: Rng,
  severalRates = false,
): { data: InvoiceData; table: TableStyle } {
  const table: TableStyle = {
    taxColumn: rng.chance(0.35),
    carried: rng.chance(0.5),
    repeatHeader: rng.chance(0.75),
  };
  const lang = data.locale.lang;
  let items: LineItem[] = data.items.map((it) => ({ ...it }));
  if (rng.chance(0.3)) {
    for (const item of items) if (rng.chance(0.35)) item.wrap = rng.pick(WRAP_TAILS[lang]);
  }
  const candidates = items.filter((it) => Number.isInteger(it.qty) && Math.abs(it.unitCents) >= 500);
  if (!data.credit && candidates.length > 0 && rng.chance(0.25)) {
    const item = rng.pick(candidates);
    const pct = rng.pick([2, 3, 5, 10]);
    const bump = Math.max(1, round((item.unitCents * pct) / 100));
    item.unitCents += bump;
    item.amountCents = round(item.qty * item.unitCents);
    const at = items.indexOf(item) + 1;
    const discount: LineItem = {
      description: `${rng.pick(DISCOUNT_WORDS[lang])} ${pct}%`,
      detail: null,
      qty: 0,
      unitCents: 0,
      amountCents: -bump * item.qty,
      discount: true,
    };
    items = [...items.slice(0, at), discount, ...items.slice(at)];
  }
  let next: InvoiceData = { ...data, items };
  const reduced = REDUCED[String(data.taxRate)];
  if (reduced !== undefined && items.length >= 2 && (severalRates || rng.chance(0.12))) {
    for (const item of items) item.taxRate = rng.chance(0.4) ? reduced : data.taxRate;
    const tax = taxByRate({ ...next, items }).reduce((sum, [, cents]) => sum + cents, 0);
    const total = data.subtotalCents + tax;
    next = {
      ...next,
      taxCents: tax,
      totalCents: total,
      amountDueCents: data.amountDueCents === null ? null : total - data.prepaidCents,
    };
    table.taxColumn = true;
  }
  return { data: next, table };
}

/** Tax per rate, rates in first-seen order: one tax line each in the totals block. */
export function taxByRate(data: InvoiceData): [number, number][] {
  const bases = new Map<number, number>();
  for (const item of data.items) {
    const rate = item.taxRate ?? data.taxRate;
    bases.set(rate, (bases.get(rate) ?? 0) + item.amountCents);
  }
  return [...bases].map(([rate, base]) => [rate, round((base * rate) / 100)]);
}

function rateLabel(rate: number): string {
  return rate.toFixed(2);
}

export function invoiceLineItemLabels(data: InvoiceData, taxColumn: boolean): LineItemLabel[] {
  const rate = (item: LineItem): string | null => (taxColumn ? rateLabel(item.taxRate ?? data.taxRate) : null);
  return data.items.map((item) => {
    const description = [item.description, item.wrap, item.detail].filter((t) => t).join(" ");
    if (item.discount) {
      return {
        description,
        quantity: null,
        unitPrice: null,
        amount: labelAmount(item.amountCents),
        taxRate: rate(item),
        productCode: null,
      };
    }
    return {
      description,
      quantity: String(item.qty),
      unitPrice: labelAmount(item.unitCents),
      amount: labelAmount(item.amountCents),
      taxRate: rate(item),
      productCode: null,
    };
  });
}

export function receiptLineItemLabels(data: ReceiptData): LineItemLabel[] {
  const upper = data.merchantName === data.merchantName.toUpperCase();
  return data.items.map((item) => ({
    description: upper ? item.description.toUpperCase() : item.description,
    quantity: item.qty === 1 ? null : String(item.qty),
    unitPrice: item.qty === 1 ? null : labelAmount(item.unitCents),
    amount: labelAmount(item.amountCents),
    taxRate: null,
    productCode: null,
  }));
}
