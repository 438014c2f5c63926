/**
 * Draws a ReceiptData on a narrow till-roll page (58-80 mm wide, as tall as its content).
 * Rows are planned first so the page height is known before anything is drawn.
 */
import type { PDFDocument } from "pdf-lib";
import { type CurrencyMark, chooseDateWriter, writeDate, writeMoney, writeTime } from "./format.js";
import type { Rng } from "./prng.js";
import type { ReceiptData } from "./receipt-data.js";
import { embedFamily, type FontFamily, Sheet } from "./sheet.js";
import { PAYMENT_WORDS, RECEIPT_TAX_WORDS, RECEIPT_TOTAL_WORDS, RECEIPT_WORDS } from "./vocabulary.js";

interface Row {
  left?: string;
  right?: string;
  center?: string;
  bold?: boolean;
  /** Size relative to the base size. */
  scale?: number;
}

const MM = 72 / 25.4;
const CODE_IN_LABEL = /\b(EUR|AUD|USD|GBP|MYR)\b|\(RM\)/;

export async function renderReceipt(doc: PDFDocument, data: ReceiptData, rng: Rng): Promise<number> {
  const family = rng.weighted<FontFamily>([
    ["Courier", 5],
    ["Helvetica", 4],
    ["Times", 1],
  ]);
  const fonts = await embedFamily(doc, family);
  const width = rng.pick([80, 80, 80, 72, 58]) * MM;
  const size = (family === "Courier" ? rng.float(6.5, 8) : rng.float(7, 8.8)) * (width < 60 * MM ? 0.85 : 1);
  const lh = size * rng.float(1.25, 1.5);
  const margin = rng.float(8, 14);
  const words = RECEIPT_WORDS[data.locale.lang];
  const tag = data.locale.tag;
  const numbers = rng.pick(data.locale.numberStyles);
  const dates = chooseDateWriter(rng, data.locale, true);
  const totalMark: CurrencyMark = data.currencyPrinted
    ? rng.weighted<CurrencyMark>([
        ["symbol", data.locale.currencySymbol ? 6 : 0],
        ["explicit-symbol", data.locale.explicitSymbol ? 2 : 0],
        ["code-before", 2],
        ["code-after", 2],
      ])
    : "none";
  const itemMark: CurrencyMark = totalMark !== "none" && rng.chance(0.3) ? totalMark : "none";
  const money = (cents: number, mark: CurrencyMark): string =>
    writeMoney(cents, numbers, mark, data.locale, data.locale.currency);
  const upper = data.merchantName === data.merchantName.toUpperCase();
  const cased = (t: string): string => (upper ? t.toUpperCase() : t);
  const sep: Row = { center: family === "Courier" ? "-".repeat(40) : "- - - - - - - - - - - - - - - - - - - - -" };

  const rows: Row[] = [];
  const centered = rng.chance(0.75);
  const head = (text: string, extra: Partial<Row> = {}): void => {
    rows.push(centered ? { center: text, ...extra } : { left: text, ...extra });
  };
  head(data.merchantName, { bold: true, scale: rng.float(1.1, 1.5) });
  for (const line of data.merchantAddress) head(line);
  if (data.phone) head(`${cased("Tel")}: ${data.phone}`);
  if (data.registration) head(data.registration);
  rows.push({});

  const dateText = writeDate(data.date, dates, data.locale);
  const timeText = data.time ? writeTime(rng, data.time, data.locale) : null;
  const dateRows: Row[] = [];
  const labelled = rng.chance(0.6);
  if (labelled && timeText && rng.chance(0.5)) {
    dateRows.push({
      left: `${cased(rng.pick(words.date))} ${dateText}`,
      right: `${cased(rng.pick(words.time))} ${timeText}`,
    });
  } else if (labelled) {
    dateRows.push({ left: cased(rng.pick(words.date)), right: dateText });
    if (timeText) dateRows.push({ left: cased(rng.pick(words.time)), right: timeText });
  } else {
    dateRows.push({ left: timeText ? `${dateText} ${timeText}` : dateText });
  }
  if (data.receiptNo) dateRows.push({ left: `${cased(rng.pick(words.receiptNo))} ${data.receiptNo}` });
  if (rng.chance(0.3)) dateRows.push({ left: `${cased(rng.pick(words.cashier))} ${rng.int(1, 12)}` });
  const datesAtBottom = rng.chance(0.25);
  if (!datesAtBottom) rows.push(...dateRows, sep);

  const qtyFirst = rng.chance(0.5);
  for (const item of data.items) {
    const desc = cased(item.description);
    if (item.qty === 1) rows.push({ left: desc, right: money(item.amountCents, itemMark) });
    else if (qtyFirst) rows.push({ left: `${item.qty} x ${desc}`, right: money(item.amountCents, itemMark) });
    else {
      rows.push({ left: desc });
      rows.push({ left: `  ${item.qty} x ${money(item.unitCents, "none")}`, right: money(item.amountCents, itemMark) });
    }
  }
  rows.push(sep);

  const taxWords = RECEIPT_TAX_WORDS[tag] ?? (data.taxIncluded ? words.taxIncluded : words.tax);
  const rate = String(data.taxRate).replace(".", numbers.decimal);
  const taxLabel = (): string => {
    const label = cased(rng.pick(taxWords));
    return /\d%/.test(label) || rng.chance(0.4) ? label : `${label} ${rate}%`;
  };
  const totalChoices = (RECEIPT_TOTAL_WORDS[tag] ?? words.total).filter(
    (t) => data.currencyPrinted || !CODE_IN_LABEL.test(t),
  );
  const totalRow: Row = {
    left: cased(rng.pick(totalChoices)),
    right: money(data.totalCents, totalMark),
    bold: true,
    scale: rng.float(1, 1.4),
  };
  if (!data.taxIncluded) {
    rows.push({ left: cased(rng.pick(words.subtotal)), right: money(data.subtotalCents, "none") });
    if (data.taxCents !== null) rows.push({ left: taxLabel(), right: money(data.taxCents, "none") });
    if (!data.payment) rows.push(totalRow);
  } else {
    if (rng.chance(0.3)) rows.push({ left: cased(rng.pick(words.subtotal)), right: money(data.subtotalCents, "none") });
    if (!data.payment) rows.push(totalRow);
  }
  if (data.payment && data.cashCents !== null) {
    rows.push(...paymentRows(data, data.payment, data.cashCents, totalRow, money, rng));
  } else if (data.cashCents !== null) {
    rows.push({ left: cased(rng.pick(words.cash)), right: money(data.cashCents, "none") });
    rows.push({ left: cased(rng.pick(words.change)), right: money(data.cashCents - data.totalCents, "none") });
  } else {
    rows.push({ left: cased(rng.pick(words.card)), right: money(data.totalCents, "none") });
  }
  if (data.taxIncluded && data.taxCents !== null) {
    rows.push({});
    rows.push({ left: taxLabel(), right: money(data.taxCents, "none") });
  }
  rows.push({});
  if (datesAtBottom) rows.push(...dateRows);
  rows.push({ center: cased(rng.pick(words.thanks)) });

  const rowHeight = (r: Row): number => lh * (r.scale ?? 1);
  const height = margin * 2 + rows.reduce((sum, r) => sum + rowHeight(r), 0);
  const sheet = new Sheet(doc, width, height, fonts);
  let y = margin;
  for (const row of rows) {
    const base = size * (row.scale ?? 1);
    const bold = row.bold ?? false;
    const avail = width - 2 * margin;
    if (row.center !== undefined) {
      const s = sheet.fit(row.center, base, avail, bold);
      sheet.text(row.center, width / 2, y, { size: s, bold, align: "center" });
    }
    if (row.right !== undefined) sheet.text(row.right, width - margin, y, { size: base, bold, align: "right" });
    if (row.left !== undefined) {
      const room = avail - (row.right !== undefined ? sheet.measure(row.right, { size: base, bold }) + 8 : 0);
      sheet.text(row.left, margin, y, { size: sheet.fit(row.left, base, room, bold), bold });
    }
    y += rowHeight(row);
  }
  return 1;
}

