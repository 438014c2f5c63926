/**
 * Opt-in variations of how invoices print their number and due date (`--id-share`), drawn from their own stream so a
 * document without them is byte for byte what it was: numbers with dots and dashes ("01.234.567.8-2024-1",
 * "R24-31"), the supplier's own number with the customer ("Lief-Nr.", "Vendor No.") printed beside the invoice
 * number, and the due date given only inside a payment-terms sentence ("Payable within 30 days, by ..."). Hyphens
 * in a number are sometimes set as en dashes (the standard fonts have no U+2010), which the label writes as "-".
 */
import type { CalendarDate } from "./format.js";
import type { InvoiceData } from "./invoice-data.js";
import type { Lang } from "./locales.js";
import type { Rng } from "./prng.js";

export interface IdVariants {
  /** The number as printed when its hyphens are set as en dashes ("R24–31"); the label keeps "-". */
  printedNumber?: string;
  /** Label and value of the supplier's number with the customer, printed among the meta facts. */
  supplierNo: { label: string; value: string } | null;
  /** Payment-terms sentence that prints the due date ({n}: days, {d}: the date); the meta rows then leave it out. */
  dueSentence: string | null;
}

const SUPPLIER_NO: Record<Lang, readonly string[]> = {
  en: ["Supplier No.", "Vendor No.", "Vendor ID", "Our supplier number"],
  de: ["Lief-Nr.", "Lieferantennummer", "Lieferanten-Nr.", "Unsere Lieferantennr."],
  fr: ["N° fournisseur", "Code fournisseur", "Numéro fournisseur"],
  es: ["N.º de proveedor", "Código proveedor", "Número de proveedor"],
  nl: ["Leveranciersnummer", "Leveranciersnr.", "Crediteurnummer"],
};

const DUE_SENTENCES: Record<Lang, readonly string[]> = {
  en: ["Payable within {n} days, by {d}.", "Terms: net {n} days ({d}).", "Please pay no later than {d}."],
  de: [
    "Zahlbar innerhalb von {n} Tagen bis zum {d}.",
    "Bitte überweisen Sie den Betrag bis zum {d}.",
    "Zahlungsziel: {n} Tage netto ({d}).",
  ],
  fr: ["Payable à {n} jours, soit le {d}.", "Date limite de règlement : {d}", "Règlement à {n} jours net ({d})."],
  es: ["Pagadero a {n} días, antes del {d}.", "Vence el {d}.", "Plazo de pago: {n} días ({d})."],
  nl: ["Te betalen binnen {n} dagen, uiterlijk op {d}.", "Betaaltermijn {n} dagen ({d})."],
};

function daysBetween(from: CalendarDate, to: CalendarDate): number {
  return Math.round((Date.UTC(to.y, to.m - 1, to.d) - Date.UTC(from.y, from.m - 1, from.d)) / 86_400_000);
}

/** The invoice with a variant number, and what the renderer adds. */
export function withIdVariants(data: InvoiceData, rng: Rng): { data: InvoiceData; variants: IdVariants } {
  const year = data.issueDate.y;
  const number = rng.chance(0.6)
    ? rng.weighted<() => string>([
        [() => `${rng.digits(2)}.${rng.digits(3)}.${rng.digits(3)}.${rng.digits(1)}-${year}-${rng.int(1, 9)}`, 2],
        [() => `R${String(year).slice(2)}-${rng.int(1, 999)}`, 2],
        [() => `${year}-${rng.int(1000, 9999)}`, 1],
        [() => `${rng.letters(2)}-${year}.${rng.digits(4)}`, 1],
      ])()
    : data.number;
  const lang = data.locale.lang;
  const supplierNo = rng.chance(0.6)
    ? { label: rng.pick(SUPPLIER_NO[lang]), value: String(rng.int(10000, 999999)) }
    : null;
  const dueSentence =
    data.dueDate && rng.chance(0.6)
      ? rng.pick(DUE_SENTENCES[lang]).replace("{n}", String(daysBetween(data.issueDate, data.dueDate)))
      : null;
  const dashed = number.includes("-") && rng.chance(0.3) ? number.replace(/-/g, "\u2013") : null;
  return {
    data: { ...data, number },
    variants: { supplierNo, dueSentence, ...(dashed ? { printedNumber: dashed } : {}) },
  };
}
