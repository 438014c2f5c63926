/**
 * Synthetic line-item tables (issue #18): seeded invoices whose table is what varies, for volume where the dev corpus
 * has a handful of layouts. Eight languages (en, de, fr, es, nl, it, pt, ms); column sets and orders (code, position,
 * unit, tax-rate columns; unit price before or after the quantity; quantity first; tax rate after the amount);
 * header cells printed on one or two lines; descriptions wrapped to the column's width; discounts and surcharges as
 * rows without quantity; several tax rates; tables running over several pages with or without a repeated header,
 * carried/brought-forward lines, page totals and page footers; stacked rows (each row's description on its own
 * line(s), its figures on the line under it, a code under the description); money header cells with a qualifier
 * ("Montant HT", "Price excl. VAT"); tall blocks (a description over three to six lines with the figures, running
 * number and code on a line in its middle); priced rows (a block of three lines each, "(Gross: 12,00)" over the figures,
 * the discount where the unit price stands, "(Net): 10,00" under them, blocks far apart, the description from the
 * figures' line or from the gross price's line on) with a tax breakdown (titles over rates, bases and taxes) under the
 * table; offset rows (a product's name on the line above its figures, a detail line under them, the figures' line with
 * no description text or only a running number); an amount column whose header is blank or a word the reader does not
 * know; English quantity columns headed "Amount" beside a "Total" column.
 * Each document is a pure function of its seed.
 *   npm run bench:line-items-synth -- --out bench/out/li-tables --count 200 --seed 1 [--no-scans] [--concurrency N]
 * writes digital/NNNN.pdf and scan/NNNN.jpg|pdf (bench/synth/scan.ts) with labels.jsonl in the dev corpora's format
 * (`invoice.lineItems`, `invoice.subtotal`, `invoice.total`, "locale"); score with `npm run bench:line-items`.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { PDFDocument } from "pdf-lib";
import { labelAmount, writeDecimal, writeNumber } from "./synth/format.js";
import type { LineItemLabel } from "./synth/line-items.js";
import type { NumberStyle } from "./synth/locales.js";
import { ITEMS } from "./synth/parties.js";
import { Rng } from "./synth/prng.js";
import { degradeToScan } from "./synth/scan.js";
import { embedFamily, type FontFamily, Sheet } from "./synth/sheet.js";

export type TableLang = "en" | "de" | "fr" | "es" | "nl" | "it" | "pt" | "ms";
type Role = "position" | "code" | "description" | "quantity" | "unit" | "unitPrice" | "taxRate" | "amount";

/** Header cells per language: each a one-line form and a two-line (stacked) form. */
const HEADERS: Record<TableLang, Record<Role, readonly (readonly string[])[]>> = {
  en: {
    position: [["#"], ["No."]],
    code: [["Code"], ["Item", "code"], ["SKU"]],
    description: [["Description"], ["Item", "description"], ["Service"]],
    quantity: [["Qty"], ["Quantity"], ["Hours"]],
    unit: [["Unit"], ["UoM"]],
    unitPrice: [["Unit price"], ["Unit", "price"], ["Rate"], ["Price", "each"]],
    taxRate: [["VAT %"], ["Tax", "rate"], ["VAT"]],
    amount: [["Amount"], ["Line", "total"], ["Net", "amount"], ["Total"]],
  },
  de: {
    position: [["Pos."], ["Nr."]],
    code: [["Art.-Nr."], ["Artikel-", "nummer"]],
    description: [["Bezeichnung"], ["Beschreibung"], ["Leistung"]],
    quantity: [["Menge"], ["Anzahl"], ["Std."]],
    unit: [["Einheit"], ["ME"]],
    unitPrice: [["Einzelpreis"], ["Einzel-", "preis"], ["E-Preis"], ["Preis je", "Einheit"]],
    taxRate: [["MwSt. %"], ["USt.-", "Satz"], ["MwSt."]],
    amount: [["Gesamt"], ["Gesamt-", "preis"], ["Betrag"], ["Netto-", "betrag"]],
  },
  fr: {
    position: [["N°"], ["#"]],
    code: [["Réf."], ["Code", "article"], ["Référence"]],
    description: [["Désignation"], ["Description"], ["Libellé"]],
    quantity: [["Qté"], ["Quantité"]],
    unit: [["Unité"]],
    unitPrice: [["Prix unitaire"], ["Prix", "unitaire HT"], ["P.U. HT"], ["PU", "HT"]],
    taxRate: [["TVA"], ["Taux", "TVA"], ["TVA %"]],
    amount: [["Montant HT"], ["Montant", "HT"], ["Total HT"], ["Total", "HT"]],
  },
  es: {
    position: [["Nº"], ["#"]],
    code: [["Código"], ["Ref."], ["Referencia"]],
    description: [["Descripción"], ["Concepto"], ["Artículo"]],
    quantity: [["Cantidad"], ["Cant."], ["Uds."]],
    unit: [["Unidad"]],
    unitPrice: [["Precio unitario"], ["Precio", "unitario"], ["Precio"]],
    taxRate: [["IVA"], ["IVA %"], ["Tipo", "IVA"]],
    amount: [["Importe"], ["Total"], ["Importe", "neto"]],
  },
  nl: {
    position: [["Nr."], ["#"]],
    code: [["Artikelnr."], ["Code"]],
    description: [["Omschrijving"], ["Beschrijving"], ["Artikel"]],
    quantity: [["Aantal"], ["Aant."]],
    unit: [["Eenheid"]],
    unitPrice: [["Prijs"], ["Stukprijs"], ["Prijs per", "eenheid"]],
    taxRate: [["BTW"], ["BTW %"]],
    amount: [["Bedrag"], ["Totaal"], ["Regel-", "totaal"]],
  },
  it: {
    position: [["N."], ["#"]],
    code: [["Codice"], ["Cod.", "articolo"]],
    description: [["Descrizione"], ["Articolo"], ["Prodotto"]],
    quantity: [["Q.tà"], ["Quantità"]],
    unit: [["Unità"], ["U.M."]],
    unitPrice: [["Prezzo unitario"], ["Prezzo", "unitario"], ["Prezzo"]],
    taxRate: [["IVA"], ["IVA %"], ["Aliquota", "IVA"]],
    amount: [["Importo"], ["Totale"], ["Importo", "netto"]],
  },
  pt: {
    position: [["N.º"], ["#"]],
    code: [["Código"], ["Ref."], ["Artigo"]],
    description: [["Descrição"], ["Produto"], ["Serviço"]],
    quantity: [["Qtd."], ["Quantidade"]],
    unit: [["Unidade"], ["Un."]],
    unitPrice: [["Preço unitário"], ["Preço", "unitário"], ["Preço"]],
    taxRate: [["IVA"], ["Taxa", "IVA"], ["IVA %"]],
    amount: [["Valor"], ["Total"], ["Montante"]],
  },
  ms: {
    position: [["Bil."], ["No."]],
    code: [["Kod"], ["Kod", "item"]],
    description: [["Keterangan"], ["Perihal"], ["Butiran"]],
    quantity: [["Kuantiti"], ["Kuantiti", "(unit)"]],
    unit: [["Unit"]],
    unitPrice: [["Harga seunit"], ["Harga", "seunit"], ["Harga", "unit"]],
    taxRate: [["SST"], ["Cukai", "%"]],
    amount: [["Jumlah"], ["Amaun"], ["Jumlah", "(RM)"]],
  },
};

