/**
 * Subscription and online-service invoices written as HTML and printed by Chromium, as most real SaaS invoices are
 * (billing platforms, cloud consoles, hosting companies print HTML to PDF): a text layer laid out by Blink and
 * written by Skia, not drawn word by word as pdf-lib draws render-saas.ts. Five families of layout, each a common
 * convention rather than any one company's page:
 * - "hosted": title and invoice facts first, the seller's block left of the "Bill to" block, a headline "$24.00 due
 *   ...", a table with the service period under each item, totals with tax on a base, a footer repeating number and
 *   amount; as a payment receipt: "Date paid", a payment method, "Amount paid".
 * - "cloud": a wordmark or logo, invoice and account numbers, a billing period, a boxed "Total amount due on ...", a
 *   summary (charges, credits, tax, "Total for this invoice") above a detail of smaller per-service charges, the
 *   seller's legal line with its tax registration in the footer.
 * - "letter": a window letter (sender line over the recipient), facts on the right, a positions table with a period
 *   column, net/tax/gross, a direct-debit or transfer sentence, a footer of columns (address, register, tax ids, bank).
 * - "tax-invoice": "Tax invoice", "Invoice from" with the seller's registration number, "Billed to", amounts excluding
 *   and including tax, a paid invoice printing "Amount due 0.00".
 * - "receipt": a card: "Receipt from ...", amount paid, date paid, payment method, a short summary, a contact line.
 * - "template": an office suite's invoice template filled in (only with `--layout template`, so the other families'
 *   seeds keep their documents): the seller's letterhead left, a pale "INVOICE" right over a grid of facts (date,
 *   invoice #, customer ID, due date), "Bill to" and "Ship to" side by side, a strip of terms under their titles
 *   (salesperson, P.O., ship via, payment terms, due date), a ruled table with blank rows left empty, totals with a
 *   tax rate row, shipping and "Other", "Make all checks payable to ...", a contact sentence and a thank-you line.
 * - "marketplace": an online marketplace's order invoice (only with `--layout marketplace`): the marketplace's mark,
 *   "Sold by" with the third-party seller's address and VAT number, billing and shipping addresses side by side, order
 *   number and date beside the invoice's, a table of goods with a net, tax and gross amount per row (the net amount is
 *   the row's amount), an identifier line under each item ("ASIN: ..."), shipping as a row of its own, a TOTAL row
 *   with the tax and the grand total, and an authorised signatory for the seller.
 * Every fact is printed from the facts drawn here, so the labels follow from them; a value not printed is not
 * labelled (a seller shown only as a drawn logo and an e-mail domain has no `supplier.name` label: none is right).
 */
import {
  addDays,
  addMonths,
  type CalendarDate,
  type DateWriter,
  isoDate,
  labelAmount,
  randomDate,
  writeDate,
  writeMoney,
} from "./format.js";
import { supplierTaxId } from "./ids.js";
import type { LineItemLabel } from "./line-items.js";
import { type LocaleProfile, localeProfile } from "./locales.js";
import { domainStem, party, personName } from "./parties.js";
import { Rng } from "./prng.js";

export const HTML_LAYOUTS = ["hosted", "cloud", "letter", "tax-invoice", "receipt", "template", "marketplace"] as const;
export type HtmlLayout = (typeof HTML_LAYOUTS)[number];

export interface HtmlInvoice {
  html: string;
  /** Catalogue field -> normal form (the rows of `invoice.lineItems`), for the fields the page prints. */
  labels: Record<string, string | LineItemLabel[]>;
  layout: HtmlLayout;
  locale: string;
  paper: "A4" | "Letter";
}

type Lang = "en" | "de" | "fr";

interface Item {
  description: string;
  qty: number;
  unitCents: number;
  amountCents: number;
}

const ITEMS: Record<Lang, readonly string[]> = {
  en: [
    "Pro plan",
    "Team plan (monthly)",
    "Business plan (annual)",
    "Additional seats",
    "Extra storage 100 GB",
    "API requests overage",
    "Premium support",
    "Starter plan",
    "Enterprise add-on",
    "Domain renewal",
    "Managed database",
    "Compute instances",
    "Outbound bandwidth",
    "Email sending (10k)",
  ],
  de: [
    "Pro-Tarif",
    "Team-Tarif (jährlich)",
    "Zusätzliche Nutzer",
    "Speicher 100 GB",
    "Premium-Support",
    "Cloud Server CX21",
    "Domain-Verlängerung",
    "Backup-Speicher",
    "Managed Datenbank",
  ],
  fr: [
    "Abonnement Pro",
    "Forfait Équipe (annuel)",
    "Utilisateurs supplémentaires",
    "Stockage 100 Go",
    "Support premium",
    "Serveur cloud",
    "Renouvellement de domaine",
  ],
};

const WORDS = {
  en: {
    invoice: ["Invoice", "INVOICE"],
    taxInvoice: ["Tax invoice", "TAX INVOICE"],
    receipt: ["Receipt", "Payment receipt"],
    number: ["Invoice number", "Invoice #", "Invoice No."],
    receiptNo: ["Receipt number", "Receipt #"],
    issued: ["Date of issue", "Invoice date", "Issue date", "Date"],
    due: ["Date due", "Due date", "Payment due"],
    paidOn: ["Date paid", "Paid on"],
    billTo: ["Bill to", "Billed to", "Billing contact", "Customer"],
    from: ["Invoice from", "From"],
    description: "Description",
    qty: "Qty",
    unit: "Unit price",
    amount: "Amount",
    subtotal: ["Subtotal", "Sub-total"],
    tax: ["Tax", "VAT", "Sales tax"],
    total: ["Total", "Total due"],
    amountDue: ["Amount due", "Balance due"],
    amountPaid: "Amount paid",
    period: ["Billing period", "Service period"],
    next: "Next billing date",
    account: ["Account number", "Billing ID", "Customer ID"],
    summary: "Summary",
    charges: "Charges",
    credits: "Credits",
    forInvoice: "Total for this invoice",
    detail: "Detail",
    dueOn: "Total amount due on",
    method: "Payment method",
    registration: ["VAT Registration Number", "Tax ID", "VAT No."],
    thanks: "Thank you for your business.",
    questions: "Questions? Contact us at",
    page: (i: number, n: number) => `Page ${i} of ${n}`,
    pay: "Pay online",
  },
  de: {
    invoice: ["Rechnung", "RECHNUNG"],
    taxInvoice: ["Rechnung"],
    receipt: ["Zahlungsbeleg", "Quittung"],
    number: ["Rechnungsnr.", "Rechnungsnummer"],
    receiptNo: ["Belegnummer"],
    issued: ["Rechnungsdatum", "Datum"],
    due: ["Fällig am", "Zahlbar bis"],
    paidOn: ["Bezahlt am"],
    billTo: ["Rechnungsempfänger", "Rechnung an", "Kunde"],
    from: ["Rechnungssteller"],
    description: "Bezeichnung",
    qty: "Menge",
    unit: "Einzelpreis",
    amount: "Gesamt",
    subtotal: ["Summe netto", "Zwischensumme", "Gesamt netto"],
    tax: ["USt.", "MwSt."],
    total: ["Rechnungsbetrag", "Gesamtbetrag", "Gesamt brutto"],
    amountDue: ["Offener Betrag", "Zu zahlen"],
    amountPaid: "Bezahlter Betrag",
    period: ["Leistungszeitraum", "Abrechnungszeitraum"],
    next: "Nächste Abrechnung",
    account: ["Kundennr.", "Kundennummer", "Vertragsnr."],
    summary: "Übersicht",
    charges: "Leistungen",
    credits: "Gutschriften",
    forInvoice: "Gesamtbetrag dieser Rechnung",
    detail: "Einzelaufstellung",
    dueOn: "Gesamtbetrag fällig am",
    method: "Zahlungsart",
    registration: ["USt-IdNr.", "USt-ID"],
    thanks: "Vielen Dank für Ihren Auftrag.",
    questions: "Fragen? Schreiben Sie uns an",
    page: (i: number, n: number) => `Seite ${i} von ${n}`,
    pay: "Online bezahlen",
  },
  fr: {
    invoice: ["Facture", "FACTURE"],
    taxInvoice: ["Facture"],
    receipt: ["Reçu", "Reçu de paiement"],
    number: ["Numéro de facture", "Facture n°"],
    receiptNo: ["Numéro de reçu"],
    issued: ["Date d'émission", "Date de facture", "Date"],
    due: ["Date d'échéance", "Échéance"],
    paidOn: ["Payé le"],
    billTo: ["Facturé à", "Client", "Adresse de facturation"],
    from: ["Émetteur"],
    description: "Désignation",
    qty: "Qté",
    unit: "Prix unitaire",
    amount: "Montant",
    subtotal: ["Sous-total", "Total HT"],
    tax: ["TVA"],
    total: ["Total TTC", "Total"],
    amountDue: ["Montant dû", "Reste à payer"],
    amountPaid: "Montant payé",
    period: ["Période de facturation", "Période"],
    next: "Prochaine facturation",
    account: ["N° client", "Identifiant de compte"],
    summary: "Récapitulatif",
    charges: "Prestations",
    credits: "Avoirs",
    forInvoice: "Total de cette facture",
    detail: "Détail",
    dueOn: "Montant total dû le",
    method: "Moyen de paiement",
    registration: ["N° TVA", "TVA intracommunautaire"],
    thanks: "Merci pour votre confiance.",
    questions: "Des questions ? Écrivez-nous à",
    page: (i: number, n: number) => `Page ${i} sur ${n}`,
    pay: "Payer en ligne",
  },
} as const;

