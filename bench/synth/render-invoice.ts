/**
 * Draws an InvoiceData as a born-digital PDF in one of many layouts. Layout choices (sides, label placement, fonts,
 * number and date styles) come from the rng; facts come only from the data, and every non-null fact is drawn.
 */
import type { PDFDocument, PDFPage } from "pdf-lib";
import {
  addDays,
  type CurrencyMark,
  chooseDateWriter,
  type DateWriter,
  writeDate,
  writeDecimal,
  writeMoney,
} from "./format.js";
import type { IdVariants } from "./id-variants.js";
import { group } from "./ids.js";
import type { InvoiceData } from "./invoice-data.js";
import { BROUGHT_WORDS, CARRIED_WORDS, type TableStyle, taxByRate } from "./line-items.js";
import type { NumberStyle } from "./locales.js";
import { letteredLogo } from "./logo.js";
import type { Rng } from "./prng.js";
import { embedFamily, type FontFamily, Sheet } from "./sheet.js";
import { drawBreakdownGrid, drawTotalsGrid } from "./totals-grid.js";
import { INVOICE_WORDS, type InvoiceWords, TAX_ID_WORDS, TAX_WORDS, TOTAL_WORDS } from "./vocabulary.js";

type MetaStyle = "columns" | "right-aligned" | "above" | "row";

interface Style {
  family: FontFamily;
  size: number;
  lineH: number;
  margin: number;
  supplierRight: boolean;
  metaStyle: MetaStyle;
  colon: boolean;
  senderLine: boolean;
  headerFill: boolean;
  rowRules: boolean;
  positionColumn: boolean;
  totalsLeft: boolean;
  totalsBox: boolean;
  bankInFooter: boolean;
  taxIdInFooter: boolean;
  marker: "top-right" | "bottom-center" | "bottom-right";
  markerOnSinglePage: boolean;
  numbers: NumberStyle;
  dates: DateWriter;
  totalsMark: CurrencyMark;
  itemsMark: CurrencyMark;
  currencyNote: boolean;
  groupedIban: boolean;
}

const PAPER = { A4: [595.28, 841.89], Letter: [612, 792] } as const;

function chooseStyle(rng: Rng, data: InvoiceData): Style {
  const family = rng.weighted<FontFamily>([
    ["Helvetica", 5],
    ["Times", 3],
    ["Courier", 2],
  ]);
  const size = family === "Courier" ? rng.float(8, 9.5) : rng.float(8.5, 10.5);
  const locale = data.locale;
  const totalsMark = rng.weighted<CurrencyMark>([
    ["symbol", locale.currencySymbol ? 5 : 0],
    ["explicit-symbol", locale.explicitSymbol ? 3 : 0],
    ["code-before", 2],
    ["code-after", 2],
    ["none", 3],
  ]);
  const itemsMark: CurrencyMark = rng.chance(0.25) ? totalsMark : "none";
  // Without a code next to the amounts (bare, or a symbol shared by several currencies) the page states the currency.
  const needsNote = totalsMark === "none" || (totalsMark === "symbol" && locale.symbolAmbiguous);
  return {
    family,
    size,
    lineH: size * rng.float(1.3, 1.6),
    margin: rng.float(36, 62),
    supplierRight: rng.chance(0.4),
    metaStyle: rng.weighted<MetaStyle>([
      ["columns", 4],
      ["right-aligned", 2],
      ["above", 2],
      ["row", 2],
    ]),
    colon: rng.chance(0.6),
    senderLine: locale.lang === "de" ? rng.chance(0.5) : rng.chance(0.1),
    headerFill: rng.chance(0.5),
    rowRules: rng.chance(0.4),
    positionColumn: rng.chance(0.25),
    totalsLeft: rng.chance(0.15),
    totalsBox: rng.chance(0.35),
    bankInFooter: rng.chance(0.4),
    taxIdInFooter: rng.chance(0.4),
    marker: rng.pick(["top-right", "bottom-center", "bottom-right"] as const),
    markerOnSinglePage: rng.chance(0.3),
    numbers: rng.pick(locale.numberStyles),
    dates: chooseDateWriter(rng, locale, false),
    totalsMark,
    itemsMark,
    currencyNote: needsNote || rng.chance(0.15),
    groupedIban: rng.chance(0.7),
  };
}