/** Items in the languages bench/synth/parties.ts does not cover. */
const MORE_ITEMS: Record<"it" | "pt" | "ms", readonly string[]> = {
  it: ["Consulenza tecnica", "Manutenzione impianto", "Licenza software annuale", "Carta A4 (5 risme)", "Trasporto"],
  pt: ["Serviços de consultoria", "Manutenção do site", "Licença de software anual", "Papel A4 (caixa de 5)", "Portes"],
  ms: [
    "Perkhidmatan konsultasi",
    "Penyelenggaraan laman web",
    "Lesen perisian tahunan",
    "Kertas A4 (5 rim)",
    "Kos penghantaran",
  ],
};

/** Labels of the detail lines ERP invoices print under a row ("Delivery date: ...", "Order no: ..."). */
const DETAIL_KEYS: Record<TableLang, readonly string[]> = {
  en: ["Delivery date", "Order no", "Delivery note", "Packaging"],
  de: ["Lieferdatum", "Bestell-Nr", "Lieferschein-Nr.", "Verpackung"],
  fr: ["Date de livraison", "N° de commande", "Bon de livraison", "Conditionnement"],
  es: ["Fecha de entrega", "Pedido n.º", "Albarán", "Embalaje"],
  nl: ["Leverdatum", "Ordernr", "Pakbon", "Verpakking"],
  it: ["Data consegna", "N. ordine", "DDT n.", "Imballo"],
  pt: ["Data de entrega", "Encomenda n.º", "Guia de remessa", "Embalagem"],
  ms: ["Tarikh penghantaran", "No. pesanan", "Nota hantaran", "Pembungkusan"],
};

/** A note printed across the table under its header, longer than the table is wide. */
const NOTES: Record<TableLang, string> = {
  en: "Important: orders placed before the 19th of the month are delivered within three working days, carriage paid, to the delivery address stated above.",
  de: "Wichtige Information: Bei Bestellungen bis zum 19. des Monats erfolgt die Lieferung innerhalb von drei Werktagen frei Haus an die oben genannte Lieferanschrift.",
  fr: "Information importante : les commandes passées avant le 19 du mois sont livrées sous trois jours ouvrés, franco de port, à l'adresse de livraison indiquée ci-dessus.",
  es: "Información importante: los pedidos realizados antes del día 19 del mes se entregan en tres días hábiles, portes pagados, en la dirección de entrega indicada arriba.",
  nl: "Belangrijk: bestellingen die vóór de 19e van de maand worden geplaatst, worden binnen drie werkdagen franco geleverd op het hierboven vermelde afleveradres.",
  it: "Informazione importante: gli ordini effettuati entro il giorno 19 del mese sono consegnati entro tre giorni lavorativi, franco destino, all'indirizzo di consegna indicato sopra.",
  pt: "Informação importante: as encomendas feitas até ao dia 19 do mês são entregues em três dias úteis, portes pagos, na morada de entrega indicada acima.",
  ms: "Makluman penting: pesanan yang dibuat sebelum 19 haribulan akan dihantar dalam tempoh tiga hari bekerja, percuma penghantaran, ke alamat penghantaran yang dinyatakan di atas.",
};