const TAX_RATES: Record<string, readonly number[]> = {
  US: [0, 0, 6, 7.25, 8.875],
  GB: [20],
  AU: [10],
  DE: [19],
  CH: [8.1],
  FR: [20],
};

const LOCALES: readonly (readonly [string, number])[] = [
  ["en-US", 30],
  ["en-GB", 15],
  ["en-AU", 12],
  ["de-DE", 20],
  ["de-CH", 5],
  ["fr-FR", 12],
];

const LAYOUTS: readonly (readonly [HtmlLayout, number])[] = [
  ["hosted", 3],
  ["cloud", 2],
  ["letter", 2],
  ["tax-invoice", 2],
  ["receipt", 2],
];

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function domainOf(name: string): string {
  const stem = domainStem(name);
  return `${stem || "seller"}.${["io", "com", "app", "cloud"][stem.length % 4]}`;
}

/** A drawn mark where a logo image would be: shapes only, no text. */
function logo(rng: Rng): string {
  const hue = rng.int(0, 359);
  const shape = rng.pick([
    `<circle cx="20" cy="20" r="16" fill="hsl(${hue},60%,45%)"/>`,
    `<rect x="4" y="4" width="32" height="32" rx="8" fill="hsl(${hue},60%,45%)"/>`,
    `<path d="M4 36 L20 4 L36 36 Z" fill="hsl(${hue},60%,45%)"/>`,
  ]);
  return `<svg width="${rng.int(90, 140)}" height="40" viewBox="0 0 120 40"><g>${shape}</g><rect x="44" y="12" width="${rng.int(40, 70)}" height="16" rx="3" fill="hsl(${hue},20%,70%)"/></svg>`;
}

interface Facts {
  rng: Rng;
  locale: LocaleProfile;
  lang: Lang;
  w: (typeof WORDS)[Lang];
  number: string;
  issue: CalendarDate;
  due: CalendarDate | null;
  periodStart: CalendarDate;
  periodEnd: CalendarDate;
  supplier: { name: string; addressLines: string[] };
  supplierTaxId: string | null;
  customer: { name: string; addressLines: string[] };
  customerPerson: boolean;
  customerEmail: string;
  domain: string;
  items: Item[];
  creditCents: number;
  /** A hosted invoice's coupon: creditCents is then the discount. */
  discountPercent: number;
  reverseCharge: boolean;
  /** The customer's VAT id, printed in its block on reverse-charge invoices (never the supplier's tax id). */
  customerTaxId: string | null;
  taxRate: number;
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
  paid: boolean;
  date: (d: CalendarDate) => string;
  money: (cents: number) => string;
}

function planFacts(rng: Rng, layout: HtmlLayout): Facts {
  const tag = rng.weighted(LOCALES);
  const locale = localeProfile(tag);
  const lang: Lang = locale.lang === "de" || locale.lang === "fr" ? locale.lang : "en";
  const country = locale.country;
  const issue = randomDate(rng, 2020, 2026);
  // A cloud bill's detail sometimes runs to a long usage list (and a second page).
  const longDetail = layout === "cloud" && rng.chance(0.25);
  const count = longDetail
    ? rng.int(12, 30)
    : rng.weighted<number>([
        [1, 4],
        [2, 3],
        [3, 2],
        [rng.int(4, 7), 1],
      ]);
  const items: Item[] = Array.from({ length: count }, () => {
    const qty = rng.chance(0.7) ? 1 : rng.int(2, 25);
    const unitCents = rng.weighted<number>([
      [rng.int(1, 60) * 100 - (rng.chance(0.5) ? 1 : 0), 3],
      [rng.int(100, 50000), 2],
    ]);
    return { description: rng.pick(ITEMS[lang]), qty, unitCents, amountCents: qty * unitCents };
  });
  const charges = items.reduce((s, it) => s + it.amountCents, 0);
  // Credits on a cloud bill; a coupon's discount on a hosted invoice ("Discount (SAVE20, 20% off)").
  const discountPercent = layout === "hosted" && rng.chance(0.3) ? rng.pick([10, 15, 20, 25, 50]) : 0;
  const creditCents =
    layout === "cloud" && rng.chance(0.35)
      ? Math.min(charges - 100, rng.int(100, 5000))
      : Math.round((charges * discountPercent) / 100);
  const subtotalCents = charges - creditCents;
  const customerPerson = rng.chance(0.35);
  // An EU business billed across a border pays the VAT itself: 0 % and a reverse-charge note.
  const reverseCharge =
    (layout === "letter" || layout === "tax-invoice") &&
    !customerPerson &&
    (country === "DE" || country === "FR") &&
    rng.chance(0.25);
  const taxRate = reverseCharge ? 0 : rng.pick(TAX_RATES[country] ?? [0]);
  const taxCents = Math.round((subtotalCents * taxRate) / 100);
  const paid = layout === "receipt" || ((layout === "hosted" || layout === "tax-invoice") && rng.chance(0.35));
  const supplier = party(rng, country, false, rng.chance(0.4));
  const customer = customerPerson
    ? { name: personName(rng, country), addressLines: party(rng, country, true, false).addressLines }
    : party(rng, country, false, rng.chance(0.3));
  const dateWriter: DateWriter = {
    style: rng.weighted([
      ["long", 45],
      ["short-month", lang === "en" ? 25 : 0],
      ["numeric", 20],
      ["iso", 10],
    ]),
    separator: rng.pick(locale.dateSeparators),
    padded: rng.chance(0.7),
    upper: false,
  };
  const numberStyle = rng.pick(locale.numberStyles);
  const mark = rng.weighted<"symbol" | "code-after" | "code-before">([
    [locale.currencySymbol ? "symbol" : "code-after", 7],
    ["code-after", 2],
    ["code-before", 2],
  ]);
  const periodStart = addMonths(issue, -1);
  return {
    rng,
    locale,
    lang,
    w: WORDS[lang],
    number: rng.weighted<() => string>([
      [() => `${rng.letters(4)}${rng.digits(4)}-${rng.digits(4)}`, 3],
      [() => `INV-${issue.y}-${rng.digits(5)}`, 2],
      [() => rng.digits(10), 2],
      [() => `R${rng.digits(10)}`, 1],
      [() => `${issue.y}${rng.digits(6)}`, 1],
    ])(),
    issue,
    due: paid ? null : rng.chance(0.8) ? addDays(issue, rng.pick([0, 7, 14, 14, 30, 30])) : null,
    periodStart,
    periodEnd: addDays(issue, -1),
    supplier,
    supplierTaxId: supplierTaxId(rng, country),
    customer,
    customerPerson,
    customerEmail: `${
      customer.name
        .split(" ")[0]
        ?.toLowerCase()
        .replace(/[^a-z]/g, "") || "billing"
    }@${domainOf(customer.name).replace(/\.\w+$/, ".example")}`,
    domain: domainOf(supplier.name),
    items,
    creditCents,
    discountPercent,
    reverseCharge,
    customerTaxId: reverseCharge ? supplierTaxId(rng, country) : null,
    taxRate,
    subtotalCents,
    taxCents,
    totalCents: subtotalCents + taxCents,
    paid,
    date: (d) => writeDate(d, dateWriter, locale),
    money: (cents) => writeMoney(cents, numberStyle, mark, locale, locale.currency),
  };
}