/** A label as printed: optionally with a trailing colon, never doubling punctuation. */
function labelText(label: string, colon: boolean): string {
  if (!colon || /[:#.]$/.test(label)) return label;
  return `${label}:`;
}

interface KeyValue {
  label: string;
  value: string;
}

/** Renders one invoice into `doc` and returns the page count. */
export async function renderInvoice(
  doc: PDFDocument,
  data: InvoiceData,
  rng: Rng,
  options: {
    pageMarkers?: boolean;
    table?: TableStyle;
    tableRng?: Rng;
    variants?: IdVariants;
    unsigned?: boolean;
    /** The customer's block on the right without a label, the meta facts in a band under it (French letters). */
    rightWindow?: boolean;
    /** With several tax rates, the totals as a breakdown by rate (totals-grid.ts drawBreakdownGrid). */
    breakdown?: boolean;
    /** A logo picture spelling the supplier's brand above its name (logo.ts), drawn with this generator. */
    logo?: Rng;
    /**
     * The customer's VAT id in a column of its own under its address, headed "Your details" / "Vos identifiants"
     * (the FNFE invoices' layout): the heading alone says whose it is.
     */
    idsColumn?: boolean;
    /** A company customer's department over its name in its block ("Accounts Payable"), drawn with this generator. */
    department?: Rng;
  } = {},
): Promise<number> {
  const style = chooseStyle(rng, data);
  const fonts = await embedFamily(doc, style.family);
  const [w, h] = PAPER[data.locale.paper];
  const sheet = new Sheet(doc, w, h, fonts);
  const words = INVOICE_WORDS[data.locale.lang];
  const tag = data.locale.tag;
  const s = style.size;
  const m = style.margin;
  const lh = style.lineH;
  // A credit note may print its figures without a sign: its title says what they are.
  const money = (cents: number, mark: CurrencyMark): string =>
    writeMoney(options.unsigned ? Math.abs(cents) : cents, style.numbers, mark, data.locale, data.locale.currency);
  const date = (d: NonNullable<InvoiceData["dueDate"]>): string => writeDate(d, style.dates, data.locale);
  const lbl = (choices: readonly string[]): string => labelText(rng.pick(choices), style.colon);

  const title = rng.pick(data.credit ? words.creditTitle : words.title);
  const numberLabel = rng.pick(data.credit ? words.creditNumber : words.number);
  const taxIdLabel = rng.pick(TAX_ID_WORDS[tag] ?? ["Tax ID"]);
  const taxIdPrinted = data.supplierTaxId === null ? null : printTaxId(data.supplierTaxId, tag, rng);
  const currencyNote = rng.pick(words.currencyNote).replace("{c}", data.locale.currency);

  // Footer (every page): small print with the supplier's identity, optionally tax id and bank.
  const footerSize = s - 1.5;
  const footerColumns: string[][] = [[data.supplier.name, ...data.supplier.addressLines]];
  const contact: string[] = [];
  if (data.supplierPhone) contact.push(`${rng.pick(words.phone)} ${data.supplierPhone}`);
  if (data.supplierEmail) contact.push(data.supplierEmail);
  if (style.taxIdInFooter && taxIdPrinted) contact.push(`${taxIdLabel} ${taxIdPrinted}`);
  if (contact.length > 0) footerColumns.push(contact);
  const bankLines = bankDetails(data, style, words, rng);
  if (style.bankInFooter && bankLines.length > 0) footerColumns.push(bankLines);
  const footerH = Math.max(...footerColumns.map((c) => c.length)) * footerSize * 1.3 + 10;
  const bottomLimit = h - m - footerH - (style.marker === "top-right" ? 0 : s * 2);

  const drawFooter = (page: PDFPage): void => {
    const top = h - m - footerH + 10;
    sheet.rule(m, w - m, top - 5, 0.4, 0.5, page);
    const colW = (w - 2 * m) / footerColumns.length;
    footerColumns.forEach((lines, i) => {
      lines.forEach((line, j) => {
        const size = sheet.fit(line, footerSize, colW - 6, false);
        sheet.text(line, m + i * colW, top + j * footerSize * 1.3, { size, grey: 0.25 }, page);
      });
    });
  };

  // Header: supplier block on one side, title on the other; a logo picture above the supplier's name.
  let y = m;
  const half = (w - 2 * m) / 2;
  const supplierX = style.supplierRight ? w - m : m;
  const supplierAlign = style.supplierRight ? "right" : "left";
  if (options.logo) {
    const logo = await letteredLogo(doc, data.supplier.name, options.logo);
    const x = style.supplierRight ? w - m - logo.width : m;
    sheet.page.drawImage(logo.image, { x, y: h - y - logo.height, width: logo.width, height: logo.height });
    y += logo.height + lh * 0.5;
  }
  const nameSize = sheet.fit(data.supplier.name, s + rng.float(3, 8), half + 40, true);
  sheet.text(data.supplier.name, supplierX, y, { size: nameSize, bold: true, align: supplierAlign });
  let sy = y + nameSize * 1.4;
  const supplierLines = [...data.supplier.addressLines];
  if (data.supplierPhone && rng.chance(0.5)) supplierLines.push(`${rng.pick(words.phone)} ${data.supplierPhone}`);
  if (!style.taxIdInFooter && taxIdPrinted) supplierLines.push(`${labelText(taxIdLabel, style.colon)} ${taxIdPrinted}`);
  for (const line of supplierLines) {
    sheet.text(line, supplierX, sy, { size: s, align: supplierAlign });
    sy += lh;
  }
  const titleSize = sheet.fit(title, s + rng.float(7, 16), half - 50, true);
  const titleX = style.supplierRight ? m : w - m;
  sheet.text(title, titleX, y, { size: titleSize, bold: true, align: style.supplierRight ? "left" : "right" });
  y = Math.max(sy, y + titleSize * 1.5) + lh * rng.float(1, 2.5);

  // Meta facts (number, dates, order numbers).
  const printedNumber = options.variants?.printedNumber ?? data.number;
  const meta: KeyValue[] = [{ label: numberLabel, value: printedNumber }];
  meta.push({ label: rng.pick(words.date), value: date(data.issueDate) });
  const dueSentence = data.dueDate && options.variants?.dueSentence;
  if (data.dueDate && !dueSentence) meta.push({ label: rng.pick(words.dueDate), value: date(data.dueDate) });
  // A credit note names the date of the invoice it corrects, labelled much as its own date is.
  if (data.credit) {
    const preceding = addDays(data.issueDate, -rng.pick([7, 14, 30, 31, 45, 60]));
    meta.push({ label: rng.pick(words.precedingDate), value: date(preceding) });
  }
  if (options.variants?.supplierNo) meta.push(options.variants.supplierNo);
  if (data.purchaseOrder) meta.push({ label: rng.pick(words.purchaseOrder), value: data.purchaseOrder });
  if (data.customerNo) meta.push({ label: rng.pick(words.customerNo), value: data.customerNo });
  const [noteKey, noteValue] = currencyNote.split(/\s*:\s*/);
  const noteInMeta = style.currencyNote && noteValue !== undefined && rng.chance(0.4);
  if (noteInMeta) meta.push({ label: noteKey!, value: noteValue! });
  for (let i = meta.length - 1; i > 1; i--) {
    // Shuffle the optional rows after number and date a little: order varies between real templates.
    const j = rng.int(2, i);
    [meta[i], meta[j]] = [meta[j]!, meta[i]!];
  }
  if (rng.chance(0.3)) [meta[0], meta[1]] = [meta[1]!, meta[0]!];

  // Customer block (left) with an optional one-line sender address above it, as in window envelopes; or, with
  // `rightWindow`, on the right half and unlabelled.
  const customerTop = y;
  const rightWindow = options.rightWindow === true;
  const cx = rightWindow ? w / 2 + 30 : m;
  let cy = customerTop;
  if (style.senderLine && !rightWindow) {
    const sender = [data.supplier.name, ...data.supplier.addressLines].join(" · ");
    sheet.text(sender, m, cy, { size: sheet.fit(sender, s - 2, half + 20, false), grey: 0.35 });
    cy += lh * 1.2;
  }
  if (rng.chance(0.8) && !rightWindow) {
    sheet.text(lbl(words.billTo), m, cy, { size: s - 0.5, bold: true, grey: 0.2 });
    cy += lh;
  }
  // A company's department; a person billed has none.
  const department = options.department && !data.customer.person ? [options.department.pick(words.department)] : [];
  for (const line of [...department, data.customer.name, ...data.customer.addressLines]) {
    sheet.text(line, cx, cy, { size: s + 0.5 });
    cy += lh;
  }
  if (data.customerTaxId && options.idsColumn) {
    cy += lh * 0.8;
    sheet.text(rng.pick(words.yourIds), cx, cy, { size: s - 0.5, bold: true, grey: 0.2 });
    cy += lh * 1.1;
  }
  if (data.customerTaxId) {
    const printed = `${labelText(taxIdLabel, style.colon)} ${printTaxId(data.customerTaxId, tag, rng)}`;
    sheet.text(printed, cx, cy, { size: s });
    cy += lh;
  }

  let my = customerTop;
  const metaStyle = rightWindow ? "row" : style.metaStyle === "row" && meta.length > 4 ? "columns" : style.metaStyle;
  if (metaStyle === "row") {
    // A band of label-above-value cells across the page, below the customer block.
    my = cy + lh;
    const colW = (w - 2 * m) / meta.length;
    meta.forEach((kv, i) => {
      const x = m + i * colW;
      sheet.text(kv.label, x, my, { size: sheet.fit(kv.label, s - 1, colW - 6, true), bold: true, grey: 0.3 });
      sheet.text(kv.value, x, my + lh, { size: sheet.fit(kv.value, s + 0.5, colW - 6, false) });
    });
    my += lh * 2.5;
  } else if (metaStyle === "above") {
    const x = w / 2 + rng.float(0, 60);
    for (const kv of meta) {
      sheet.text(kv.label, x, my, { size: s - 1, bold: true, grey: 0.3 });
      sheet.text(kv.value, x, my + lh * 0.95, { size: s + 0.5 });
      my += lh * 2.2;
    }
  } else {
    const labels = meta.map((kv) => labelText(kv.label, style.colon));
    const labelW = Math.max(...labels.map((l) => sheet.measure(l, { size: s, bold: true })));
    const valueW = Math.max(...meta.map((kv) => sheet.measure(kv.value, { size: s })));
    const right = w - m;
    const x = Math.max(w / 2, right - labelW - 12 - valueW);
    meta.forEach((kv, i) => {
      sheet.text(labels[i]!, x, my, { size: s, bold: true });
      if (metaStyle === "right-aligned") sheet.text(kv.value, right, my, { size: s, align: "right" });
      else sheet.text(kv.value, x + labelW + 12, my, { size: s });
      my += lh;
    });
  }
  y = Math.max(cy, my) + lh * rng.float(1, 2);

  if (style.currencyNote && !noteInMeta) {
    sheet.text(currencyNote, m, y, { size: s - 0.5, grey: 0.2 });
    y += lh * 1.5;
  }

  // Line-item table.
  const right = w - m;
  const colAmount = right;
  const table = options.table ?? { taxColumn: false, carried: false, repeatHeader: true };
  const trng = options.tableRng ?? rng;
  let colUnit = right - rng.float(80, 100);
  let colQty = colUnit - rng.float(70, 90);
  // A tax-rate column takes the unit price's place; quantity and unit price move left to make room.
  const colTax = colUnit;
  if (table.taxColumn) {
    colUnit -= 48;
    colQty -= 48;
  }
  const taxHeader = table.taxColumn ? trng.pick(TAX_COLUMN_WORDS[data.locale.lang]) : "";
  const descX = style.positionColumn ? m + 28 : m;
  const header = [
    rng.pick(words.description),
    rng.pick(words.quantity),
    rng.pick(words.unitPrice),
    rng.pick(words.amount),
  ];
  const drawTableHeader = (): void => {
    if (style.headerFill) sheet.box(m - 4, y - 3, w - 2 * m + 8, lh + 2, 0.88, false);
    const hs = { size: s, bold: true };
    if (style.positionColumn) sheet.text("#", m, y, hs);
    sheet.text(header[0]!, descX, y, hs);
    sheet.text(header[1]!, colQty, y, { ...hs, align: "right" });
    sheet.text(header[2]!, colUnit, y, { ...hs, align: "right" });
    if (table.taxColumn) sheet.text(taxHeader, colTax, y, { ...hs, align: "right" });
    sheet.text(header[3]!, colAmount, y, { ...hs, align: "right" });
    y += lh + 2;
    if (!style.headerFill) sheet.rule(m, right, y - 3);
  };
  const continuationHeader = (): void => {
    y = m;
    sheet.text(data.supplier.name, m, y, { size: s + 1, bold: true });
    sheet.text(`${title} ${labelText(numberLabel, style.colon)} ${printedNumber}`, right, y, {
      size: s,
      align: "right",
    });
    y += lh * 2.5;
  };
  const newPage = (): void => {
    sheet.text(rng.pick(words.continued), right, bottomLimit - lh * 0.5, { size: s - 1, align: "right", grey: 0.3 });
    sheet.addPage();
    continuationHeader();
  };
  const lang = data.locale.lang;
  let running = 0;

  drawTableHeader();
  data.items.forEach((item, i) => {
    const rowH = lh * 1.15 + (item.detail ? lh * 0.85 : 0) + (item.wrap ? lh * 0.9 : 0);
    if (y + rowH > bottomLimit) {
      if (table.carried) {
        // The running sum closes the page and opens the next one, as ledgers print it.
        sheet.text(trng.pick(CARRIED_WORDS[lang]), descX, y + lh * 0.3, { size: s, bold: true });
        sheet.text(money(running, style.itemsMark), colAmount, y + lh * 0.3, { size: s, bold: true, align: "right" });
      }
      newPage();
      if (table.repeatHeader) drawTableHeader();
      if (table.carried) {
        sheet.text(trng.pick(BROUGHT_WORDS[lang]), descX, y, { size: s, bold: true });
        sheet.text(money(running, style.itemsMark), colAmount, y, { size: s, bold: true, align: "right" });
        y += lh * 1.3;
      }
    }
    if (style.positionColumn) sheet.text(String(i + 1), m, y, { size: s });
    sheet.text(item.description, descX, y, { size: sheet.fit(item.description, s, colQty - 60 - descX, false) });
    let below = y + lh * 0.85;
    if (item.wrap) {
      sheet.text(item.wrap, descX, y + lh * 0.9, { size: sheet.fit(item.wrap, s, colQty - 60 - descX, false) });
      below += lh * 0.9;
    }
    if (item.detail) sheet.text(item.detail, descX, below, { size: s - 1.5, grey: 0.4 });
    if (!item.discount) {
      sheet.text(writeDecimal(item.qty, style.numbers), colQty, y, { size: s, align: "right" });
      sheet.text(money(item.unitCents, style.itemsMark), colUnit, y, { size: s, align: "right" });
    }
    if (table.taxColumn) {
      const rate = `${writeDecimal(item.taxRate ?? data.taxRate, style.numbers, 3)}%`;
      sheet.text(rate, colTax, y, { size: s, align: "right" });
    }
    sheet.text(money(item.amountCents, style.itemsMark), colAmount, y, { size: s, align: "right" });
    running += item.amountCents;
    y += rowH;
    if (style.rowRules) sheet.rule(m, right, y - lh * 0.2, 0.3, 0.7);
  });
  sheet.rule(m, right, y, 0.8);
  y += lh;

  // Totals, payment details and terms: kept together on the last page.
  const taxWords = TAX_WORDS[tag] ?? words.tax;
  const rate = writeDecimal(data.taxRate, style.numbers, 3);
  const taxLabel = rng.pick(taxWords);
  const rates = taxByRate(data);
  const taxRows =
    rates.length > 1
      ? rates.map(([r, cents]) => ({
          label: taxLabel.includes("{r}")
            ? taxLabel.replace("{r}", writeDecimal(r, style.numbers, 3))
            : `${taxLabel} ${writeDecimal(r, style.numbers, 3)}%`,
          value: money(cents, style.totalsMark),
          bold: false,
        }))
      : [{ label: taxLabel.replace("{r}", rate), value: money(data.taxCents, style.totalsMark), bold: false }];
  const totals: (KeyValue & { bold: boolean })[] = [
    { label: rng.pick(words.subtotal), value: money(data.subtotalCents, style.totalsMark), bold: false },
    ...taxRows,
    {
      label: rng.pick(TOTAL_WORDS[tag] ?? words.total),
      value: money(data.totalCents, style.totalsMark),
      bold: true,
    },
  ];
  if (data.prepaidCents > 0) {
    totals.push({ label: rng.pick(words.prepaid), value: money(-data.prepaidCents, style.totalsMark), bold: false });
  }
  if (data.amountDueCents !== null) {
    totals.push({ label: rng.pick(words.amountDue), value: money(data.amountDueCents, style.totalsMark), bold: true });
  }
  const paymentLines: string[] = [];
  if (!style.bankInFooter) paymentLines.push(...bankLines);
  if (data.reference) paymentLines.push(`${lbl(words.reference)} ${data.reference}`);
  const terms = rng.chance(0.6) ? [rng.pick(words.terms)] : [];
  if (dueSentence && data.dueDate) terms.unshift(dueSentence.replace("{d}", date(data.dueDate)));
  const blockH = totals.length * lh * 1.3 + (paymentLines.length + terms.length + 2) * lh + 12;
  if (y + blockH > bottomLimit) {
    newPage();
    y += lh;
  }
  const totalsW = Math.min(260, w / 2 - m);
  const tx = style.totalsLeft ? m : right - totalsW;
  // Labels over values (totals-grid.ts) on a share of the pages, else one "label  value" line each.
  // With several tax rates, `breakdown` prints them as a row per rate, then the sums, unlabelled.
  const breakdown = (options.breakdown ?? false) && rates.length > 1;
  const grid = breakdown || (totals.length <= 5 && rng.chance(0.2));
  const place = { left: m, right, top: y, size: s, lineH: lh };
  if (breakdown) {
    const bases = new Map<number, number>();
    for (const item of data.items) {
      const r = item.taxRate ?? data.taxRate;
      bases.set(r, (bases.get(r) ?? 0) + item.amountCents);
    }
    const base = (r: number): number => bases.get(r) ?? 0;
    const columns = [
      { label: rng.pick(words.subtotal), cents: rates.map(([r]) => base(r)), sum: data.subtotalCents },
      {
        label: taxLabel.replace(/\s*\(?@?\s*\{r\}\s*%?\)?/, "").trim(),
        cents: rates.map(([, t]) => t),
        sum: data.taxCents,
      },
      {
        label: rng.pick(TOTAL_WORDS[tag] ?? words.total),
        cents: rates.map(([r, t]) => base(r) + t),
        sum: data.totalCents,
      },
    ].map((c) => ({
      label: c.label,
      parts: c.cents.map((v) => money(v, style.totalsMark)),
      sum: money(c.sum, style.totalsMark),
    }));
    const printedRates = rates.map(([r]) => `${writeDecimal(r, style.numbers, 3)} %`);
    y = drawBreakdownGrid(sheet, printedRates, columns, place, rng);
  } else if (grid) y = drawTotalsGrid(sheet, totals, place, rng, terms[0] ?? null);
  if (style.totalsBox && !grid) sheet.box(tx - 6, y - 4, totalsW + 10, totals.length * lh * 1.3 + 4, null, true);
  // After a breakdown, what follows its sums (a prepayment, the amount due) is printed line by line.
  for (const row of breakdown ? totals.slice(2 + taxRows.length) : grid ? [] : totals) {
    const size = row.bold ? s + 1 : s;
    sheet.text(labelText(row.label, style.colon), tx, y, { size, bold: row.bold });
    sheet.text(row.value, tx + totalsW, y, { size, bold: row.bold, align: "right" });
    y += lh * 1.3;
  }
  y += lh;
  if (paymentLines.length > 0) {
    sheet.text(rng.pick(words.bank), m, y, { size: s, bold: true });
    y += lh;
    for (const line of paymentLines) {
      sheet.text(line, m, y, { size: s });
      y += lh;
    }
  }
  for (const line of terms) {
    y += lh * 0.5;
    sheet.text(line, m, y, { size: sheet.fit(line, s - 0.5, w - 2 * m, false), grey: 0.2 });
    y += lh;
  }

  // Page markers and footers once the page count is known.
  const n = sheet.pages.length;
  const markerTemplate = rng.pick(words.page);
  sheet.pages.forEach((page, i) => {
    if (options.pageMarkers ?? (n > 1 || style.markerOnSinglePage)) {
      const text = markerTemplate.replace("{p}", String(i + 1)).replace("{n}", String(n));
      const top = style.marker === "top-right" ? m - s * 2 : h - m - footerH - s * 0.5;
      const x = style.marker === "bottom-center" ? w / 2 : w - m;
      sheet.text(text, x, top, { size: s - 1, align: style.marker === "bottom-center" ? "center" : "right" }, page);
    }
  });
  for (const page of sheet.pages) drawFooter(page);
  return n;
}

const TAX_COLUMN_WORDS: Record<InvoiceData["locale"]["lang"], readonly string[]> = {
  en: ["VAT %", "Tax %", "VAT"],
  de: ["MwSt.", "USt. %", "MwSt. %"],
  fr: ["TVA", "TVA %", "Taux TVA"],
  es: ["IVA", "IVA %"],
  nl: ["BTW", "BTW %"],
};

function bankDetails(data: InvoiceData, style: Style, words: InvoiceWords, rng: Rng): string[] {
  const p = data.payment;
  const lines: string[] = [];
  if (p.iban) lines.push(`IBAN${style.colon ? ":" : ""} ${style.groupedIban ? group(p.iban, 4) : p.iban}`);
  if (p.bic) lines.push(`${labelText(rng.pick(words.bic), style.colon)} ${p.bic}`);
  if (p.bsb) lines.push(`BSB${style.colon ? ":" : ""} ${p.bsb}`);
  if (p.accountNo) lines.push(`${labelText(rng.pick(words.accountNo), style.colon)} ${p.accountNo}`);
  if (p.accountNo && data.locale.country === "US") lines.push(`Routing No.${style.colon ? ":" : ""} ${rng.digits(9)}`);
  return lines;
}

/** Tax ids as humans print them: grouped, spaced or compact; the label is always the compact form. */
function printTaxId(compact: string, tag: string, rng: Rng): string {
  if (tag === "en-AU") return rng.chance(0.7) ? `${compact.slice(0, 2)} ${group(compact.slice(2), 3)}` : compact;
  if (compact.startsWith("CHE")) return `CHE-${compact.slice(3, 6)}.${compact.slice(6, 9)}.${compact.slice(9)}`;
  if (compact.startsWith("GB") && rng.chance(0.5))
    return `GB ${compact.slice(2, 5)} ${compact.slice(5, 9)} ${compact.slice(9)}`;
  if (compact.startsWith("DE") && rng.chance(0.3)) return `DE ${group(compact.slice(2), 3)}`;
  return compact;
}