const DETAILS: Record<TableLang, readonly string[]> = {
  en: ["including delivery and installation on site as agreed", "for the period of the attached schedule"],
  de: ["inklusive Lieferung und Montage vor Ort wie vereinbart", "für den Zeitraum laut beigefügter Aufstellung"],
  fr: ["livraison et installation sur site comprises selon devis", "pour la période indiquée en annexe"],
  es: ["incluye entrega e instalación en destino según presupuesto", "para el periodo del detalle adjunto"],
  nl: ["inclusief levering en installatie ter plaatse zoals afgesproken", "voor de periode volgens bijlage"],
  it: ["compresa consegna e installazione in sede come concordato", "per il periodo indicato in allegato"],
  pt: ["inclui entrega e instalação no local conforme orçamento", "para o período indicado em anexo"],
  ms: ["termasuk penghantaran dan pemasangan di tapak seperti dipersetujui", "bagi tempoh seperti lampiran"],
};

const ADJUST: Record<TableLang, { discount: readonly string[]; surcharge: readonly string[] }> = {
  en: { discount: ["Discount", "Loyalty discount"], surcharge: ["Shipping surcharge", "Handling fee"] },
  de: { discount: ["Rabatt", "Nachlass"], surcharge: ["Versandkostenzuschlag", "Mindermengenzuschlag"] },
  fr: { discount: ["Remise", "Remise fidélité"], surcharge: ["Frais de port", "Majoration"] },
  es: { discount: ["Descuento", "Rappel"], surcharge: ["Recargo de envío", "Gastos de gestión"] },
  nl: { discount: ["Korting", "Klantkorting"], surcharge: ["Toeslag verzending", "Administratiekosten"] },
  it: { discount: ["Sconto", "Sconto fedeltà"], surcharge: ["Spese di spedizione", "Maggiorazione"] },
  pt: { discount: ["Desconto", "Desconto comercial"], surcharge: ["Portes de envio", "Sobretaxa"] },
  ms: { discount: ["Diskaun", "Potongan harga"], surcharge: ["Caj penghantaran", "Caj pengendalian"] },
};

/** Qualifiers a money header cell may carry ("Montant HT", "Betrag netto", "Price excl. VAT"). */
const QUALIFIERS: Record<TableLang, readonly string[]> = {
  en: ["excl. VAT", "(EUR)", "net"],
  de: ["netto", "EUR", "exkl. MwSt."],
  fr: ["HT", "€ HT", "TTC"],
  es: ["sin IVA", "€"],
  nl: ["excl. BTW", "€"],
  it: ["netto", "€"],
  pt: ["s/ IVA", "€"],
  ms: ["(RM)"],
};

/** A priced row's labelled figures: gross price over the figures, discount in the price column, net price under. */
const PRICE_LABELS: Record<TableLang, readonly [gross: string, discount: string, net: string]> = {
  en: ["Gross", "Discount", "Net"],
  de: ["Brutto", "Rabatt", "Netto"],
  fr: ["Brut", "Rabais", "Net"],
  es: ["Bruto", "Descuento", "Neto"],
  nl: ["Bruto", "Korting", "Netto"],
  it: ["Lordo", "Sconto", "Netto"],
  pt: ["Bruto", "Desconto", "Líquido"],
  ms: ["Kasar", "Diskaun", "Bersih"],
};

/** Amount header words the reader's vocabulary does not know: the column is told by the rows' arithmetic. */
const UNKNOWN_AMOUNT: Record<TableLang, string> = {
  en: "Extension",
  de: "Wert",
  fr: "Valeur",
  es: "Suma",
  nl: "Waarde",
  it: "Valore",
  pt: "Soma",
  ms: "Nilai",
};

/** A service period printed under an offset row's figures ("{a}", "{b}" the first and last day). */
const PERIODS: Record<TableLang, string> = {
  en: "Period from {a} to {b}",
  de: "Zeitraum vom {a} bis {b}",
  fr: "Période de {a} au {b}",
  es: "Periodo del {a} al {b}",
  nl: "Periode van {a} tot {b}",
  it: "Periodo dal {a} al {b}",
  pt: "Período de {a} a {b}",
  ms: "Tempoh {a} hingga {b}",
};

/** A tax breakdown under the table: its title, then the titles of its rate, base and tax columns. */
const BREAKDOWN: Record<TableLang, readonly [string, string, string, string]> = {
  en: ["VAT breakdown", "VAT rate", "Net amount", "VAT amount"],
  de: ["MwSt-Aufstellung", "MwSt-Satz", "Nettobetrag", "MwSt-Betrag"],
  fr: ["Détail TVA", "Taux", "Base HT", "Montant TVA"],
  es: ["Desglose IVA", "Tipo", "Base imponible", "Cuota IVA"],
  nl: ["BTW-overzicht", "Tarief", "Grondslag", "BTW-bedrag"],
  it: ["Riepilogo IVA", "Aliquota", "Imponibile", "Imposta"],
  pt: ["Resumo IVA", "Taxa", "Base tributável", "Valor IVA"],
  ms: ["Ringkasan SST", "Kadar", "Jumlah bercukai", "Amaun SST"],
};

const WORDS: Record<
  TableLang,
  {
    title: string;
    subtotal: string;
    tax: string;
    total: string;
    carried: string;
    brought: string;
    pageTotal: string;
    page: string;
  }