const BASE_CSS = `
  * { box-sizing: border-box; }
  body { font-family: Helvetica, Arial, "DejaVu Sans", sans-serif; font-size: 10pt; color: #222; margin: 0; }
  table { border-collapse: collapse; width: 100%; }
  td, th { padding: 4px 6px; text-align: left; vertical-align: top; }
  th { font-weight: 600; color: #555; border-bottom: 1px solid #ccc; }
  .r { text-align: right; }
  .nw { white-space: nowrap; }
  .muted { color: #777; font-size: 8.5pt; }
  .big { font-size: 16pt; font-weight: 700; }
  .title { font-size: 20pt; font-weight: 700; }
  .row { display: flex; justify-content: space-between; gap: 24px; }
  .col { flex: 1; }
  .strong { font-weight: 700; }
  .footer { position: fixed; bottom: 0; left: 40px; right: 40px; font-size: 7.5pt; color: #666; }
`;

function page(css: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>${BASE_CSS}${css}</style></head><body>${body}</body></html>`;
}

function lines(texts: readonly string[]): string {
  return texts.map((t) => `<div>${escapeHtml(t)}</div>`).join("");
}

function totalsTable(rows: ReadonlyArray<readonly [string, string, boolean?]>, width = "45%"): string {
  const body = rows
    .map(
      ([label, value, strong]) =>
        `<tr${strong ? ' class="strong"' : ""}><td>${escapeHtml(label)}</td><td class="r nw">${escapeHtml(value)}</td></tr>`,
    )
    .join("");
  return `<table style="width:${width};margin-left:auto">${body}</table>`;
}

function taxLabel(f: Facts): string {
  const word = f.rng.pick(f.w.tax);
  return f.rng.chance(0.5) ? `${word} (${f.taxRate}%)` : `${word} ${f.taxRate} %`;
}

/** The base labels every layout shares; each layout then says what it printed. */
function baseLabels(f: Facts): Record<string, string> {
  return {
    "invoice.number": f.number,
    "invoice.date": isoDate(f.issue),
    "invoice.currency": f.locale.currency,
    "invoice.total": labelAmount(f.totalCents),
    "customer.name": f.customer.name,
  };
}

/** The customer's VAT id line of a reverse-charge invoice. */
function customerVat(f: Facts): string[] {
  return f.customerTaxId ? [`${f.w.registration[0]} ${f.customerTaxId}`] : [];
}

function reverseChargeNote(f: Facts): string {
  if (!f.reverseCharge) return "";
  const text =
    f.lang === "de"
      ? "Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge)."
      : f.lang === "fr"
        ? "Autoliquidation : TVA due par le preneur (article 283-2 du CGI)."
        : "Reverse charge: VAT to be accounted for by the recipient.";
  return `<p class="muted">${escapeHtml(text)}</p>`;
}

function itemRows(f: Facts, withPeriod: boolean, withUnit: boolean): string {
  return f.items
    .map((it) => {
      const period = withPeriod
        ? `<div class="muted">${escapeHtml(`${f.date(f.periodStart)} – ${f.date(f.periodEnd)}`)}</div>`
        : "";
      const unit = withUnit ? `<td class="r">${escapeHtml(f.money(it.unitCents))}</td>` : "";
      return `<tr><td>${escapeHtml(it.description)}${period}</td><td class="r">${it.qty}</td>${unit}<td class="r">${escapeHtml(f.money(it.amountCents))}</td></tr>`;
    })
    .join("");
}

function hosted(f: Facts): { body: string; labels: Record<string, string> } {
  const { rng, w } = f;
  const labels = baseLabels(f);
  const facts: Array<[string, string]> = [[rng.pick(w.number), f.number]];
  if (f.paid) facts.push([rng.pick(w.receiptNo), `${rng.digits(4)}-${rng.digits(4)}`]);
  facts.push([f.paid ? rng.pick(w.paidOn) : rng.pick(w.issued), f.date(f.issue)]);
  if (f.due) {
    facts.push([rng.pick(w.due), f.date(f.due)]);
    labels["invoice.dueDate"] = isoDate(f.due);
  }
  if (f.paid) facts.push([w.method, `Visa – ${rng.digits(4)}`]);
  const mark = rng.weighted<"logo" | "wordmark" | "none">([
    ["logo", 2],
    ["wordmark", 1],
    ["none", 1],
  ]);
  const seller = [f.supplier.name, ...f.supplier.addressLines, `billing@${f.domain}`];
  const taxIdShown = rng.chance(0.5);
  if (taxIdShown && f.supplierTaxId) {
    seller.push(`${rng.pick(w.registration)} ${f.supplierTaxId}`);
    labels["supplier.taxId"] = f.supplierTaxId.replace(/\s/g, "");
  }
  labels["supplier.name"] = f.supplier.name;
  const customer = [f.customer.name, ...f.customer.addressLines, f.customerEmail];
  labels["customer.address"] = f.customer.addressLines.join(", ");
  const headline = f.paid
    ? `${f.money(f.totalCents)} ${f.lang === "en" ? "paid on" : f.lang === "de" ? "bezahlt am" : "payé le"} ${f.date(f.issue)}`
    : f.due
      ? `${f.money(f.totalCents)} ${f.lang === "en" ? "due" : f.lang === "de" ? "fällig am" : "dû le"} ${f.date(f.due)}`
      : f.money(f.totalCents);
  const totals: Array<[string, string, boolean?]> = [];
  if (f.discountPercent > 0) {
    // Subtotal of the items, the coupon, then the net the tax is charged on.
    const code = `${rng.pick(["SAVE", "WELCOME", "PROMO", "ANNUAL"])}${f.discountPercent}`;
    const off =
      f.lang === "en"
        ? `${f.discountPercent}% off`
        : f.lang === "de"
          ? `${f.discountPercent} % Rabatt`
          : `${f.discountPercent} % de remise`;
    const discountWord = f.lang === "en" ? "Discount" : f.lang === "de" ? "Rabatt" : "Remise";
    totals.push([rng.pick(w.subtotal), f.money(f.subtotalCents + f.creditCents)]);
    totals.push([`${discountWord} (${code}, ${off})`, f.money(-f.creditCents)]);
    totals.push([
      f.lang === "en" ? "Total excluding tax" : f.lang === "de" ? "Gesamt ohne MwSt." : "Total HT",
      f.money(f.subtotalCents),
    ]);
  } else totals.push([rng.pick(w.subtotal), f.money(f.subtotalCents)]);
  labels["invoice.subtotal"] = labelAmount(f.subtotalCents);
  if (f.taxRate > 0 || rng.chance(0.5)) {
    const on = f.lang === "en" && rng.chance(0.5) ? ` (${f.taxRate}% on ${f.money(f.subtotalCents)})` : "";
    totals.push([on ? `${rng.pick(w.tax)}${on}` : taxLabel(f), f.money(f.taxCents)]);
    labels["invoice.tax"] = labelAmount(f.taxCents);
  }
  totals.push([w.total[0], f.money(f.totalCents)]);
  if (f.paid) totals.push([w.amountPaid, f.money(f.totalCents), true]);
  else {
    totals.push([rng.pick(w.amountDue), f.money(f.totalCents), true]);
    labels["invoice.amountDue"] = labelAmount(f.totalCents);
  }
  const body = `
    <div class="row"><div class="title">${escapeHtml(f.paid ? rng.pick(w.receipt) : rng.pick(w.invoice))}</div>
      <div>${mark === "logo" ? logo(rng) : mark === "wordmark" ? `<span class="big">${escapeHtml(f.supplier.name)}</span>` : ""}</div></div>
    <table style="width:60%;margin:12px 0">${facts.map(([l, v]) => `<tr><td class="muted">${escapeHtml(l)}</td><td>${escapeHtml(v)}</td></tr>`).join("")}</table>
    <div class="row" style="margin:16px 0">
      <div class="col"><div class="strong">${escapeHtml(f.supplier.name)}</div>${lines(seller.slice(1))}</div>
      <div class="col"><div class="strong">${escapeHtml(rng.pick(w.billTo))}</div>${lines(customer)}</div>
    </div>
    <div class="big" style="margin:18px 0 6px">${escapeHtml(headline)}</div>
    ${f.paid ? "" : `<div style="color:#635bff">${escapeHtml(w.pay)}</div>`}
    <table style="margin-top:18px"><tr><th>${w.description}</th><th class="r">${w.qty}</th><th class="r">${w.unit}</th><th class="r">${w.amount}</th></tr>
      ${itemRows(f, rng.chance(0.7), true)}</table>
    <div style="margin-top:10px">${totalsTable(totals)}</div>
    <div class="footer"><div class="row"><div>${escapeHtml(`${f.number} · ${headline}`)}</div><div>${escapeHtml(w.page(1, 1))}</div></div></div>`;
  return { body: page("body{padding:36px 44px}", body), labels };
}

function cloud(f: Facts): { body: string; labels: Record<string, string> } {
  const { rng, w } = f;
  const labels = baseLabels(f);
  const wordmark = rng.chance(0.7);
  const due = f.due ?? addDays(f.issue, 30);
  labels["invoice.dueDate"] = isoDate(due);
  labels["invoice.amountDue"] = labelAmount(f.totalCents);
  labels["supplier.name"] = f.supplier.name;
  const regLabel = rng.pick(w.registration);
  if (f.supplierTaxId) labels["supplier.taxId"] = f.supplierTaxId.replace(/\s/g, "");
  const account = `${rng.digits(4)}-${rng.digits(4)}-${rng.digits(4)}`;
  const summary: Array<[string, string, boolean?]> = [];
  const charges = f.subtotalCents + f.creditCents;
  if (f.creditCents > 0) {
    summary.push([w.charges, f.money(charges)]);
    summary.push([w.credits, f.money(-f.creditCents)]);
    summary.push([rng.pick(w.subtotal), f.money(f.subtotalCents)]);
  } else summary.push([rng.chance(0.5) ? w.charges : rng.pick(w.subtotal), f.money(f.subtotalCents)]);
  labels["invoice.subtotal"] = labelAmount(f.subtotalCents);
  summary.push([taxLabel(f), f.money(f.taxCents)]);
  labels["invoice.tax"] = labelAmount(f.taxCents);
  summary.push([w.forInvoice, f.money(f.totalCents), true]);
  const detail = f.items
    .map(
      (it) =>
        `<tr><td>${escapeHtml(it.description)}<div class="muted">${escapeHtml(
          it.qty > 1 ? `${it.qty} x ${f.money(it.unitCents)}` : `${f.date(f.periodStart)} - ${f.date(f.periodEnd)}`,
        )}</div></td><td class="r">${escapeHtml(f.money(it.amountCents))}</td></tr>`,
    )
    .join("");
  const periodText =
    f.lang === "en"
      ? `This invoice is for the billing period ${f.date(f.periodStart)} - ${f.date(f.periodEnd)}`
      : `${rng.pick(w.period)}: ${f.date(f.periodStart)} - ${f.date(f.periodEnd)}`;
  const body = `
    <div class="row"><div>${wordmark ? `<span class="title">${escapeHtml(f.supplier.name)}</span>` : logo(rng)}</div>
      <div class="title">${escapeHtml(rng.pick(w.invoice))}</div></div>
    <div class="row" style="margin-top:18px">
      <div class="col"><div class="strong">${escapeHtml(rng.pick(w.billTo))}:</div>${lines([f.customer.name, ...f.customer.addressLines])}</div>
      <div class="col"><table>
        <tr><td class="muted">${escapeHtml(rng.pick(w.number))}:</td><td>${escapeHtml(f.number)}</td></tr>
        <tr><td class="muted">${escapeHtml(rng.pick(w.issued))}:</td><td>${escapeHtml(f.date(f.issue))}</td></tr>
        <tr><td class="muted">${escapeHtml(rng.pick(w.account))}:</td><td>${escapeHtml(account)}</td></tr>
      </table></div></div>
    <div style="border:1px solid #999;padding:10px;margin:18px 0" class="row"><div class="strong">${escapeHtml(`${w.dueOn} ${f.date(due)}`)}</div><div class="big">${escapeHtml(f.money(f.totalCents))}</div></div>
    <div>${escapeHtml(periodText)}</div>
    <h3>${escapeHtml(w.summary)}</h3>${totalsTable(summary, "100%")}
    <h3>${escapeHtml(w.detail)}</h3><table>${detail}</table>
    <div class="footer">${escapeHtml(`${f.supplier.name}, ${f.supplier.addressLines.join(", ")}${f.supplierTaxId ? `. ${regLabel}: ${f.supplierTaxId}` : ""}`)}</div>`;
  labels["customer.address"] = f.customer.addressLines.join(", ");
  return { body: page("body{padding:36px 44px}", body), labels };
}

function letter(f: Facts): { body: string; labels: Record<string, string> } {
  const { rng, w } = f;
  const labels = baseLabels(f);
  labels["supplier.name"] = f.supplier.name;
  labels["customer.address"] = f.customer.addressLines.join(", ");
  const sender = [f.supplier.name, ...f.supplier.addressLines.slice(0, 2)].join(" · ");
  const facts: Array<[string, string]> = [
    [rng.pick(w.number), f.number],
    [rng.pick(w.account), `${rng.letters(1)}${rng.digits(6)}`],
    [rng.pick(w.issued), f.date(f.issue)],
  ];
  if (rng.chance(0.6)) facts.push([rng.pick(w.period), `${f.date(f.periodStart)} - ${f.date(f.periodEnd)}`]);
  const rows = f.items
    .map(
      (it, i) =>
        `<tr><td>${i + 1}</td><td>${escapeHtml(it.description)}</td><td>${escapeHtml(`${f.date(f.periodStart)} - ${f.date(f.periodEnd)}`)}</td><td class="r">${it.qty}</td><td class="r">${escapeHtml(f.money(it.unitCents))}</td><td class="r">${escapeHtml(f.money(it.amountCents))}</td></tr>`,
    )
    .join("");
  const totals: Array<[string, string, boolean?]> = [
    [rng.pick(w.subtotal), f.money(f.subtotalCents)],
    [taxLabel(f), f.money(f.taxCents)],
    [rng.pick(w.total), f.money(f.totalCents), true],
  ];
  labels["invoice.subtotal"] = labelAmount(f.subtotalCents);
  labels["invoice.tax"] = labelAmount(f.taxCents);
  let payText: string;
  if (f.due && rng.chance(0.6)) {
    labels["invoice.dueDate"] = isoDate(f.due);
    payText =
      f.lang === "de"
        ? `Bitte überweisen Sie den Rechnungsbetrag bis zum ${f.date(f.due)} auf unser unten genanntes Konto.`
        : f.lang === "fr"
          ? `Merci de régler cette facture avant le ${f.date(f.due)}.`
          : `Please pay the amount by ${f.date(f.due)} to the account below.`;
  } else {
    const debit = addDays(f.issue, rng.int(3, 10));
    payText =
      f.lang === "de"
        ? `Der Rechnungsbetrag wird am ${f.date(debit)} von Ihrem Konto abgebucht.`
        : f.lang === "fr"
          ? `Le montant sera prélevé sur votre compte le ${f.date(debit)}.`
          : `The amount will be debited from your account on ${f.date(debit)}.`;
  }
  const regLabel = rng.pick(w.registration);
  if (f.supplierTaxId) labels["supplier.taxId"] = f.supplierTaxId.replace(/\s/g, "");
  const wordmark = rng.chance(0.5);
  const footerCols = [
    lines([f.supplier.name, ...f.supplier.addressLines]),
    lines([
      `${f.lang === "de" ? "Geschäftsführer" : f.lang === "fr" ? "Gérant" : "Director"}: ${personName(rng, f.locale.country)}`,
      f.lang === "de"
        ? `Amtsgericht ${rng.pick(["Berlin", "München", "Nürnberg"])} HRB ${rng.digits(5)}`
        : `RCS ${rng.digits(9)}`,
    ]),
    lines(
      f.supplierTaxId
        ? [`${regLabel}: ${f.supplierTaxId}`, `Tel. ${rng.digits(3)} ${rng.digits(7)}`]
        : [`Tel. ${rng.digits(3)} ${rng.digits(7)}`],
    ),
    lines([
      `IBAN ${rng.letters(2)}${rng.digits(2)} ${rng.digits(4)} ${rng.digits(4)} ${rng.digits(4)}`,
      `BIC ${rng.letters(6)}XX`,
    ]),
  ];
  const body = `
    <div class="row"><div style="width:50%;padding-top:70px">
        <div class="muted" style="text-decoration:underline">${escapeHtml(sender)}</div>
        <div style="margin-top:6px">${lines([f.customer.name, ...f.customer.addressLines, ...customerVat(f)])}</div></div>
      <div style="width:45%">${wordmark ? `<div class="title">${escapeHtml(f.supplier.name)}</div>` : logo(rng)}
        <table style="margin-top:30px">${facts.map(([l, v], i) => `<tr><td>${escapeHtml(l)}:</td><td class="r${i < 3 ? " nw" : ""}">${escapeHtml(v)}</td></tr>`).join("")}</table></div></div>
    <div class="big" style="margin-top:40px">${escapeHtml(`${rng.pick(w.invoice)} ${f.number}`)}</div>
    <table style="margin-top:16px"><tr><th>Pos.</th><th>${w.description}</th><th>${escapeHtml(rng.pick(w.period))}</th><th class="r">${w.qty}</th><th class="r">${w.unit}</th><th class="r">${w.amount}</th></tr>${rows}</table>
    <div style="margin-top:10px">${totalsTable(totals)}</div>
    <p style="margin-top:20px">${escapeHtml(payText)}</p>${reverseChargeNote(f)}<p>${escapeHtml(w.thanks)}</p>
    <div class="footer" style="border-top:1px solid #ccc;padding:6px 0"><div class="row">${footerCols.map((c) => `<div class="col">${c}</div>`).join("")}</div></div>`;
  return { body: page("body{padding:40px 50px}", body), labels };
}

function taxInvoice(f: Facts): { body: string; labels: Record<string, string> } {
  const { rng, w } = f;
  const labels = baseLabels(f);
  labels["supplier.name"] = f.supplier.name;
  const reg = f.locale.country === "AU" ? "ABN" : rng.pick(w.registration);
  const sellerLines = [
    f.supplier.name,
    ...(f.supplierTaxId ? [`${reg} ${f.supplierTaxId}`] : []),
    ...f.supplier.addressLines,
  ];
  if (f.supplierTaxId) labels["supplier.taxId"] = f.supplierTaxId.replace(/\s/g, "");
  const facts: Array<[string, string]> = [
    [rng.pick(w.number), f.number],
    [rng.pick(w.issued), f.date(f.issue)],
  ];
  if (f.due) {
    facts.push([rng.pick(w.due), f.date(f.due)]);
    labels["invoice.dueDate"] = isoDate(f.due);
  }
  const taxWord = f.locale.country === "AU" ? "GST" : rng.pick(w.tax);
  const excl = f.lang === "en" ? `${w.subtotal[0]} (excl. ${taxWord})` : rng.pick(w.subtotal);
  const incl = f.lang === "en" ? `Total (incl. ${taxWord})` : rng.pick(w.total);
  const totals: Array<[string, string, boolean?]> = [
    [excl, f.money(f.subtotalCents)],
    [`${taxWord} ${f.taxRate}%`, f.money(f.taxCents)],
    [incl, f.money(f.totalCents), true],
  ];
  labels["invoice.subtotal"] = labelAmount(f.subtotalCents);
  labels["invoice.tax"] = labelAmount(f.taxCents);
  const amountDue = f.paid ? 0 : f.totalCents;
  if (f.paid) totals.push([w.amountPaid, rng.chance(0.5) ? `(${f.money(f.totalCents)})` : f.money(f.totalCents)]);
  totals.push([rng.pick(w.amountDue), f.money(amountDue), true]);
  labels["invoice.amountDue"] = labelAmount(amountDue);
  // A company's billing contact is printed over its name; a person billed is the contact.
  const contact = !f.customerPerson && rng.chance(0.5) ? [personName(rng, f.locale.country)] : [];
  const billed = [...contact, f.customer.name, ...customerVat(f), f.customerEmail];
  const body = `
    <div class="row"><div class="title">${escapeHtml(rng.pick(w.taxInvoice))}</div><div>${logo(rng)}</div></div>
    <table style="width:auto;margin-top:14px">${facts.map(([l, v]) => `<tr><td class="muted">${escapeHtml(l)}</td><td class="nw">${escapeHtml(v)}</td></tr>`).join("")}</table>
    <div class="row" style="margin-top:20px">
      <div class="col"><div class="muted">${escapeHtml(rng.pick(w.from))}</div>${lines(sellerLines)}</div>
      <div class="col"><div class="muted">${escapeHtml(rng.pick(w.billTo))}</div>${lines(billed)}</div></div>
    <table style="margin-top:26px"><tr><th>${w.description}</th><th class="r">${w.qty}</th><th class="r">${w.unit}</th><th class="r">${w.amount} (${f.locale.currency})</th></tr>${itemRows(f, rng.chance(0.5), true)}</table>
    <div style="margin-top:10px">${totalsTable(totals)}</div>
    ${f.paid ? "" : `<p>${escapeHtml(`${w.next}: ${f.date(addMonths(f.issue, 1))}`)}</p>`}${reverseChargeNote(f)}
    <div class="footer">${escapeHtml(`${w.questions} support@${f.domain}`)}</div>`;
  return { body: page("body{padding:36px 44px}", body), labels };
}

function receipt(f: Facts): { body: string; labels: Record<string, string> } {
  const { rng, w } = f;
  const labels = baseLabels(f);
  const named = rng.chance(0.85);
  if (named) labels["supplier.name"] = f.supplier.name;
  const title = named
    ? f.lang === "en"
      ? `Receipt from ${f.supplier.name}`
      : f.lang === "de"
        ? `Zahlungsbeleg von ${f.supplier.name}`
        : `Reçu de ${f.supplier.name}`
    : rng.pick(w.receipt);
  const summary: Array<[string, string, boolean?]> = f.items.map((it) => [
    it.qty > 1 ? `${it.description} × ${it.qty}` : it.description,
    f.money(it.amountCents),
  ]);
  if (f.taxCents > 0) {
    summary.push([taxLabel(f), f.money(f.taxCents)]);
    labels["invoice.tax"] = labelAmount(f.taxCents);
  }
  summary.push([w.total[0], f.money(f.totalCents), true]);
  summary.push([f.lang === "en" ? rng.pick(["Amount charged", w.amountPaid]) : w.amountPaid, f.money(f.totalCents)]);
  const body = `
    <div style="text-align:center">${logo(rng)}<div class="big" style="margin:10px 0">${escapeHtml(title)}</div>
      <div class="muted">${escapeHtml(`${w.receiptNo[0]} ${f.number}`)}</div></div>
    <div class="row" style="margin:24px 0">
      <div class="col"><div class="muted">${escapeHtml(w.amountPaid)}</div><div class="strong">${escapeHtml(f.money(f.totalCents))}</div></div>
      <div class="col"><div class="muted">${escapeHtml(w.paidOn[0])}</div><div class="strong">${escapeHtml(f.date(f.issue))}</div></div>
      <div class="col"><div class="muted">${escapeHtml(w.method)}</div><div class="strong">${escapeHtml(`Mastercard – ${rng.digits(4)}`)}</div></div></div>
    <div class="muted">${escapeHtml(w.summary)}</div>${totalsTable(summary, "100%")}
    <div style="margin-top:16px">${lines([f.customer.name, f.customerEmail])}</div>
    <p class="muted">${escapeHtml(`${w.questions} support@${f.domain}`)}</p>
    ${named && rng.chance(0.6) ? `<div class="footer">${escapeHtml(`${f.supplier.name}, ${f.supplier.addressLines.join(", ")}`)}</div>` : ""}`;
  return { body: page("body{padding:40px 120px}", body), labels };
}

const TEMPLATE_WORDS = {
  en: {
    date: "DATE",
    number: ["INVOICE #", "INVOICE NO."],
    customerId: "CUSTOMER ID",
    due: "DUE DATE",
    billTo: "BILL TO",
    shipTo: "SHIP TO",
    phone: "Phone",
    salesperson: "SALESPERSON",
    po: "P.O. #",
    shipVia: "SHIP VIA",
    terms: "PAYMENT TERMS",
    termsValue: (days: number) => (days === 0 ? "Due on receipt" : `Net ${days}`),
    carriers: ["UPS Ground", "FedEx", "USPS Priority", "Courier", "Pickup"],
    item: "ITEM #",
    description: "DESCRIPTION",
    qty: "QTY",
    unit: "UNIT PRICE",
    amount: ["AMOUNT", "LINE TOTAL", "TOTAL"],
    subtotal: ["SUBTOTAL", "Subtotal"],
    taxRate: "TAX RATE",
    tax: ["TAX", "SALES TAX", "Sales Tax"],
    shipping: ["SHIPPING", "S & H", "Shipping & Handling"],
    other: "OTHER",
    total: ["TOTAL", "Total"],
    balance: "BALANCE DUE",
    comments: "Other Comments",
    commentLines: ["1. Total payment due in 30 days", "2. Please include the invoice number on your check"],
    payable: (name: string) => `Make all checks payable to ${name}`,
    contact: (who: string) => `If you have any questions about this invoice, please contact ${who}`,
    thanks: "Thank you for your business!",
  },
  de: {
    date: "DATUM",
    number: ["RECHNUNG NR.", "RECHNUNGSNR."],
    customerId: "KUNDENNR.",
    due: "FÄLLIG AM",
    billTo: "RECHNUNG AN",
    shipTo: "LIEFERN AN",
    phone: "Telefon",
    salesperson: "BEARBEITER",
    po: "BESTELLNR.",
    shipVia: "VERSANDART",
    terms: "ZAHLUNGSBEDINGUNGEN",
    termsValue: (days: number) => (days === 0 ? "Sofort fällig" : `${days} Tage netto`),
    carriers: ["DHL Paket", "Hermes", "Spedition", "Abholung"],
    item: "ART.-NR.",
    description: "BESCHREIBUNG",
    qty: "MENGE",
    unit: "EINZELPREIS",
    amount: ["BETRAG", "GESAMTPREIS"],
    subtotal: ["ZWISCHENSUMME", "Zwischensumme"],
    taxRate: "STEUERSATZ",
    tax: ["MWST.", "UMSATZSTEUER"],
    shipping: ["VERSAND", "Versandkosten"],
    other: "SONSTIGES",
    total: ["GESAMT", "Gesamtbetrag"],
    balance: "OFFENER BETRAG",
    comments: "Bemerkungen",
    commentLines: ["1. Zahlbar innerhalb von 30 Tagen", "2. Bitte geben Sie die Rechnungsnummer an"],
    payable: (name: string) => `Zahlungsempfänger: ${name}`,
    contact: (who: string) => `Bei Fragen zu dieser Rechnung wenden Sie sich bitte an ${who}`,
    thanks: "Vielen Dank für Ihren Auftrag!",
  },
  fr: {
    date: "DATE",
    number: ["FACTURE N°", "N° DE FACTURE"],
    customerId: "N° CLIENT",
    due: "ÉCHÉANCE",
    billTo: "FACTURER À",
    shipTo: "LIVRER À",
    phone: "Tél.",
    salesperson: "COMMERCIAL",
    po: "BON DE COMMANDE",
    shipVia: "EXPÉDITION",
    terms: "CONDITIONS DE PAIEMENT",
    termsValue: (days: number) => (days === 0 ? "À réception" : `${days} jours net`),
    carriers: ["Colissimo", "Chronopost", "Transporteur", "Retrait"],
    item: "RÉF.",
    description: "DESCRIPTION",
    qty: "QTÉ",
    unit: "PRIX UNITAIRE",
    amount: ["MONTANT", "TOTAL LIGNE"],
    subtotal: ["SOUS-TOTAL", "Sous-total"],
    taxRate: "TAUX DE TVA",
    tax: ["TVA", "MONTANT TVA"],
    shipping: ["FRAIS DE PORT", "Livraison"],
    other: "AUTRE",
    total: ["TOTAL", "Total TTC"],
    balance: "SOLDE DÛ",
    comments: "Commentaires",
    commentLines: ["1. Paiement à 30 jours", "2. Merci de rappeler le numéro de facture"],
    payable: (name: string) => `Chèques à l'ordre de ${name}`,
    contact: (who: string) => `Pour toute question concernant cette facture, contactez ${who}`,
    thanks: "Merci de votre confiance !",
  },
} as const;

