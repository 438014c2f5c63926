/**
 * A subscription/SaaS invoice or payment receipt, the layouts issue #15 saw fail: the bill-to block first (top left),
 * the seller named only in a legal line in the footer, beside "Invoice from", or only by the domain of its e-mail
 * address; a billing period and a "next billing" date beside the issue date; a payment line and "Amount due 0.00" on
 * payment receipts (also as "Payments (144.00)" in brackets); subscription line items; "Total for this invoice" above
 * a per-service summary of smaller charges; a seller shown only as a logo (a drawn mark, no name or domain printed:
 * `supplier.name` is then not labelled, the right answer is none). Facts come from the InvoiceData; what differs from
 * its usual labels (the seller's name when only a domain is printed, the amount due of a paid invoice) is returned
 * with the page.
 */
import type { PDFDocument } from "pdf-lib";
import { addDays, addMonths, type CalendarDate, chooseDateWriter, isoDate, writeDate, writeMoney } from "./format.js";
import type { InvoiceData } from "./invoice-data.js";
import { domainStem } from "./parties.js";
import type { Rng } from "./prng.js";
import { embedFamily, Sheet } from "./sheet.js";

type Lang = "en" | "de" | "fr";

const WORDS: Record<
  Lang,
  {
    invoice: string;
    receipt: string;
    billTo: readonly string[];
    from: string;
    number: string;
    date: string;
    due: string;
    period: string;
    next: string;
    subtotal: string;
    tax: string;
    total: string;
    paid: string;
    payments: string;
    amountDue: string;
    vat: string;
    /** A total label that names the document ("Total for this invoice"), then a summary by service. */
    invoiceTotal: string;
    byService: string;
  }
> = {
  en: {
    invoice: "Invoice",
    receipt: "Receipt",
    billTo: ["Bill to", "Billed to", "Billing contact", "Customer", "Client"],
    from: "Invoice from",
    number: "Invoice number",
    date: "Date of issue",
    due: "Date due",
    period: "Billing period",
    next: "Next billing date",
    subtotal: "Subtotal",
    tax: "Tax",
    total: "Total",
    paid: "Amount paid",
    payments: "Payments",
    amountDue: "Amount due",
    vat: "VAT",
    invoiceTotal: "Total for this invoice",
    byService: "Summary by service",
  },
  de: {
    invoice: "Rechnung",
    receipt: "Zahlungsbeleg",
    billTo: ["Rechnungsempfänger", "Kunde", "Rechnung an"],
    from: "Rechnungssteller",
    number: "Rechnungsnummer",
    date: "Rechnungsdatum",
    due: "Fällig am",
    period: "Abrechnungszeitraum",
    next: "Nächste Abrechnung",
    subtotal: "Zwischensumme",
    tax: "MwSt.",
    total: "Gesamtbetrag",
    paid: "Bezahlt",
    payments: "Zahlungen",
    amountDue: "Offener Betrag",
    vat: "USt-IdNr.",
    invoiceTotal: "Gesamtbetrag dieser Rechnung",
    byService: "Übersicht nach Dienst",
  },
  fr: {
    invoice: "Facture",
    receipt: "Reçu",
    billTo: ["Facturé à", "Client"],
    from: "Émetteur",
    number: "Numéro de facture",
    date: "Date d'émission",
    due: "Date d'échéance",
    period: "Période de facturation",
    next: "Prochaine facturation",
    subtotal: "Sous-total",
    tax: "TVA",
    total: "Total",
    paid: "Montant payé",
    payments: "Paiements",
    amountDue: "Montant dû",
    vat: "N° TVA",
    invoiceTotal: "Total de cette facture",
    byService: "Récapitulatif par service",
  },
};

export type SellerShown = "footer" | "from" | "domain" | "logo";

export interface SaasRendering {
  pages: number;
  /** The seller's name label: its printed name, the domain when only that is printed, null for a logo only. */
  supplierName: string | null;
  /** The amount due printed (0 on a payment receipt), or null when none is. */
  amountDueCents: number | null;
  seller: SellerShown;
}