> = {
  en: {
    title: "INVOICE",
    subtotal: "Subtotal",
    tax: "VAT",
    total: "Total",
    carried: "Carried forward",
    brought: "Brought forward",
    pageTotal: "Page total",
    page: "Page {p} of {n}",
  },
  de: {
    title: "RECHNUNG",
    subtotal: "Zwischensumme",
    tax: "MwSt.",
    total: "Gesamtbetrag",
    carried: "Übertrag",
    brought: "Übertrag",
    pageTotal: "Seitensumme",
    page: "Seite {p} von {n}",
  },
  fr: {
    title: "FACTURE",
    subtotal: "Total HT",
    tax: "TVA",
    total: "Total TTC",
    carried: "À reporter",
    brought: "Report",
    pageTotal: "Total page",
    page: "Page {p} / {n}",
  },
  es: {
    title: "FACTURA",
    subtotal: "Base imponible",
    tax: "IVA",
    total: "Total",
    carried: "Suma y sigue",
    brought: "Suma anterior",
    pageTotal: "Total página",
    page: "Página {p} de {n}",
  },
  nl: {
    title: "FACTUUR",
    subtotal: "Subtotaal",
    tax: "BTW",
    total: "Totaal",
    carried: "Transport",
    brought: "Transport",
    pageTotal: "Subtotaal pagina",
    page: "Pagina {p} van {n}",
  },
  it: {
    title: "FATTURA",
    subtotal: "Imponibile",
    tax: "IVA",
    total: "Totale",
    carried: "Riporto",
    brought: "Riporto",
    pageTotal: "Totale pagina",
    page: "Pagina {p} di {n}",
  },
  pt: {
    title: "FATURA",
    subtotal: "Subtotal",
    tax: "IVA",
    total: "Total",
    carried: "Transporte",
    brought: "Transporte",
    pageTotal: "Total da página",
    page: "Página {p} de {n}",
  },
  ms: {
    title: "INVOIS",
    subtotal: "Jumlah kecil",
    tax: "Cukai",
    total: "Jumlah",
    carried: "Dibawa ke hadapan",
    brought: "Dibawa dari sebelumnya",
    pageTotal: "Jumlah halaman",
    page: "Halaman {p} / {n}",
  },
};

const TAGS: Record<TableLang, string> = {
  en: "en-GB",
  de: "de-DE",
  fr: "fr-FR",
  es: "es-ES",
  nl: "nl-NL",
  it: "it-IT",
  pt: "pt-PT",
  ms: "ms-MY",
};
const STYLES: Record<TableLang, NumberStyle> = {
  en: { thousands: ",", decimal: "." },
  ms: { thousands: ",", decimal: "." },
  de: { thousands: ".", decimal: "," },
  es: { thousands: ".", decimal: "," },
  nl: { thousands: ".", decimal: "," },
  it: { thousands: ".", decimal: "," },
  pt: { thousands: " ", decimal: "," },
  fr: { thousands: " ", decimal: "," },
};
const RATES: Record<TableLang, readonly number[]> = {
  en: [20, 5],
  de: [19, 7],
  fr: [20, 10, 5.5],
  es: [21, 10],
  nl: [21, 9],
  it: [22, 10],
  pt: [23, 13, 6],
  ms: [8, 6],
};

/** Column sets and orders a table may take. */
const ORDERS: readonly (readonly Role[])[] = [
  ["description", "quantity", "unitPrice", "amount"],
  ["code", "description", "quantity", "unit", "unitPrice", "amount"],
  ["position", "description", "quantity", "unitPrice", "taxRate", "amount"],
  ["description", "unitPrice", "quantity", "amount"],
  ["quantity", "description", "unitPrice", "amount"],
  ["description", "quantity", "unitPrice", "amount", "taxRate"],
  ["position", "code", "description", "quantity", "unitPrice", "amount"],
];

interface Row {
  description: string;
  code: string | null;
  qty: number | null;
  unit: string | null;
  unitCents: number | null;
  amountCents: number;
  rate: number;
}

export interface TableDocument {
  pdf: Uint8Array;
  pages: number;
  locale: string;
  labels: Record<string, string | LineItemLabel[]>;
}

function itemsOf(lang: TableLang): readonly string[] {
  return lang === "it" || lang === "pt" || lang === "ms" ? MORE_ITEMS[lang] : ITEMS[lang];
}

function planRows(rng: Rng, lang: TableLang, hasCode: boolean, hasUnit: boolean): Row[] {
  const count = rng.weighted<() => number>([
    [() => rng.int(2, 8), 4],
    [() => rng.int(9, 22), 3],
    [() => rng.int(23, 45), 2],
  ])();
  const rates = RATES[lang];
  const several = rng.chance(0.3);
  const rows: Row[] = [];
  for (let i = 0; i < count; i++) {
    const qty = rng.weighted<() => number>([
      [() => 1, 4],
      [() => rng.int(2, 40), 4],
      [() => rng.int(1, 20) / 2, 1],
    ])();
    const unitCents = rng.weighted<() => number>([
      [() => rng.int(1, 99) * 100, 2],
      [() => rng.int(50, 99999), 5],
      [() => rng.int(1000, 500000), 1],
    ])();
    const base = rng.pick(itemsOf(lang));
    const description = rng.chance(0.2) ? `${base} ${rng.pick(DETAILS[lang])}` : base;
    rows.push({
      description,
      code: hasCode ? `${rng.letters(2)}-${rng.digits(4)}` : null,
      qty,
      unit: hasUnit ? rng.pick(["pcs", "h", "kg", "m", "Stk"]) : null,
      unitCents,
      amountCents: Math.round(qty * unitCents),
      rate: several && rng.chance(0.4) ? (rates[1] ?? rates[0]!) : rates[0]!,
    });
    if (rng.chance(0.06)) {
      const pct = rng.pick([2, 5, 10]);
      const off = -Math.max(1, Math.round((rows[rows.length - 1]!.amountCents * pct) / 100));
      rows.push({
        description: `${rng.pick(ADJUST[lang].discount)} ${pct}%`,
        code: null,
        qty: null,
        unit: null,
        unitCents: null,
        amountCents: off,
        rate: rates[0]!,
      });
    } else if (rng.chance(0.04)) {
      rows.push({
        description: rng.pick(ADJUST[lang].surcharge),
        code: null,
        qty: null,
        unit: null,
        unitCents: null,
        amountCents: rng.int(300, 4999),
        rate: rates[0]!,
      });
    }
  }
  return rows;
}