/** An office suite's invoice template filled in (see the family list at the top of this file). */
function officeTemplate(f: Facts): { body: string; labels: Record<string, string> } {
  const { rng } = f;
  const t = TEMPLATE_WORDS[f.lang];
  const labels = baseLabels(f);
  labels["supplier.name"] = f.supplier.name;
  const phone = `${rng.digits(3)} ${rng.digits(3)} ${rng.digits(4)}`;
  const seller = [
    ...f.supplier.addressLines,
    `${t.phone}: ${phone}`,
    rng.chance(0.5) ? `www.${f.domain}` : `info@${f.domain}`,
  ];
  // The seller's tax id, where the country prints one, under the letterhead or in the footer.
  const taxIdLine = f.supplierTaxId && f.locale.country !== "US" && rng.chance(0.6);
  if (taxIdLine && f.supplierTaxId) labels["supplier.taxId"] = f.supplierTaxId.replace(/\s/g, "");
  const taxIdText = taxIdLine ? `${rng.pick(f.w.registration)} ${f.supplierTaxId}` : "";
  const taxIdInFooter = rng.chance(0.5);
  if (taxIdText && !taxIdInFooter) seller.push(taxIdText);
  const tagline = rng.chance(0.3)
    ? rng.pick(["Quality service since 1998", "Your trusted partner", "Fast. Reliable. Local."])
    : "";
  // The facts grid under the title: the due date in it, in the terms strip below, or nowhere.
  const dueIn = f.due
    ? rng.weighted<"grid" | "strip" | "none">([
        ["grid", 2],
        ["strip", 2],
        ["none", 1],
      ])
    : "none";
  if (f.due && dueIn !== "none") labels["invoice.dueDate"] = isoDate(f.due);
  const facts: Array<[string, string]> = [
    [t.date, f.date(f.issue)],
    [rng.pick(t.number), f.number],
  ];
  if (rng.chance(0.6)) facts.push([t.customerId, `${rng.letters(3)}${rng.digits(4)}`]);
  if (f.due && dueIn === "grid") facts.push([t.due, f.date(f.due)]);
  // Bill to (a contact person over a company), Ship to beside it: the same company or another site of it.
  const contact = !f.customerPerson && rng.chance(0.4) ? [personName(rng, f.locale.country)] : [];
  const billTo = [
    ...contact,
    f.customer.name,
    ...f.customer.addressLines,
    `${t.phone}: ${rng.digits(3)} ${rng.digits(3)} ${rng.digits(4)}`,
  ];
  const shipTo = rng.chance(0.65)
    ? rng.chance(0.5)
      ? [f.customer.name, ...f.customer.addressLines]
      : [personName(rng, f.locale.country), f.customer.name, ...party(rng, f.locale.country, true, false).addressLines]
    : null;
  const strip: Array<[string, string]> = [];
  if (rng.chance(0.6)) {
    const days = rng.pick([0, 15, 30, 30, 45]);
    strip.push([t.salesperson, personName(rng, f.locale.country)]);
    if (rng.chance(0.5)) strip.push([t.po, `${rng.digits(5)}`]);
    strip.push([t.shipVia, rng.pick(t.carriers)]);
    strip.push([t.terms, t.termsValue(days)]);
  }
  if (f.due && dueIn === "strip") strip.push([t.due, f.date(f.due)]);
  const amountWord = rng.pick(t.amount);
  const blankRows = rng.int(0, 5);
  const rows = [
    ...f.items.map(
      (it) =>
        `<tr><td>${escapeHtml(it.description)}</td><td class="r">${it.qty}</td><td class="r">${escapeHtml(f.money(it.unitCents))}</td><td class="r">${escapeHtml(f.money(it.amountCents))}</td></tr>`,
    ),
    ...Array.from({ length: blankRows }, () => "<tr><td>&nbsp;</td><td></td><td></td><td></td></tr>"),
  ].join("");
  // Shipping is charged after the tax here (the tax is on the goods), and "Other" is left blank or at nil.
  const shippingCents = rng.chance(0.5) ? rng.int(5, 40) * 100 + rng.pick([0, 0, 50, 99]) : 0;
  const totalCents = f.totalCents + shippingCents;
  labels["invoice.total"] = labelAmount(totalCents);
  labels["invoice.subtotal"] = labelAmount(f.subtotalCents);
  const totals: Array<[string, string, boolean?]> = [[rng.pick(t.subtotal), f.money(f.subtotalCents)]];
  if (rng.chance(0.6)) totals.push([t.taxRate, `${f.taxRate.toFixed(rng.pick([1, 2, 3]))}%`]);
  if (f.taxRate > 0 || rng.chance(0.6)) {
    totals.push([rng.pick(t.tax), f.money(f.taxCents)]);
    labels["invoice.tax"] = labelAmount(f.taxCents);
  }
  if (shippingCents > 0) totals.push([rng.pick(t.shipping), f.money(shippingCents)]);
  if (rng.chance(0.3)) totals.push([t.other, rng.pick(["-", f.money(0)])]);
  const balance = rng.chance(0.3);
  totals.push([balance ? t.balance : rng.pick(t.total), f.money(totalCents), true]);
  if (balance) labels["invoice.amountDue"] = labelAmount(totalCents);
  const comments = rng.chance(0.5)
    ? `<div style="width:50%;border:1px solid #999"><div style="background:#dde;padding:2px 6px" class="strong">${escapeHtml(t.comments)}</div><div style="padding:4px 6px">${lines(t.commentLines)}</div></div>`
    : "<div></div>";
  const who = `${personName(rng, f.locale.country)}, ${phone}, ${rng.chance(0.5) ? `billing@${f.domain}` : `accounts@${f.domain}`}`;
  const cell = 'style="border:1px solid #888;padding:3px 6px"';
  const body = `
    <div class="row"><div><div class="title" style="font-size:18pt">${escapeHtml(f.supplier.name)}</div>
        ${tagline ? `<div class="muted" style="font-style:italic">${escapeHtml(tagline)}</div>` : ""}${lines(seller)}</div>
      <div style="text-align:right"><div style="font-size:28pt;color:#8fa3c8;font-weight:700">${escapeHtml(f.w.invoice[1])}</div>
        <table style="width:auto;margin-left:auto">${facts.map(([l, v]) => `<tr><td class="strong">${escapeHtml(l)}</td><td ${cell} class="nw">${escapeHtml(v)}</td></tr>`).join("")}</table></div></div>
    <div class="row" style="margin-top:22px">
      <div class="col"><div style="background:#3b5a8c;color:#fff;padding:2px 6px" class="strong">${escapeHtml(t.billTo)}</div>${lines(billTo)}</div>
      ${shipTo ? `<div class="col"><div style="background:#3b5a8c;color:#fff;padding:2px 6px" class="strong">${escapeHtml(t.shipTo)}</div>${lines(shipTo)}</div>` : '<div class="col"></div>'}</div>
    ${strip.length > 0 ? `<table style="margin-top:18px"><tr>${strip.map(([l]) => `<th ${cell}>${escapeHtml(l)}</th>`).join("")}</tr><tr>${strip.map(([, v]) => `<td ${cell}>${escapeHtml(v)}</td>`).join("")}</tr></table>` : ""}
    <table style="margin-top:18px"><tr><th ${cell}>${escapeHtml(t.description)}</th><th ${cell} class="r">${escapeHtml(t.qty)}</th><th ${cell} class="r">${escapeHtml(t.unit)}</th><th ${cell} class="r">${escapeHtml(amountWord)}</th></tr>
      ${rows.replace(/<td/g, `<td ${cell}`)}</table>
    <div class="row" style="margin-top:10px">${comments}${totalsTable(totals, "40%")}</div>
    <p style="margin-top:24px;text-align:center">${escapeHtml(t.payable(f.supplier.name))}</p>
    <p style="text-align:center" class="muted">${escapeHtml(t.contact(who))}</p>
    <p style="text-align:center" class="strong">${escapeHtml(t.thanks)}</p>
    ${taxIdText && taxIdInFooter ? `<div class="footer" style="text-align:center">${escapeHtml(`${f.supplier.name} · ${taxIdText}`)}</div>` : ""}`;
  return { body: page("body{padding:36px 44px}", body), labels };
}