function domainOf(name: string): string {
  return `${domainStem(name) || "seller"}.io`;
}

export async function renderSaas(doc: PDFDocument, data: InvoiceData, rng: Rng): Promise<SaasRendering> {
  const lang: Lang = data.locale.lang === "de" || data.locale.lang === "fr" ? data.locale.lang : "en";
  const w = WORDS[lang];
  const [width, height] = data.locale.paper === "A4" ? [595.28, 841.89] : [612, 792];
  const sheet = new Sheet(doc, width, height, await embedFamily(doc, rng.chance(0.7) ? "Helvetica" : "Times"));
  const size = rng.float(8.5, 10);
  const line = size * 1.45;
  const margin = rng.float(40, 56);
  const right = width / 2 + 20;
  const dates = chooseDateWriter(rng, data.locale, false);
  const date = (d: CalendarDate) => writeDate(d, dates, data.locale);
  const numberStyle = rng.pick(data.locale.numberStyles);
  const money = (cents: number) =>
    writeMoney(
      cents,
      numberStyle,
      data.locale.currencySymbol ? "symbol" : "code-after",
      data.locale,
      data.locale.currency,
    );
  const seller = rng.weighted<SellerShown>([
    ["footer", 3],
    ["from", 2],
    ["domain", 2],
    ["logo", 1],
  ]);
  const paidReceipt = rng.chance(0.35);
  const domain = domainOf(data.supplier.name);
  let top = margin;

  sheet.text(paidReceipt ? w.receipt : w.invoice, margin, top, { size: size * 1.9, bold: true });
  // A logo: a drawn mark top right, the seller's name in it only as an image would have it (not as text).
  if (seller === "logo") sheet.box(width - margin - 70, top - size * 0.4, 70, size * 2.4, 0.25, false);
  top += size * 3;
  // Bill-to block first, top left; invoice facts top right.
  const billTo = rng.pick(w.billTo);
  const facts: Array<[string, string]> = [
    [w.number, data.number],
    [w.date, date(data.issueDate)],
  ];
  if (data.dueDate && !paidReceipt) facts.push([w.due, date(data.dueDate)]);
  sheet.text(billTo, margin, top, { size, bold: true });
  facts.forEach(([label, value], i) => {
    sheet.text(label, right, top + i * line, { size });
    sheet.text(value, width - margin, top + i * line, { size, align: "right" });
  });
  top += line;
  for (const text of [data.customer.name, ...data.customer.addressLines]) {
    sheet.text(text, margin, top, { size });
    top += line;
  }
  if (rng.chance(0.5)) {
    sheet.text(`billing@${domainOf(data.customer.name).replace(/\.io$/, ".example")}`, margin, top, { size });
    top += line;
  }
  top = Math.max(top, margin + size * 3 + facts.length * line) + line;
  if (seller === "from") {
    sheet.text(w.from, right, top - line * 0.2, { size, bold: true });
    let y = top + line;
    for (const text of [data.supplier.name, ...data.supplier.addressLines]) {
      sheet.text(text, right, y, { size });
      y += line;
    }
    top = y + line;
  }

  // Billing period and subscription lines.
  const periodStart = addMonths(data.issueDate, -1);
  const periodEnd = addDays(data.issueDate, -1);
  if (rng.chance(0.7)) {
    sheet.text(`${w.period} ${date(periodStart)} - ${date(periodEnd)}`, margin, top, { size });
    top += line * 1.6;
  }
  for (const item of data.items.slice(0, 6)) {
    sheet.text(item.description, margin, top, { size });
    sheet.text(`${date(periodStart)} - ${date(periodEnd)}`, margin, top + line, { size: size * 0.85, grey: 0.4 });
    sheet.text(String(item.qty), width * 0.62, top, { size, align: "right" });
    sheet.text(money(item.amountCents), width - margin, top, { size, align: "right" });
    top += line * 2.2;
  }
  top += line;
  // Totals: the items shown are the invoice's (subtotal, tax and total are the data's).
  const rows: Array<[string, number]> = [
    [w.subtotal, data.subtotalCents],
    [`${w.tax} (${data.taxRate}%)`, data.taxCents],
    [w.total, data.totalCents],
  ];
  // "Total for this invoice" names the total when a summary of per-service charges follows it.
  const byService = rng.chance(0.3) && data.items.length >= 2;
  if (byService) rows[2] = [w.invoiceTotal, data.totalCents];
  let amountDueCents: number | null = data.amountDueCents;
  // Payments printed in brackets ("Payments ($144.00)"), or as "Amount paid".
  const bracketed = rng.chance(0.5);
  if (paidReceipt) {
    rows.push([bracketed ? w.payments : w.paid, data.totalCents]);
    rows.push([w.amountDue, 0]);
    amountDueCents = 0;
  } else if (amountDueCents !== null) rows.push([w.amountDue, amountDueCents]);
  for (const [label, cents] of rows) {
    const strong = label === w.total || label === w.invoiceTotal;
    const printed = bracketed && label === w.payments ? `(${money(cents)})` : money(cents);
    sheet.text(label, right, top, { size, bold: strong });
    sheet.text(printed, width - margin, top, { size, align: "right", bold: strong });
    top += line;
  }
  if (byService) {
    top += line;
    sheet.text(w.byService, margin, top, { size, bold: true });
    top += line;
    for (const item of data.items.slice(0, 4)) {
      sheet.text(`${item.description} ${w.total.toLowerCase()}`, margin, top, { size: size * 0.9 });
      sheet.text(money(item.amountCents), width - margin, top, { size: size * 0.9, align: "right" });
      top += line;
    }
  }
  if (!paidReceipt && rng.chance(0.6)) {
    top += line;
    sheet.text(`${w.next} ${date(addMonths(data.issueDate, 1))}`, margin, top, { size });
  }

  // Footer: contact by e-mail; the legal line when the seller is named there.
  const footerTop = height - margin - 2 * line;
  if (seller !== "logo") sheet.text(`support@${domain}`, margin, footerTop, { size: size * 0.85, grey: 0.3 });
  if (seller === "footer") {
    const ids = data.supplierTaxId ? `, ${w.vat} ${data.supplierTaxId}` : "";
    sheet.text(`${data.supplier.name}${ids}, ${data.supplier.addressLines.join(", ")}`, margin, footerTop + line, {
      size: size * 0.8,
      grey: 0.3,
    });
  }
  return {
    pages: sheet.pages.length,
    supplierName: seller === "domain" ? domain : seller === "logo" ? null : data.supplier.name,
    amountDueCents,
    seller,
  };
}

/** Labels of a SaaS rendering: the invoice's, adjusted to what the page prints. */
export function saasLabels(
  base: Record<string, unknown>,
  data: InvoiceData,
  rendering: SaasRendering,
  amount: (cents: number) => string,
): Record<string, unknown> {
  const labels: Record<string, unknown> = { ...base, "supplier.name": rendering.supplierName };
  if (rendering.supplierName === null) delete labels["supplier.name"];
  // Addresses and payment details are not printed in these layouts (the footer's address is not a block).
  delete labels["supplier.address"];
  delete labels["payment.iban"];
  delete labels["payment.bic"];
  delete labels["payment.bsb"];
  delete labels["payment.accountNo"];
  delete labels["payment.reference"];
  delete labels["invoice.purchaseOrderNo"];
  delete labels["invoice.lineItems"];
  if (rendering.seller !== "footer" || !data.supplierTaxId) delete labels["supplier.taxId"];
  if (rendering.amountDueCents === null) delete labels["invoice.amountDue"];
  else labels["invoice.amountDue"] = amount(rendering.amountDueCents);
  if (rendering.amountDueCents === 0 || !data.dueDate) delete labels["invoice.dueDate"];
  labels["invoice.date"] = isoDate(data.issueDate);
  return labels;
}