/** Words of `text` in lines no wider than `width` at `size`. */
function wrap(sheet: Sheet, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(" ")) {
    const next = current === "" ? word : `${current} ${word}`;
    if (current !== "" && sheet.measure(next, { size }) > width) {
      lines.push(current);
      current = word;
    } else current = next;
  }
  if (current !== "") lines.push(current);
  return lines;
}

export async function generateTableDocument(seed: number): Promise<TableDocument> {
  const rng = new Rng(seed);
  const lang = rng.pick(["en", "de", "fr", "es", "nl", "it", "pt", "ms"] as const);
  const order = rng.pick(ORDERS);
  const numbers = STYLES[lang];
  const rows = planRows(rng, lang, order.includes("code"), order.includes("unit"));
  const stacked = rng.chance(0.4);
  const family = rng.pick(["Helvetica", "Times", "Courier"] as const satisfies readonly FontFamily[]);
  const size = family === "Courier" ? rng.float(7.5, 8.5) : rng.float(8, 9.5);
  const lh = size * rng.float(1.3, 1.55);
  const repeatHeader = rng.chance(0.7);
  const carried = rng.chance(0.4);
  const pageTotals = !carried && rng.chance(0.3);
  const footer = rng.chance(0.7);
  const words = WORDS[lang];
  // Drawn from a stream of its own, so documents without these variants stay what earlier versions generated.
  const layout = new Rng(seed ^ 0x5ac4ed);
  const stackedRows = layout.chance(0.25);
  // Stacked rows may print a code under the description, on the figures' line.
  const codeUnder = stackedRows && !order.includes("code") && layout.chance(0.4);
  const codes = rows.map((r) => (codeUnder && r.qty !== null ? `${layout.letters(2)}-${layout.digits(5)}` : r.code));
  const qualified = layout.chance(0.3) ? layout.pick(QUALIFIERS[lang]) : null;
  // ERP-style rows, from a third stream: figures beside the description's first line, the amount possibly on the line
  // under the others, "Key: value" detail lines under a row (not part of its description), unit prices with four
  // decimals, and a note across the table under its header.
  const erp = new Rng(seed ^ 0x3e7a11);
  const detailed = !stackedRows && erp.chance(0.25);
  const amountLow = detailed && erp.chance(0.5);
  const finePrices = detailed && erp.chance(0.5);
  const note = detailed && erp.chance(0.5);
  const details = rows.map((r) =>
    detailed && r.qty !== null
      ? Array.from(
          { length: erp.int(0, 2) },
          () => `${erp.pick(DETAIL_KEYS[lang])}: ${erp.letters(1).toUpperCase()}${erp.digits(erp.int(5, 9))}`,
        )
      : [],
  );

  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setProducer("docsift line-items-synth");
  const fonts = await embedFamily(doc, family);
  const [w, h] = [595.28, 841.89];
  const sheet = new Sheet(doc, w, h, fonts);
  const m = rng.float(36, 56);
  const right = w - m;
  const bottom = h - m - (footer ? lh * 3 : lh);

  // Column extents: the description takes what the others leave.
  const widths: Record<Role, number> = {
    position: 22,
    code: 58,
    description: 0,
    quantity: rng.float(38, 52),
    unit: 34,
    unitPrice: rng.float(62, 80),
    taxRate: 40,
    amount: rng.float(66, 84),
  };
  const gap = rng.float(8, 16);
  const fixed = order.filter((r) => r !== "description").reduce((s, r) => s + widths[r] + gap, 0);
  widths.description = right - m - fixed;
  const x0: Partial<Record<Role, number>> = {};
  let x = m;
  for (const role of order) {
    x0[role] = x;
    x += widths[role] + gap;
  }
  const leftAligned = (role: Role): boolean =>
    role === "description" || role === "code" || role === "position" || role === "unit";
  const anchor = (role: Role): number => (leftAligned(role) ? x0[role]! : x0[role]! + widths[role]);
  const header = order.map((role) => {
    const forms = HEADERS[lang][role];
    const one = forms.filter((f) => f.length === 1);
    const two = forms.filter((f) => f.length === 2);
    return stacked && two.length > 0 && rng.chance(0.7) ? rng.pick(two) : rng.pick(one.length > 0 ? one : forms);
  });
  if (qualified !== null) {
    order.forEach((role, i) => {
      const cell = header[i];
      if (cell === undefined || (role !== "unitPrice" && role !== "amount")) return;
      const text = `${cell[cell.length - 1]} ${qualified}`;
      // Only where it fits the column: header cells do not run into each other.
      if (sheet.measure(text, { size, bold: true }) <= widths[role] + gap * 0.5) {
        header[i] = [...cell.slice(0, -1), text];
      }
    });
  }
  // An amount column its header does not name, from a stream of its own: no header word over it, or a word the
  // reader's vocabulary does not know (rows where quantity x unit price = the rightmost figure tell it).
  const rolesStream = new Rng(seed ^ 0xa3171c);
  const unnamedAmount = order.includes("quantity") && order.includes("unitPrice") && rolesStream.chance(0.15);
  if (unnamedAmount) header[order.indexOf("amount")] = rolesStream.chance(0.5) ? [] : [UNKNOWN_AMOUNT[lang]];
  // English headers translated from software in another language name the count "Amount" and the line's sum "Total"
  // ("Amount | Product | Price | Total"): the arithmetic tells which is which. From a stream of its own.
  const countStream = new Rng(seed ^ 0x7c0a47);
  const countedAmount =
    lang === "en" &&
    !unnamedAmount &&
    order.indexOf("quantity") < order.indexOf("unitPrice") &&
    order.indexOf("unitPrice") < order.indexOf("amount") &&
    countStream.chance(0.2);
  if (countedAmount) {
    header[order.indexOf("quantity")] = ["Amount"];
    header[order.indexOf("amount")] = countStream.pick([["Total"], ["Line", "total"]]);
  }
  const headerLines = Math.max(...header.map((h) => h.length));

  let y = m;
  sheet.text(
    `Supplier ${rng.letters(3).toUpperCase()} ${rng.pick(["Ltd", "GmbH", "SARL", "S.L.", "B.V.", "S.r.l.", "Lda", "Sdn Bhd"])}`,
    m,
    y,
    { size: size + 4, bold: true },
  );
  sheet.text(words.title, right, y, { size: size + 8, bold: true, align: "right" });
  y += lh * 2.2;
  sheet.text(
    `${rng.int(1, 200)} ${rng.pick(["Main Street", "Hauptstraße", "rue de la Paix", "Calle Mayor", "Via Roma", "Rua Augusta", "Jalan Ampang"])}`,
    m,
    y,
    { size },
  );
  sheet.text(`${rng.letters(2).toUpperCase()}-${rng.digits(6)}`, right, y, { size, align: "right" });
  y += lh * 3;

  const drawHeader = (): void => {
    order.forEach((role, i) => {
      const cell = header[i]!;
      cell.forEach((text, j) => {
        const top = y + (headerLines - cell.length + j) * lh * 0.95;
        sheet.text(text, anchor(role), top, { size, bold: true, align: leftAligned(role) ? "left" : "right" });
      });
    });
    y += headerLines * lh * 0.95 + 3;
    sheet.rule(m, right, y - 2);
    y += 2;
  };
  const money = (cents: number): string => writeNumber(cents, numbers);
  const pageFooters: string[] = [];
  let running = 0;
  let pageSum = 0;
  const newPage = (): void => {
    pageFooters.push("");
    sheet.addPage();
    y = m;
    sheet.text(`${words.title} ${rng.digits(6)}`, right, y, { size, align: "right" });
    y += lh * 2;
  };

  drawHeader();
  if (note) {
    sheet.text(wrap(sheet, NOTES[lang], size, right - m)[0] ?? "", m, y, { size });
    y += lh * 1.5;
  }
  // Stacked rows: the description may run over the columns right of it.
  const wide = stackedRows && layout.chance(0.5);
  const descWidth = wide ? right - (x0.description ?? m) - 4 : widths.description - 4;
  const numberAbove = stackedRows && layout.chance(0.5);
  // Figures beside the top line of a wrapped description, its middle line or its foot (a table's cells aligned
  // vertically), with rows spaced wider than their lines.
  const valign =
    stackedRows || detailed
      ? "top"
      : layout.weighted<"top" | "middle" | "bottom">([
          ["top", 6],
          ["middle", 1],
          ["bottom", 1],
        ]);
  // Tall blocks, from a stream of their own: descriptions over three to six lines with the figures, running number and
  // code on a line in the middle of the block, description lines above and below them (factur-x style rows).
  const block = new Rng(seed ^ 0xb10c5);
  const tall = !stackedRows && !detailed && block.chance(0.2);
  const blockValign = tall ? "middle" : valign;
  if (tall) {
    for (const row of rows) {
      if (row.qty === null) continue;
      const more = block.chance(0.5) ? [...DETAILS[lang], block.pick(DETAILS[lang])] : [...DETAILS[lang]];
      row.description = `${row.description} ${more.join(" ")}`;
    }
  }
  // Priced rows, from a stream of their own: each product row a block of three lines, its gross unit price over the
  // figures, its discount where the unit price stands and its net unit price under them, the blocks far apart; a tax
  // breakdown (titles over rates, bases and taxes) under the table.
  const pricedStream = new Rng(seed ^ 0x9e7b1c);
  const priced =
    !stackedRows && !detailed && !tall && !unnamedAmount && order.includes("unitPrice") && pricedStream.chance(0.2);
  const [grossWord, discountWord, netWord] = PRICE_LABELS[lang];
  // Half of the priced tables print each row's description from the gross price's line on, over the figures (as
  // factur-x viewers print a row's name): a stream of its own, so the other documents stay as they were.
  const nameBesideGross = priced && new Rng(seed ^ 0x6a3e5).chance(0.5);
  // Offset rows, from a stream of their own: a product's name on the line above its figures, a detail line (a service
  // period, more words of the description or a "Key: value" line) under them, the figures' line holding nothing in
  // the description column or only a running number at its left; blocks tight or far apart.
  const offsetStream = new Rng(seed ^ 0x0ff5e7);
  const offset = !stackedRows && !detailed && !tall && !priced && offsetStream.chance(0.35);
  // The running number at the table's left edge, where the description column is the first one.
  const numbered = offset && order[0] === "description" && offsetStream.chance(0.5);
  const indent = numbered ? 18 : 0;
  const apart = offset && offsetStream.chance(0.4);
  const offsetLines = new Map<Row, { name: string[]; below: string[] }>();
  if (offset) {
    for (const row of rows) {
      if (row.qty === null) continue;
      const name = wrap(sheet, row.description, size, descWidth - indent);
      const kind = offsetStream.weighted<"period" | "words" | "key">([
        ["period", 2],
        ["words", 1],
        ["key", 1],
      ]);
      const month = offsetStream.int(1, 12);
      const day = (d: number): string =>
        `${String(d).padStart(2, "0")}${lang === "de" ? "." : "/"}${String(month).padStart(2, "0")}${lang === "de" ? "." : "/"}2026`;
      const detail =
        kind === "period"
          ? PERIODS[lang].replace("{a}", day(1)).replace("{b}", day(28))
          : kind === "words"
            ? offsetStream.pick(DETAILS[lang])
            : `${offsetStream.pick(DETAIL_KEYS[lang])}: ${offsetStream.letters(1).toUpperCase()}${offsetStream.digits(6)}`;
      const below = wrap(sheet, detail, size, descWidth - indent);
      offsetLines.set(row, { name, below });
      // A "Key: value" line and a service period are details of the row, not its description (an e-invoice's XML
      // names the item apart from its BillingSpecifiedPeriod).
      if (kind === "words") row.description = `${row.description} ${detail}`;
    }
  }
  for (const row of rows) {
    const block = priced && row.unitCents !== null;
    const offsetRow = offsetLines.get(row);
    const descLines = wrap(sheet, row.description, size, descWidth);
    const figuresAt = offsetRow
      ? offsetRow.name.length
      : block
        ? 1
        : stackedRows
          ? descLines.length
          : blockValign === "bottom"
            ? descLines.length - 1
            : blockValign === "middle"
              ? Math.floor((descLines.length - (tall ? 0 : 1)) / 2)
              : 0;
    const extra = details[rows.indexOf(row)] ?? [];
    const textLines = Math.max(descLines.length, amountLow && row.qty !== null ? 2 : 1);
    const rowH = offsetRow
      ? (offsetRow.name.length + 1 + offsetRow.below.length) * lh
      : block
        ? (Math.max(descLines.length, 1) + 2) * lh
        : (descLines.length + (stackedRows ? 1 : 0)) * lh +
          (detailed ? (textLines - descLines.length + extra.length) * lh : 0);
    if (y + rowH + lh * 2 > bottom) {
      if (pageTotals) {
        sheet.text(words.pageTotal, x0.description!, y + lh * 0.2, { size, bold: true });
        sheet.text(money(pageSum), anchor("amount"), y + lh * 0.2, { size, bold: true, align: "right" });
      }
      if (carried) {
        sheet.text(words.carried, x0.description!, y + lh * 0.2, { size, bold: true });
        sheet.text(money(running), anchor("amount"), y + lh * 0.2, { size, bold: true, align: "right" });
      }
      newPage();
      if (repeatHeader) drawHeader();
      if (carried) {
        sheet.text(words.brought, x0.description!, y, { size, bold: true });
        sheet.text(money(running), anchor("amount"), y, { size, bold: true, align: "right" });
        y += lh * 1.3;
      }
      pageSum = 0;
    }
    const values: Partial<Record<Role, string>> = {
      position: String(rows.indexOf(row) + 1),
      ...(row.code === null ? {} : { code: row.code }),
      ...(row.qty === null ? {} : { quantity: writeDecimal(row.qty, numbers) }),
      ...(row.unit === null ? {} : { unit: row.unit }),
      ...(row.unitCents === null ? {} : { unitPrice: `${money(row.unitCents)}${finePrices ? "00" : ""}` }),
      taxRate: `${writeDecimal(row.rate, numbers)}%`,
      amount: money(row.amountCents),
    };
    if (block && row.unitCents !== null) {
      const discount = pricedStream.chance(0.6) ? 0 : Math.round(row.unitCents * pricedStream.float(0.05, 0.2));
      const at = anchor("unitPrice");
      sheet.text(`(${grossWord}: ${money(row.unitCents + discount)})`, at, y, { size: size - 0.5, align: "right" });
      sheet.text(`(${netWord}): ${money(row.unitCents)}`, at, y + 2 * lh, { size: size - 0.5, align: "right" });
      values.unitPrice = `(${discountWord}: ${money(discount)})`;
    }
    for (const role of order) {
      if (role === "description" && offsetRow) {
        const at = (x0.description ?? m) + indent;
        offsetRow.name.forEach((line, j) => {
          sheet.text(line, at, y + j * lh, { size });
        });
        offsetRow.below.forEach((line, j) => {
          sheet.text(line, at, y + (figuresAt + 1 + j) * lh, { size });
        });
        if (numbered) sheet.text(String(rows.indexOf(row) + 1), x0.description ?? m, y + figuresAt * lh, { size });
        continue;
      }
      if (role === "description") {
        descLines.forEach((line, j) => {
          sheet.text(line, x0.description ?? m, y + (block && !nameBesideGross ? j + 1 : j) * lh, { size });
        });
        const code = codes[rows.indexOf(row)];
        if (codeUnder && code !== null && code !== undefined) {
          sheet.text(code, x0.description ?? m, y + figuresAt * lh, { size });
        }
        extra.forEach((line, k) => {
          sheet.text(line, x0.description ?? m, y + (textLines + k) * lh, { size: size - 0.5 });
        });
        continue;
      }
      const value = values[role];
      // Stacked: the running number or code beside the description, or on the figures' line; the amount may stand
      // on the line under the others.
      const top =
        amountLow && role === "amount" && row.qty !== null
          ? y + lh
          : !(numberAbove && (role === "position" || role === "code"))
            ? y + figuresAt * lh
            : y;
      if (value !== undefined)
        sheet.text(value, anchor(role), top, { size, align: leftAligned(role) ? "left" : "right" });
    }
    running += row.amountCents;
    pageSum += row.amountCents;
    y += rowH + lh * rng.float(0.15, 0.4) + (blockValign === "top" ? 0 : lh * (tall ? 0.6 : 0.25));
    if (block) y += lh * pricedStream.float(2.5, 4.5);
    if (offsetRow && apart) y += lh * offsetStream.float(1.5, 3);
  }
  sheet.rule(m, right, y, 0.8);
  y += lh;
  const subtotal = rows.reduce((s, r) => s + r.amountCents, 0);
  const byRate = new Map<number, number>();
  for (const r of rows) byRate.set(r.rate, (byRate.get(r.rate) ?? 0) + r.amountCents);
  const taxes = [...byRate].map(([rate, base]) => [rate, Math.round((base * rate) / 100)] as const);
  if (priced) {
    if (y + (taxes.length + 2) * lh > bottom) newPage();
    const [title, rateTitle, baseTitle, taxTitle] = BREAKDOWN[lang];
    const columns = [right - 190, right - 95, right];
    sheet.text(title, m, y, { size, bold: true });
    [rateTitle, baseTitle, taxTitle].forEach((t, i) => {
      sheet.text(t, columns[i] ?? right, y, { size, bold: true, align: "right" });
    });
    y += lh * 1.2;
    for (const [rate, tax] of taxes) {
      const cells = [`${writeDecimal(rate, numbers)}%`, money(byRate.get(rate) ?? 0), money(tax)];
      cells.forEach((t, i) => {
        sheet.text(t, columns[i] ?? right, y, { size, align: "right" });
      });
      y += lh * 1.1;
    }
    y += lh;
  }
  const total = subtotal + taxes.reduce((s, [, t]) => s + t, 0);
  if (y + (taxes.length + 3) * lh > bottom) newPage();
  const tx = right - 200;
  const totals: [string, number][] = [
    [words.subtotal, subtotal],
    ...taxes.map(([rate, t]): [string, number] => [`${words.tax} ${writeDecimal(rate, numbers)}%`, t]),
    [words.total, total],
  ];
  for (const [label, cents] of totals) {
    sheet.text(label, tx, y, { size, bold: label === words.total });
    sheet.text(money(cents), right, y, { size, bold: label === words.total, align: "right" });
    y += lh * 1.3;
  }
  const n = sheet.pages.length;
  sheet.pages.forEach((page, i) => {
    if (footer) {
      sheet.rule(m, right, h - m - lh * 2.2, 0.4, 0.5, page);
      sheet.text(
        `IBAN ${rng.letters(2).toUpperCase()}${rng.digits(20)}`,
        m,
        h - m - lh * 1.8,
        { size: size - 1, grey: 0.3 },
        page,
      );
    }
    if (n > 1 || footer) {
      const text = words.page.replace("{p}", String(i + 1)).replace("{n}", String(n));
      sheet.text(text, right, h - m - lh * 0.8, { size: size - 1, align: "right" }, page);
    }
  });

  const hasRate = order.includes("taxRate");
  const labels: LineItemLabel[] = rows.map((r, i) => ({
    description: r.description,
    quantity: r.qty === null ? null : String(r.qty),
    unitPrice: r.unitCents === null ? null : labelAmount(r.unitCents),
    amount: labelAmount(r.amountCents),
    taxRate: hasRate ? r.rate.toFixed(2) : null,
    productCode: codes[i] ?? null,
  }));
  return {
    pdf: await doc.save(),
    pages: n,
    locale: TAGS[lang],
    labels: {
      "invoice.lineItems": labels,
      "invoice.subtotal": labelAmount(subtotal),
      "invoice.total": labelAmount(total),
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: "string", default: "bench/out/li-tables" },
      count: { type: "string", default: "200" },
      seed: { type: "string", default: "1" },
      "no-scans": { type: "boolean", default: false },
      concurrency: { type: "string", default: "2" },
    },
  });
  const count = Number(values.count);
  const seed = Number(values.seed);
  const digital = join(values.out, "digital");
  const scan = join(values.out, "scan");
  await mkdir(digital, { recursive: true });
  if (!values["no-scans"]) await mkdir(scan, { recursive: true });
  const lines: string[] = [];
  const scanLines: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      const docSeed = seed * 100_003 + i;
      const d = await generateTableDocument(docSeed);
      const name = String(i + 1).padStart(4, "0");
      await writeFile(join(digital, `${name}.pdf`), d.pdf);
      const line = (file: string): string =>
        JSON.stringify({ file, product: "invoices", locale: d.locale, pages: d.pages, fields: d.labels });
      lines[i] = line(`${name}.pdf`);
      if (values["no-scans"]) continue;
      const s = await degradeToScan(d.pdf, docSeed);
      await writeFile(join(scan, `${name}.${s.format}`), s.bytes);
      scanLines[i] = line(`${name}.${s.format}`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Number(values.concurrency)) }, worker));
  await writeFile(join(digital, "labels.jsonl"), `${lines.join("\n")}\n`);
  if (!values["no-scans"]) await writeFile(join(scan, "labels.jsonl"), `${scanLines.join("\n")}\n`);
  process.stderr.write(`${count} table documents -> ${values.out}\n`);
}

if (process.argv[1]?.endsWith("line-items-synth.ts")) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
}