/** Goods sold on a marketplace (the SaaS items of the other families are services). */
const MARKET_ITEMS: Record<Lang, readonly string[]> = {
  en: [
    "Stainless steel water bottle, 750 ml",
    "USB-C charging cable (2 m, braided)",
    "Wireless mouse, ergonomic, black",
    "Cotton bath towel set of 4",
    "LED desk lamp with dimmer",
    "Ceramic coffee mug 350 ml, white",
    "Notebook A5 dotted, 120 pages",
    "Bluetooth speaker, waterproof",
    "Yoga mat 6 mm, non-slip",
    "Kitchen scale, digital, 5 kg",
  ],
  de: [
    "Edelstahl-Trinkflasche 750 ml",
    "USB-C Ladekabel (2 m, geflochten)",
    "Kabellose Maus, ergonomisch, schwarz",
    "Baumwoll-Handtuchset, 4-teilig",
    "LED-Schreibtischlampe mit Dimmer",
    "Keramik-Kaffeebecher 350 ml, weiß",
    "Notizbuch A5 gepunktet, 120 Seiten",
    "Bluetooth-Lautsprecher, wasserdicht",
    "Yogamatte 6 mm, rutschfest",
    "Digitale Küchenwaage bis 5 kg",
  ],
  fr: [
    "Gourde en inox 750 ml",
    "Câble de charge USB-C (2 m, tressé)",
    "Souris sans fil ergonomique, noire",
    "Lot de 4 serviettes en coton",
    "Lampe de bureau LED avec variateur",
    "Mug en céramique 350 ml, blanc",
    "Carnet A5 pointillé, 120 pages",
    "Enceinte Bluetooth étanche",
    "Tapis de yoga 6 mm antidérapant",
    "Balance de cuisine numérique 5 kg",
  ],
};