/**
 * The rows of a payment block (receipt-data.ts PaymentLayout): its total line (the usual one, or one naming the tax
 * before its inclusion), the rounding line and the rounded total where the shop rounds to the coin, the cash and the
 * change.
 */
function paymentRows(
  data: ReceiptData,
  payment: NonNullable<ReceiptData["payment"]>,
  cashCents: number,
  totalRow: Row,
  money: (cents: number, mark: CurrencyMark) => string,
  rng: Rng,
): Row[] {
  const adjustment = payment.roundedCents - data.totalCents;
  const signed = `${adjustment < 0 ? "-" : ""}${money(Math.abs(adjustment), "none")}`;
  const change = { left: rng.pick(PAYMENT_WORDS.change), right: money(cashCents - payment.roundedCents, "none") };
  const cash = { left: rng.pick(PAYMENT_WORDS.cash), right: money(cashCents, "none") };
  switch (payment.style) {
    case "rounded-total":
      return [
        totalRow,
        { left: rng.pick(PAYMENT_WORDS.rounding), right: signed },
        { left: rng.pick(PAYMENT_WORDS.rounded), right: money(payment.roundedCents, "none"), bold: true },
        cash,
        change,
      ];
    case "rounding-under-payment": {
      const total = rng.chance(0.6) ? { ...totalRow, left: rng.pick(PAYMENT_WORDS.taxFirst) } : totalRow;
      return [total, cash, { left: rng.pick(PAYMENT_WORDS.rounding), right: signed }, change];
    }
    case "pay-station":
      return [
        { left: rng.pick(PAYMENT_WORDS.stationTotal), right: money(data.totalCents, "none") },
        { left: rng.pick(PAYMENT_WORDS.accepted), right: money(cashCents, "none") },
        change,
      ];
  }
}