const MARKET_WORDS = {
  en: {
    title: ["Tax Invoice", "Invoice", "Tax Invoice/Bill of Supply"],
    original: "(Original for Recipient)",
    soldBy: "Sold By :",
    vat: ["VAT Registration No:", "VAT Reg. No.:", "VAT Number:"],
    billing: "Billing Address :",
    shipping: "Shipping Address :",
    order: ["Order Number:", "Order No.:", "Order ID:"],
    orderDate: "Order Date:",
    invoiceNo: ["Invoice Number :", "Invoice No. :"],
    invoiceDate: ["Invoice Date :", "Invoice Date:"],
    heads: ["Sl. No", "Description", "Unit Price", "Qty", "Net Amount", "Tax Rate", "Tax Amount", "Total Amount"],
    shippingRow: "Shipping Charges",
    total: "TOTAL:",
    signatory: (seller: string) => [`For ${seller}:`, "Authorized Signatory"],
    note: "Whether tax is payable under reverse charge - No",
  },
  de: {
    title: ["Rechnung", "RECHNUNG"],
    original: "(Original für den Empfänger)",
    soldBy: "Verkauft von:",
    vat: ["USt-IdNr.:", "USt-ID:"],
    billing: "Rechnungsadresse:",
    shipping: "Lieferadresse:",
    order: ["Bestellnummer:", "Bestell-Nr.:"],
    orderDate: "Bestelldatum:",
    invoiceNo: ["Rechnungsnummer:", "Rechnungs-Nr.:"],
    invoiceDate: ["Rechnungsdatum:", "Rechnungsdatum :"],
    heads: ["Pos.", "Beschreibung", "Stückpreis", "Menge", "Nettobetrag", "USt-Satz", "USt-Betrag", "Gesamtbetrag"],
    shippingRow: "Versandkosten",
    total: "GESAMT:",
    signatory: (seller: string) => [`Für ${seller}:`, "Zeichnungsberechtigter"],
    note: "Steuerschuldnerschaft des Leistungsempfängers - Nein",
  },
  fr: {
    title: ["Facture", "FACTURE"],
    original: "(Original pour le destinataire)",
    soldBy: "Vendu par :",
    vat: ["N° TVA :", "Numéro de TVA :"],
    billing: "Adresse de facturation :",
    shipping: "Adresse de livraison :",
    order: ["Numéro de commande :", "N° de commande :"],
    orderDate: "Date de commande :",
    invoiceNo: ["Numéro de facture :", "N° de facture :"],
    invoiceDate: ["Date de facture :", "Date de facturation :"],
    heads: ["N°", "Description", "Prix unitaire", "Qté", "Montant HT", "Taux TVA", "Montant TVA", "Montant TTC"],
    shippingRow: "Frais de livraison",
    total: "TOTAL :",
    signatory: (seller: string) => [`Pour ${seller} :`, "Signataire autorisé"],
    note: "Autoliquidation de la TVA - Non",
  },
} as const;

/** An online marketplace's order invoice for a third-party seller (see the family list at the top of this file). */
function marketplace(f: Facts): { body: string; labels: Record<string, string>; rows: LineItemLabel[] } {
  const { rng } = f;
  const t = MARKET_WORDS[f.lang];
  const labels = baseLabels(f);
  labels["supplier.name"] = f.supplier.name;
  // The goods: their own names, the facts' quantities and prices; a VAT rate of the country on every row.
  const rate = f.taxRate > 0 ? f.taxRate : rng.pick([7, 10, 19, 20]);
  const goods = f.items.map((it) => ({ ...it, description: rng.pick(MARKET_ITEMS[f.lang]) }));
  const shippingCents = rng.chance(0.5) ? rng.int(3, 12) * 100 - rng.pick([0, 1, 5]) : 0;
  const entries = [
    ...goods.map((it) => ({
      description: it.description,
      qty: it.qty as number | null,
      unitCents: it.unitCents as number | null,
      netCents: it.amountCents,
      detail: `ASIN: B0${rng.letters(2)}${rng.digits(6)} ( ${rng.letters(3)}-${rng.digits(4)} )`,
    })),
    ...(shippingCents > 0
      ? [{ description: t.shippingRow, qty: null, unitCents: null, netCents: shippingCents, detail: "" }]
      : []),
  ];
  const taxOf = (cents: number): number => Math.round((cents * rate) / 100);
  const taxCents = entries.reduce((s, l) => s + taxOf(l.netCents), 0);
  const netCents = entries.reduce((s, l) => s + l.netCents, 0);
  const totalCents = netCents + taxCents;
  labels["invoice.total"] = labelAmount(totalCents);
  labels["invoice.tax"] = labelAmount(taxCents);
  // A seller of a country without VAT (the US) prints no VAT number.
  const taxIdText = f.supplierTaxId;
  if (taxIdText) labels["supplier.taxId"] = taxIdText.replace(/\s/g, "");
  const order = `${rng.digits(3)}-${rng.digits(7)}-${rng.digits(7)}`;
  const orderDate = addDays(f.issue, -rng.int(0, 6));
  const rateText = `${rate}%`;
  const cell = 'style="border:1px solid #999;padding:3px 5px"';
  const head = t.heads.map((h, i) => `<th ${cell}${i >= 2 ? ' class="r"' : ""}>${escapeHtml(h)}</th>`).join("");
  const body = entries
    .map((l, i) => {
      const tax = taxOf(l.netCents);
      const description = `${escapeHtml(l.description)}${l.detail ? `<div class="muted">${escapeHtml(l.detail)}</div>` : ""}`;
      return `<tr><td ${cell}>${l.qty === null ? "" : i + 1}</td><td ${cell}>${description}</td><td ${cell} class="r nw">${l.unitCents === null ? "" : escapeHtml(f.money(l.unitCents))}</td><td ${cell} class="r">${l.qty ?? ""}</td><td ${cell} class="r nw">${escapeHtml(f.money(l.netCents))}</td><td ${cell} class="r">${rateText}</td><td ${cell} class="r nw">${escapeHtml(f.money(tax))}</td><td ${cell} class="r nw">${escapeHtml(f.money(l.netCents + tax))}</td></tr>`;
    })
    .join("");
  const totalRow = `<tr class="strong"><td ${cell} colspan="6">${escapeHtml(t.total)}</td><td ${cell} class="r nw">${escapeHtml(f.money(taxCents))}</td><td ${cell} class="r nw">${escapeHtml(f.money(totalCents))}</td></tr>`;
  const facts: Array<[string, string]> = [
    [rng.pick(t.order), order],
    [t.orderDate, f.date(orderDate)],
    [rng.pick(t.invoiceNo), f.number],
    [rng.pick(t.invoiceDate), f.date(f.issue)],
  ];
  const factLines = facts
    .map(([l, v]) => `<div><span class="strong">${escapeHtml(l)}</span> ${escapeHtml(v)}</div>`)
    .join("");
  const shipTo = rng.chance(0.6)
    ? [f.customer.name, ...f.customer.addressLines]
    : [personName(rng, f.locale.country), ...party(rng, f.locale.country, true, false).addressLines];
  const html = `
    <div class="row"><div>${logo(rng)}</div><div style="text-align:right"><div class="big">${escapeHtml(rng.pick(t.title))}</div><div class="muted">${escapeHtml(t.original)}</div></div></div>
    <div class="row" style="margin-top:18px">
      <div class="col"><div class="strong">${escapeHtml(t.soldBy)}</div><div class="strong">${escapeHtml(f.supplier.name)}</div>${lines(f.supplier.addressLines)}${taxIdText ? `<div><span class="strong">${escapeHtml(rng.pick(t.vat))}</span> ${escapeHtml(taxIdText)}</div>` : ""}</div>
      <div class="col" style="text-align:right"><div class="strong">${escapeHtml(t.billing)}</div>${lines([f.customer.name, ...f.customer.addressLines])}</div></div>
    <div class="row" style="margin-top:14px"><div class="col">${factLines}</div>
      <div class="col" style="text-align:right"><div class="strong">${escapeHtml(t.shipping)}</div>${lines(shipTo)}</div></div>
    <table style="margin-top:18px;font-size:9pt"><tr>${head}</tr>${body}${totalRow}</table>
    <p class="muted">${escapeHtml(t.note)}</p>
    <div style="text-align:right;margin-top:24px">${lines(t.signatory(f.supplier.name))}</div>`;
  const rows: LineItemLabel[] = entries.map((l) => ({
    description: l.description,
    quantity: l.qty === null ? null : String(l.qty),
    unitPrice: l.unitCents === null ? null : labelAmount(l.unitCents),
    amount: labelAmount(l.netCents),
    taxRate: rate.toFixed(2),
    productCode: null,
  }));
  return { body: page("body{padding:32px 40px}", html), labels, rows };
}

const RENDER: Record<
  HtmlLayout,
  (f: Facts) => { body: string; labels: Record<string, string>; rows?: LineItemLabel[] }
> = {
  hosted,
  cloud,
  letter,
  "tax-invoice": taxInvoice,
  receipt,
  template: officeTemplate,
  marketplace,
};

/**
 * The item rows as the layout prints them: tables print quantity and unit price; a cloud bill's detail prints them
 * only as "16 x £42.75" under an item bought more than once, a receipt card only its quantity ("Pro plan × 3").
 */
function lineItemLabels(f: Facts, layout: HtmlLayout): LineItemLabel[] {
  const table = layout === "hosted" || layout === "letter" || layout === "tax-invoice" || layout === "template";
  return f.items.map((it) => ({
    description: it.description,
    quantity: table || it.qty > 1 ? String(it.qty) : null,
    unitPrice: table || (layout === "cloud" && it.qty > 1) ? labelAmount(it.unitCents) : null,
    amount: labelAmount(it.amountCents),
    taxRate: null,
    productCode: null,
  }));
}

/** One invoice from one seed: its HTML and the labels of what it prints (in `only` that family, else one drawn). */
export function htmlInvoice(seed: number, only?: HtmlLayout): HtmlInvoice {
  // Forked first: the corpus plan's seeds are close together, and a first draw straight from them is not spread.
  const rng = new Rng(seed).fork();
  // Drawn even when `only` names the family, so a seed's facts are the same whichever family prints them.
  const drawn = rng.weighted(LAYOUTS);
  const layout = only ?? drawn;
  const facts = planFacts(rng.fork(), layout);
  const { body, labels, rows } = RENDER[layout](facts);
  return {
    html: body,
    labels: { ...labels, "invoice.lineItems": rows ?? lineItemLabels(facts, layout) },
    layout,
    locale: facts.locale.tag,
    paper: facts.locale.paper,
  };
}
