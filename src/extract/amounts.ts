/**
 * Amount fields. Each printed amount gets a score per role (total, subtotal, tax, amount due) from its nearest label,
 * the labels that rule it out (cash, change, rounding, discount, quantity, unit price), where it sits, how often the
 * same value is printed, and whether it is the largest labelled total. On receipts the page's own arithmetic checks the
 * total too (tendered - change, net + tax, tax at the printed rate, rounding to the coin), which is what survives OCR
 * damage to the total's own line or label: it confirms a total, reads one whose line OCR lost or misread by a digit,
 * and lowers the confidence of one it speaks against. A joint choice then prefers combinations that add up (subtotal
 * + tax = total) and make sense (amount due not above total).
 */
import { type AmountCandidate, labelsOf } from "./candidates.js";
import { roleStrength } from "./context.js";
import type { FieldDecision, Scored } from "./decision.js";
import { LABELS, type LabelRole } from "./labels.js";
import type { Layout, LineSegment } from "./layout.js";
import type { Alternative } from "./model/ranker.js";
import { formatAmount } from "./normalise/amount.js";

export type AmountRole = "total" | "subtotal" | "tax" | "amountDue";

const NEGATIVE: readonly LabelRole[] = [
  "cash",
  "change",
  "rounding",
  "discount",
  "quantity",
  "unitPrice",
  "paid",
  "page",
  "customerNumber",
  "invoiceNumber",
  "receiptNumber",
  "accountNo",
  "contact",
  "taxId",
  "companyReg",
];

const OTHER_ROLES: Record<AmountRole, readonly LabelRole[]> = {
  total: ["subtotal", "tax"],
  subtotal: ["total", "tax", "amountDue"],
  tax: ["total", "subtotal", "amountDue"],
  amountDue: ["subtotal", "tax"],
};

interface RoleScored {
  candidate: AmountCandidate;
  score: number;
}

const DECIMAL_SHARE = new WeakMap<readonly AmountCandidate[], number>();

function decimalShare(all: readonly AmountCandidate[]): number {
  let share = DECIMAL_SHARE.get(all);
  if (share === undefined) {
    share = all.length === 0 ? 0 : all.filter((c) => c.hasDecimals).length / all.length;
    DECIMAL_SHARE.set(all, share);
  }
  return share;
}

function sameValueCount(all: readonly AmountCandidate[], c: AmountCandidate): number {
  return all.filter((o) => o !== c && Math.abs(o.value - c.value) < 0.005).length;
}

/** Position of the candidate in the whole document, 0 (top of first page) .. 1 (bottom of last page). */
function documentPosition(layout: Layout, c: AmountCandidate): number {
  const pages = layout.pages.length;
  const index = layout.pages.findIndex((p) => p.pageNum === c.segment.pageNum);
  return (index + c.box.y0) / Math.max(pages, 1);
}

/** Right-most amount on its row: totals sit in the amount column, not in the middle of a tax breakdown. */
function isRightmost(c: AmountCandidate, all: readonly AmountCandidate[]): boolean {
  return !all.some(
    (o) => o !== c && o.segment.pageNum === c.segment.pageNum && o.segment.row === c.segment.row && o.box.x0 > c.box.x1,
  );
}

/** Two amounts equal to the cent. */
function sameAmount(a: number, b: number): boolean {
  return Math.abs(a - b) < 0.005;
}

/**
 * Labels of the amount handed over: "Cash", "Visa", and with change below it "Total Paid" (alone, "paid" is as often
 * a deposit or prepayment).
 */
const TENDERED: readonly LabelRole[] = ["cash", "paid"];

/** What a till receipt says was paid: a tendered amount minus the change printed below it, if any. */
interface Payment {
  tendered: AmountCandidate;
  change: AmountCandidate | null;
  value: number;
}

const PAYMENTS = new WeakMap<readonly AmountCandidate[], Payment[]>();

/**
 * Tendered/change pairs of the page. "Change 0.00" counts only right below its tendered line: exact payment (a card,
 * or cash to the cent) makes the tendered amount the total, but a zero far away is some other zero.
 */
function paymentsOf(layout: Layout, all: readonly AmountCandidate[]): Payment[] {
  const cached = PAYMENTS.get(all);
  if (cached) return cached;
  const tendered = all.filter((o) => o.value > 0 && roleStrength(labelsOf(layout, o), TENDERED) > 0.5);
  const change = all.filter((o) => o.value >= 0 && roleStrength(labelsOf(layout, o), ["change"]) > 0.5);
  const found: Payment[] = [];
  for (const t of tendered) {
    for (const o of change) {
      const rows = o.segment.row - t.segment.row;
      if (o === t || o.segment.pageNum !== t.segment.pageNum || rows <= 0 || o.value >= t.value) continue;
      if (o.value === 0 && rows > 3) continue;
      found.push({ tendered: t, change: o, value: Math.round((t.value - o.value) * 100) / 100 });
    }
  }
  // A page with one payment line and no change line at all was paid exactly (a card, or cash to the cent).
  for (const t of tendered.filter((o) => roleStrength(labelsOf(layout, o), ["cash"]) > 0.5)) {
    const page = (o: { pageNum: number }) => o.pageNum === t.segment.pageNum;
    const alone = tendered.filter((o) => page(o.segment)).length === 1;
    if (alone && t.hasDecimals && !layout.segments.some((s) => page(s) && printsLabel(s, "change"))) {
      found.push({ tendered: t, change: null, value: t.value });
    }
  }
  PAYMENTS.set(all, found);
  return found;
}

/** Whether a segment prints a label of the role, even one whose amount OCR lost ("Change :", "Rounding Adj R -02"). */
function printsLabel(segment: LineSegment, role: LabelRole): boolean {
  return segment.folded.some((word) => LABELS.get(word)?.some((entry) => entry.role === role));
}

/** Readings of the total that the page's arithmetic supplies where OCR failed the total line. */
function arithmeticReadings(layout: Layout, all: readonly AmountCandidate[]): AmountCandidate[] {
  return [...paidReadings(layout, all), ...repairedReadings(layout, all), ...unprintedRoundings(layout, all)];
}

/** The coins totals are rounded to for cash (0.05: Malaysia, Switzerland, Canada...; 0.10: New Zealand...). */
const COIN_STEPS = [0.05, 0.1];

/**
 * The rounded total a receipt states only as its parts ("Total Sales RM 64.13", "Rounding Adjustment RM 0.02", and
 * no 64.15 printed, or none OCR read): the labelled total moved to the nearest coin, when the printed adjustment is
 * exactly that move and no payment near the total says otherwise. It stands on the rounding line, so roundedTotals()
 * gives it the total's label.
 */
function unprintedRoundings(layout: Layout, all: readonly AmountCandidate[]): AmountCandidate[] {
  const out: AmountCandidate[] = [];
  const adjustments = all.filter(
    (r) => r.value !== 0 && Math.abs(r.value) < ROUNDING_STEP && roleStrength(labelsOf(layout, r), ["rounding"]) > 0.5,
  );
  const tendered = all.filter((o) => o.value > 0 && roleStrength(labelsOf(layout, o), TENDERED) > 0.5);
  for (const r of adjustments) {
    const totals = all.filter(
      (t) =>
        t.value > 0 &&
        t.segment.pageNum === r.segment.pageNum &&
        t.segment.row < r.segment.row &&
        r.segment.row - t.segment.row <= 3 &&
        roleStrength(labelsOf(layout, t), ["total"]) > 0.5,
    );
    for (const t of totals) {
      // A rounding line printed under a payment line rounds the change handed back, not the total printed above it.
      if (
        tendered.some(
          (p) =>
            p.segment.pageNum === t.segment.pageNum && p.segment.row > t.segment.row && p.segment.row < r.segment.row,
        )
      ) {
        continue;
      }
      for (const step of COIN_STEPS) {
        const value = Math.round(Math.round(t.value / step) * step * 100) / 100;
        if (!sameAmount(Math.abs(value - t.value), Math.abs(r.value))) continue;
        if ([...all, ...out].some((o) => sameAmount(o.value, value))) continue;
        // A payment near the total that is not this amount says the page was rounded otherwise, or not at all.
        if (tendered.some((p) => Math.abs(p.value - t.value) < ROUNDING_STEP && !sameAmount(p.value, value))) continue;
        const reading = {
          ...r,
          words: [...t.words, ...r.words],
          value,
          normal: formatAmount(value),
          hasDecimals: true,
        };
        ROUNDED_FROM.set(reading, t);
        out.push(reading);
      }
    }
  }
  return out;
}

/** Mean OCR confidence of a labelled total's words from which the total line counts as read. */
const SURE_TOTAL = 0.95;

/**
 * A total that was paid with change but whose own line OCR lost ("TOTAL * UO"): tendered minus change, standing on
 * the tendered line with the words of both. Only when no printed amount has that value, and only when no labelled
 * total was read surely: then the misreading is the payment's ("Cash 10.09", "CHANGE 5.03" under "Total 5.00" read
 * at 1.00), and the arithmetic the two lines give wrongly backed their difference over the printed total. Nor when
 * a printed rounding adjustment takes an amount above the payment to it: that amount is the total, read.
 */
function paidReadings(layout: Layout, all: readonly AmountCandidate[]): AmountCandidate[] {
  const out: AmountCandidate[] = [];
  const surelyRead = all.some(
    (c) => c.value > 0 && ocrQuality(c) >= SURE_TOTAL && roleStrength(labelsOf(layout, c), ["total"]) > 0.5,
  );
  if (surelyRead) return out;
  const adjustments = roundingAdjustments(layout, all);
  // A printed amount above the payment that the page's rounding adjustment takes to what was paid is the total, and
  // the payment that total rounded to the coin ("AMOUNT DUE 520.78 / Cash 530.00 / Rounding Adj 0.02 / Change 9.20").
  const rounds = (p: Payment) =>
    all.some(
      (c) =>
        c.value > 0 &&
        c.segment.pageNum === p.tendered.segment.pageNum &&
        c.segment.row < p.tendered.segment.row &&
        adjustments.some((r) => sameAmount(r, Math.abs(c.value - p.value))),
    );
  for (const p of paymentsOf(layout, all)) {
    const change = p.change;
    if (!change || change.value === 0 || [...all, ...out].some((o) => sameAmount(o.value, p.value)) || rounds(p)) {
      continue;
    }
    out.push({
      ...p.tendered,
      words: [...p.tendered.words, ...change.words],
      value: p.value,
      normal: formatAmount(p.value),
      hasDecimals: true,
      labels: { left: null, above: null },
    });
  }
  return out;
}

/**
 * A labelled total one digit away from what was paid or what net and tax add up to ("110.60" where 110.00 was
 * paid): the total line read with that value. The slip is as likely on the other lines as on the total's, so the
 * reading starts below the printed one (see scoreRole) and wins only by the arithmetic that backs it.
 */
function repairedReadings(layout: Layout, all: readonly AmountCandidate[]): AmountCandidate[] {
  const payments = paymentsOf(layout, all);
  const arithmetic = [
    ...payments.filter((p) => p.change && p.change.value > 0).map((p) => p.value),
    ...grossSums(layout, all).map((g) => g.value),
  ];
  const out: AmountCandidate[] = [];
  for (const c of all) {
    if (c.value <= 0 || roleStrength(labelsOf(layout, c), ["total"]) <= 0.5 || grossByArithmetic(layout, c, all)) {
      continue;
    }
    // An exact payment is no arithmetic but a second reading of the amount: the surer reading of a total printed once.
    const readAgain = payments
      .filter((p) => !p.change?.value && sameValueCount(all, c) === 0 && ocrQuality(p.tendered) > ocrQuality(c))
      .map((p) => p.value);
    const slip = (v: number) =>
      oneDigitApart(c.normal, formatAmount(v)) &&
      !roundingExplains(layout, c, all, v) &&
      coinAfterRounding(layout, c, all, v);
    const sums = [...arithmetic, ...readAgain, ...partSums(layout, c, all)];
    const near = [...new Set(sums.filter(slip).map(formatAmount))];
    if (near.length !== 1) continue;
    const value = Number(near[0]);
    const reading = { ...c, value, normal: formatAmount(value), hasDecimals: true };
    REPAIRED.set(reading, c);
    out.push(reading);
  }
  return out;
}

/** Readings repairedReadings() made of a total line by changing one digit, and the printed amount each reads. */
const REPAIRED = new WeakMap<AmountCandidate, AmountCandidate>();
/** Readings unprintedRoundings() made of a total line, and the printed total each rounds. */
const ROUNDED_FROM = new WeakMap<AmountCandidate, AmountCandidate>();

/** The printed amount a reading stands for: itself, or the total line it was made of. */
function printedOf(c: AmountCandidate): AmountCandidate {
  return REPAIRED.get(c) ?? ROUNDED_FROM.get(c) ?? c;
}

/**
 * After a rounding line, even one whose amount OCR lost, comes the rounded total that was actually paid. A line whose
 * label OCR damaged ("Roundlng (RM) : -0.02") counts by the adjustment read on it.
 */
function followsRounding(layout: Layout, c: AmountCandidate, all: readonly AmountCandidate[]): boolean {
  const above = (s: { pageNum: number; row: number }) =>
    s.pageNum === c.segment.pageNum && s.row < c.segment.row && c.segment.row - s.row <= 2;
  return (
    layout.segments.some((s) => above(s) && printsLabel(s, "rounding")) ||
    all.some(
      (r) =>
        above(r.segment) && Math.abs(r.value) < ROUNDING_STEP && roleStrength(labelsOf(layout, r), ["rounding"]) > 0.5,
    )
  );
}

/**
 * The difference between a total and what arithmetic makes of it is the rounding to the coin, no misreading: the
 * adjustment the page prints (the payment rounded where the rounding line stands under the total, the total rounded
 * where it stands above), or, with no adjustment read, a few cents on a total printed after a rounding line. "112.46"
 * under "Rounding -0.02" is 0.01 from net plus tax, 112.47: a slip, not the rounding.
 */
function roundingExplains(
  layout: Layout,
  c: AmountCandidate,
  all: readonly AmountCandidate[],
  arithmetic: number,
): boolean {
  const difference = Math.abs(arithmetic - c.value);
  if (difference >= ROUNDING_STEP) return false;
  const adjustments = roundingAdjustments(layout, all);
  if (adjustments.some((r) => sameAmount(r, difference))) return true;
  return adjustments.length === 0 && followsRounding(layout, c, all);
}

/**
 * What a total printed after a rounding line that printed its adjustment can be put right to: an amount in whole
 * coins (0.05 or 0.10), as rounding makes it. Any amount elsewhere.
 */
function coinAfterRounding(
  layout: Layout,
  c: AmountCandidate,
  all: readonly AmountCandidate[],
  value: number,
): boolean {
  if (!followsRounding(layout, c, all) || roundingAdjustments(layout, all).length === 0) return true;
  return COIN_STEPS.some((step) => sameAmount(Math.round(value / step) * step, value));
}

/** Mean OCR confidence of the amount's words. */
function ocrQuality(c: AmountCandidate): number {
  return c.words.reduce((sum, w) => sum + w.confidence, 0) / Math.max(c.words.length, 1);
}

/** One digit misread ("65.53" for "65.55") or lost ("4.19" for "94.19"): the shape of an OCR slip on one glyph. */
function oneDigitApart(read: string, value: string): boolean {
  if (read.length === value.length) {
    let differences = 0;
    for (let i = 0; i < read.length; i++) if (read[i] !== value[i]) differences++;
    return differences === 1;
  }
  return (
    value.length === read.length + 1 &&
    [...value].some((char, i) => /\d/.test(char) && value.slice(0, i) + value.slice(i + 1) === read)
  );
}

/** Tax rates printed on the page ("GST @ 6%", "MwSt 19 %") and the rows they stand on. */
interface TaxEvidence {
  rates: number[];
  /** Amounts labelled as tax, or standing on a row that prints a rate. */
  taxes: AmountCandidate[];
  /** Pairs that add up to a gross amount: net and tax of one rate row, or a labelled subtotal and tax. */
  pairs: Array<[AmountCandidate, AmountCandidate]>;
}

const TAX_EVIDENCE = new WeakMap<readonly AmountCandidate[], TaxEvidence>();
const RATE = /(?<![\d.,])(\d{1,2}(?:[.,]\d{1,2})?) ?%/g;

function taxEvidence(layout: Layout, all: readonly AmountCandidate[]): TaxEvidence {
  const cached = TAX_EVIDENCE.get(all);
  if (cached) return cached;
  const rates = new Set<number>();
  const rateRows = new Set<string>();
  for (const segment of layout.segments) {
    for (const match of segment.text.matchAll(RATE)) {
      const rate = Number((match[1] ?? "").replace(",", "."));
      if (rate <= 0 || rate > 30) continue;
      rates.add(rate);
      rateRows.add(`${segment.pageNum}:${segment.row}`);
    }
  }
  const onRateRow = all.filter(
    (o) => rateRows.has(`${o.segment.pageNum}:${o.segment.row}`) && o.value > 0 && !rates.has(o.value),
  );
  const labelledTax = all.filter((o) => o.value > 0 && roleStrength(labelsOf(layout, o), ["tax"]) > 0.3);
  const taxes = [...new Set([...labelledTax, ...onRateRow])];
  const pairs: Array<[AmountCandidate, AmountCandidate]> = [];
  for (const a of onRateRow) {
    for (const b of onRateRow) {
      if (
        a !== b &&
        a.box.x0 < b.box.x0 &&
        a.segment.row === b.segment.row &&
        a.segment.pageNum === b.segment.pageNum
      ) {
        pairs.push([a, b]);
      }
    }
  }
  const subtotals = all.filter((o) => o.value > 0 && roleStrength(labelsOf(layout, o), ["subtotal"]) > 0.3);
  for (const s of subtotals) for (const x of labelledTax) if (s !== x) pairs.push([s, x]);
  const evidence = { rates: [...rates], taxes, pairs };
  TAX_EVIDENCE.set(all, evidence);
  return evidence;
}

/** At rate r the tax is total * r / (100 + r), whether prices include it or not: true when a printed tax says so. */
function rateFits(layout: Layout, c: AmountCandidate, all: readonly AmountCandidate[]): boolean {
  if (c.value <= 0) return false;
  const { rates, taxes } = taxEvidence(layout, all);
  return rates.some((r) =>
    taxes.some((x) => x !== c && sameAmount(Math.round(((c.value * r) / (100 + r)) * 100) / 100, x.value)),
  );
}

/** Below this a printed amount can be a rounding adjustment: rounding to the coin moves a total by a few cents. */
const ROUNDING_STEP = 0.1;

/** Sizes of the rounding adjustments printed on the page ("Rounding Adj -0.02"); OCR often drops their sign. */
function roundingAdjustments(layout: Layout, all: readonly AmountCandidate[]): number[] {
  return all
    .filter(
      (o) =>
        o.value !== 0 && Math.abs(o.value) < ROUNDING_STEP && roleStrength(labelsOf(layout, o), ["rounding"]) > 0.5,
    )
    .map((o) => Math.abs(o.value));
}

/** A gross amount by arithmetic: net plus tax, as printed or after a rounding adjustment of the page. */
interface GrossSum {
  net: AmountCandidate;
  tax: AmountCandidate;
  value: number;
}

const GROSS_SUMS = new WeakMap<readonly AmountCandidate[], GrossSum[]>();

function grossSums(layout: Layout, all: readonly AmountCandidate[]): GrossSum[] {
  const cached = GROSS_SUMS.get(all);
  if (cached) return cached;
  const adjustments = roundingAdjustments(layout, all);
  const sums = taxEvidence(layout, all).pairs.flatMap(([net, tax]) => {
    const exact = net.value + tax.value;
    return [exact, ...adjustments.flatMap((r) => [exact + r, exact - r])].map((value) => ({
      net,
      tax,
      value: Math.round(value * 100) / 100,
    }));
  });
  GROSS_SUMS.set(all, sums);
  return sums;
}

/** Net plus tax of a rate row, or a labelled subtotal plus tax, is the amount (rounded to the coin or not). */
function netPlusTax(layout: Layout, c: AmountCandidate, all: readonly AmountCandidate[]): boolean {
  return grossSums(layout, all).some((g) => g.net !== c && g.tax !== c && sameAmount(g.value, c.value));
}

/**
 * Sums of two part totals printed above the amount: pages with several tax rates print a total per rate ("Total 6%
 * supplies (Inc. GST) 73.52", "Total 0% supplies 20.67") and below them the total to pay. Parts of one value are a
 * total printed twice, not two parts.
 */
function partSums(layout: Layout, c: AmountCandidate, all: readonly AmountCandidate[]): number[] {
  const parts = all.filter(
    (o) =>
      o !== c &&
      o.value > 0 &&
      o.segment.pageNum === c.segment.pageNum &&
      o.segment.row < c.segment.row &&
      roleStrength(labelsOf(layout, o), ["total"]) > 0.5,
  );
  return parts.flatMap((a, i) =>
    parts
      .slice(i + 1)
      .filter((b) => b.segment.row !== a.segment.row && !sameAmount(a.value, b.value))
      .map((b) => Math.round((a.value + b.value) * 100) / 100),
  );
}

/** A labelled total that the part totals above it add up to. */
function sumOfParts(layout: Layout, c: AmountCandidate, all: readonly AmountCandidate[]): boolean {
  return (
    roleStrength(labelsOf(layout, c), ["total"]) > 0.5 && partSums(layout, c, all).some((v) => sameAmount(v, c.value))
  );
}

/** The payment that says c was paid: tendered minus change, or the tendered amount itself when no change was given. */
function paymentOf(layout: Layout, c: AmountCandidate, all: readonly AmountCandidate[]): Payment | undefined {
  return paymentsOf(layout, all).find(
    (p) =>
      p.tendered.segment.pageNum === c.segment.pageNum &&
      sameAmount(p.value, c.value) &&
      (p.tendered !== c || p.change === null || p.change.value === 0),
  );
}

function isPaid(layout: Layout, c: AmountCandidate, all: readonly AmountCandidate[]): boolean {
  return paymentOf(layout, c, all) !== undefined;
}

/** What was paid, or what the printed tax and net amounts add up to: a gross amount by arithmetic. */
function grossByArithmetic(layout: Layout, c: AmountCandidate, all: readonly AmountCandidate[]): boolean {
  return c.value > 0 && (isPaid(layout, c, all) || rateFits(layout, c, all) || netPlusTax(layout, c, all));
}

/**
 * A receipt's gross amount printed under a label OCR damaged into a tax label ("Tota! Sales Inclusive GST", "(i
 * clusive of GST)"): the arithmetic above says it is gross, or the same amount is labelled total elsewhere. A tax is
 * never the gross amount.
 */
function grossAmount(layout: Layout, c: AmountCandidate, all: readonly AmountCandidate[]): boolean {
  const labelledTotal = all.some(
    (o) => o !== c && sameAmount(o.value, c.value) && roleStrength(labelsOf(layout, o), ["total"]) > 0.5,
  );
  return (c.value > 0 && labelledTotal) || grossByArithmetic(layout, c, all);
}

const ROUNDED = new WeakMap<readonly AmountCandidate[], Map<AmountCandidate, AmountCandidate>>();

/**
 * Below a rounding line the total is printed again, rounded to the coin ("Total 177.22", "Rounding Adj -0.02",
 * "177.20"), often beside a payment or rounding label or none: that is what was paid. Maps each such amount to the
 * labelled total it rounds, whose label it takes over; a rounding amount OCR read must match the difference.
 */
function roundedTotals(layout: Layout, all: readonly AmountCandidate[]): Map<AmountCandidate, AmountCandidate> {
  const cached = ROUNDED.get(all);
  if (cached) return cached;
  const found = new Map<AmountCandidate, AmountCandidate>();
  const totals = all.filter((t) => t.value > 0 && roleStrength(labelsOf(layout, t), ["total"]) > 0.5);
  for (const line of layout.segments.filter((s) => printsLabel(s, "rounding"))) {
    const onLine = (o: AmountCandidate) => o.segment.pageNum === line.pageNum && o.segment.row === line.row;
    const adjustments = all.filter((o) => onLine(o) && Math.abs(o.value) < ROUNDING_STEP).map((o) => Math.abs(o.value));
    const fits = (difference: number) =>
      difference > 0.005 &&
      difference < ROUNDING_STEP &&
      (adjustments.length === 0 || adjustments.some((r) => sameAmount(r, difference)));
    for (const c of all) {
      const rows = c.segment.row - line.row;
      if (c.segment.pageNum !== line.pageNum || c.value <= 0 || rows < 0 || rows > 4 || found.has(c)) continue;
      const total = totals.find(
        (t) =>
          t !== c &&
          t.segment.pageNum === line.pageNum &&
          t.segment.row < line.row &&
          line.row - t.segment.row <= 3 &&
          fits(Math.abs(c.value - t.value)),
      );
      if (total) found.set(c, total);
    }
  }
  ROUNDED.set(all, found);
  return found;
}

/**
 * "88. 1?": OCR split the amount after its decimal point and could not read the cents. What parsed ("88.") is only
 * the front of the amount, so another reading of the total should win.
 */
function truncated(c: AmountCandidate): boolean {
  const last = c.words[c.words.length - 1]?.text ?? "";
  const next = c.segment.words[c.end]?.text ?? "";
  return /[.,]$/.test(last) && /^[\dOoIl|?!]/.test(next) && next.length <= 3;
}

/**
 * Till receipts print the total right above the payment lines (cash, change) and repeat tax summaries after them:
 * an amount just above the first payment line is likely the total, one below it unlikely.
 */
function paymentContext(layout: Layout, c: AmountCandidate, all: readonly AmountCandidate[]): number {
  const payments = all.filter(
    (o) => o.segment.pageNum === c.segment.pageNum && roleStrength(labelsOf(layout, o), ["cash", "change"]) > 0.5,
  );
  const first = Math.min(...payments.map((o) => o.segment.row));
  if (!Number.isFinite(first)) return 0;
  let score = 0;
  if (c.segment.row < first && first - c.segment.row <= 4) score += 0.5;
  if (c.segment.row > first) score -= 0.6;
  if (payments.some((o) => Math.abs(o.value - c.value) < 0.005 && o !== c)) score += 0.3;
  return score;
}

/**
 * What the receipt's other amounts say about a total, with or without payment lines: it follows the rounding line,
 * it is what was paid, and the printed tax and net amounts add up to it. An OCR slip in the total's digits ("12.48"
 * for "12.40") breaks those checks; a damaged total line ("TOTAL * UO") leaves them standing.
 */
function arithmeticContext(layout: Layout, c: AmountCandidate, all: readonly AmountCandidate[]): number {
  let score = 0;
  // The rounded total, in whole coins: "112.46" under "Rounding -0.02" is a misreading of it.
  if (followsRounding(layout, c, all) && coinAfterRounding(layout, c, all, c.value)) score += 0.5;
  // A payment without a change line is weaker evidence: a change line OCR lost would make it tendered cash.
  const payment = paymentOf(layout, c, all);
  if (payment) score += payment.change ? 1.6 : 1;
  if (rateFits(layout, c, all)) score += 0.5;
  if (netPlusTax(layout, c, all)) score += 0.4;
  if (sumOfParts(layout, c, all)) score += 1;
  return score;
}

const LARGEST = new WeakMap<readonly AmountCandidate[], number>();

/** The largest printed amount labelled as a total or amount due (0 when none is). */
function largestLabelled(layout: Layout, all: readonly AmountCandidate[]): number {
  let max = LARGEST.get(all);
  if (max === undefined) {
    const labelled = all.filter(
      (o) => printedOf(o) === o && roleStrength(labelsOf(layout, o), ["total", "amountDue"]) > 0.3,
    );
    max = Math.max(0, ...labelled.map((o) => Math.abs(o.value)));
    LARGEST.set(all, max);
  }
  return max;
}

/** Units a count is printed with: days, months, pieces, hours (en, de, fr, es, nl). */
const UNIT =
  /^(days?|tagen?|jours?|d[ií]as?|dagen|months?|monate?n?|mois|meses|maanden|weeks?|wochen?|semaines?|hours?|hrs?|std|stunden?|heures?|stk|st[üu]ck|pcs|pieces?|units?|unit\(s\)|x)\b/i;

/**
 * The word right after the amount is a unit of time or count ("30 Tagen", "20 Unit(s)"), or the number is the days of
 * payment terms ("Net 30", "net 15"): a count, not money.
 */
function unitAfter(c: AmountCandidate): boolean {
  if (c.hasDecimals) return false;
  const termsDays = /^net$/i.test(c.segment.words[c.start - 1]?.text ?? "") && c.value > 0 && c.value <= 120;
  return termsDays || UNIT.test(c.segment.words[c.end]?.text ?? "");
}

export function scoreRole(
  layout: Layout,
  role: AmountRole,
  c: AmountCandidate,
  all: readonly AmountCandidate[],
  receipt: boolean,
): number {
  const rounds = receipt && role === "total" ? roundedTotals(layout, all).get(c) : undefined;
  const labels = labelsOf(layout, rounds ?? c);
  const own = roleStrength(labels, role === "amountDue" ? ["amountDue"] : [role]);
  const total = role === "amountDue" ? roleStrength(labels, ["total"]) * 0.5 : 0;
  // On a receipt a gross amount under a tax label ("GST" also names the tax id) is a total whose label OCR damaged,
  // and cash tendered with no change is the total paid.
  const misread = receipt && role === "total" && grossAmount(layout, c, all);
  const paidInFull = receipt && role === "total" && isPaid(layout, c, all);
  const other = roleStrength(labels, misread ? ["subtotal"] : OTHER_ROLES[role]);
  const negative = roleStrength(
    labels,
    NEGATIVE.filter((r) => !(misread && r === "taxId") && !(paidInFull && TENDERED.includes(r))),
  );
  let score = 2.4 * Math.max(own, total) - 1.6 * Math.max(other, negative) * (own > 0 ? 0.5 : 1);
  // Where amounts are printed with decimals, a bare integer ("within 30 days") is a count, not money.
  if (!c.hasDecimals) score -= receipt || decimalShare(all) > 0.5 ? 1.2 : 0.6;
  // A zero is rarely a total, but "Amount due $0.00" under its own label is what a paid invoice prints.
  if (c.value === 0 && role !== "tax" && !(role === "amountDue" && own > 0.5)) score -= 0.8;
  // "4:" is a number that labels what follows (a count, a line number, OCR of a rate), never a printed amount.
  if (/:$/.test(c.words[c.words.length - 1]?.text ?? "")) score -= 1;
  // "GST @ 6 %": a number with a percent sign after it is a rate.
  if (/^%/.test(c.segment.words[c.end]?.text ?? "")) score -= 2;
  // "Zahlbar innerhalb 30 Tagen", "net 30 days": a number followed by a unit of time or count is no amount.
  if (unitAfter(c)) score -= 1.5;
  if (Math.abs(c.value) > 1e7) score -= 1.5;
  if (truncated(c)) score -= 0.8;
  const repeats = Math.min(sameValueCount(all, c), 3);
  const position = documentPosition(layout, c);
  if (role === "total" || role === "amountDue") {
    score += 0.15 * repeats + 0.4 * position;
    if (receipt) score += paymentContext(layout, c, all) + arithmeticContext(layout, c, all);
    // A reading the arithmetic made by changing a printed digit has to be outweighed by that arithmetic.
    if (REPAIRED.has(c)) score -= 0.8;
    // The largest of the printed amounts: a repaired or rounded reading stands for its printed amount, not beside it.
    const max = largestLabelled(layout, all);
    if (own > 0.3 && Math.abs(printedOf(c).value) >= max - 0.005) score += 0.2;
  } else {
    score += 0.05 * repeats + 0.2 * position;
    if (role === "tax" && receipt && grossAmount(layout, c, all)) score -= 2.4;
  }
  if (isRightmost(c, all)) score += 0.15;
  if (c.currency) score += 0.1;
  return score;
}

/** What the summary's arithmetic adds to a net amount no label names: about the weight of a weak label. */
const NET_BY_ARITHMETIC = 1;

/**
 * Net amounts only the summary's arithmetic names ("Leistungen  EUR 20.296,14" over "MwSt. 19 %  EUR 3.856,27" and
 * "Gesamtbetrag  EUR 24.152,41"; "Prestations" over "TVA 20 %"): an amount printed one or two lines above a labelled
 * tax, in its column, that the tax brings to a labelled total, and that no label gives another role. No label
 * speaks for them, so they rank below a page's line items as subtotals and the combination of roles would never
 * weigh them.
 */
function netsByArithmetic(
  layout: Layout,
  options: Record<AmountRole, Array<RoleScored | null>>,
  all: readonly AmountCandidate[],
  receipt: boolean,
): RoleScored[] {
  const labelled = (entries: ReadonlyArray<RoleScored | null>) =>
    entries.filter((e): e is RoleScored => e !== null && e.score > 1).map((e) => e.candidate);
  const listed = labelled(options.subtotal);
  const found = new Map<AmountCandidate, RoleScored>();
  for (const total of labelled(options.total)) {
    for (const tax of labelled(options.tax)) {
      if (tax === total || tax.value <= 0 || tax.value >= total.value) continue;
      for (const c of all) {
        if (c === total || c === tax || found.has(c) || !c.hasDecimals) continue;
        // A labelled subtotal of that amount is the net amount printed (a line item above may repeat it).
        if (listed.some((s) => sameAmount(s.value, c.value))) continue;
        if (Math.abs(c.value + tax.value - total.value) >= CLOSE) continue;
        const rowsAbove = tax.segment.row - c.segment.row;
        if (c.segment.pageNum !== tax.segment.pageNum || rowsAbove < 1 || rowsAbove > 2) continue;
        if (Math.abs(c.box.x1 - tax.box.x1) > 0.03) continue;
        const labels = labelsOf(layout, c);
        if (roleStrength(labels, [...OTHER_ROLES.subtotal, ...NEGATIVE]) > 0) continue;
        const score = scoreRole(layout, "subtotal", c, all, receipt) + NET_BY_ARITHMETIC;
        found.set(c, { candidate: c, score });
      }
    }
  }
  return [...found.values()];
}

function ranked(layout: Layout, role: AmountRole, all: readonly AmountCandidate[], receipt: boolean): RoleScored[] {
  return all
    .map((candidate) => ({ candidate, score: scoreRole(layout, role, candidate, all, receipt) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, 5);
}

function scored(entry: RoleScored | null | undefined): Scored | null {
  if (!entry) return null;
  return { value: entry.candidate.normal, score: entry.score, words: entry.candidate.words };
}

/** Confidence left to a receipt total that the page's arithmetic speaks against. */
const CONTRADICTED = 0.7;

/**
 * Tendered minus a change printed to the cent gives another total, and nothing confirms this one: no arithmetic, no
 * second printing, no rounding line explaining the difference. The total may still be right (the payment lines can
 * be misread too), but less surely. Net plus tax makes no such case: pages with several rates print sums of part of
 * the goods, and tax-inclusive ones a subtotal that already holds the tax.
 */
function contradicted(layout: Layout, c: AmountCandidate, all: readonly AmountCandidate[]): boolean {
  if (grossByArithmetic(layout, c, all) || roundedTotals(layout, all).has(c) || sameValueCount(all, c) > 0) {
    return false;
  }
  return paymentsOf(layout, all).some(
    (p) =>
      p.change &&
      p.change.value > 0 &&
      p.change.hasDecimals &&
      p.tendered.hasDecimals &&
      !sameAmount(p.value, c.value) &&
      !roundingExplains(layout, c, all, p.value),
  );
}

/** Score a role contributes when left empty: a weak candidate should not be forced in just to fill the slot. */
const EMPTY_SCORE = 0.4;
const CLOSE = 0.015;

export function chooseAmounts(
  layout: Layout,
  all: readonly AmountCandidate[],
  roles: readonly AmountRole[],
  receipt: boolean,
): Record<AmountRole, FieldDecision> {
  const options: Record<AmountRole, Array<RoleScored | null>> = {
    total: [null],
    subtotal: [null],
    tax: [null],
    amountDue: [null],
  };
  const readings = receipt ? [...all, ...arithmeticReadings(layout, all)] : all;
  for (const role of roles) options[role] = [null, ...ranked(layout, role, readings, receipt)];
  if (roles.includes("subtotal")) options.subtotal.push(...netsByArithmetic(layout, options, readings, receipt));
  let best: { combo: Record<AmountRole, RoleScored | null>; score: number } | null = null;
  for (const total of options.total) {
    for (const subtotal of options.subtotal) {
      for (const tax of options.tax) {
        for (const amountDue of options.amountDue) {
          const combo = { total, subtotal, tax, amountDue };
          const score = comboScore(combo, receipt);
          if (!best || score > best.score) best = { combo, score };
        }
      }
    }
  }
  const combo = best?.combo ?? { total: null, subtotal: null, tax: null, amountDue: null };
  if (!receipt) combo.total = dueAsTotal(layout, combo, readings) ?? combo.total;
  const decide = (role: AmountRole): FieldDecision => ({
    family: "amount",
    best: scored(combo[role]),
    key: `${receipt ? "receipt" : "invoice"}.${role}`,
    alternatives: roles.includes(role) ? alternativesOf(layout, role, options[role], combo, readings, receipt) : [],
  });
  const fromRates = roles.includes("tax") ? taxFromRates(layout, readings, combo, receipt) : null;
  const tax = decide("tax");
  if (fromRates?.best) {
    tax.best = fromRates.best;
    tax.alternatives?.push({ scored: fromRates.best, features: { ...RATE_SUM_FEATURES, hand: fromRates.best.score } });
  }
  const subtotal = decide("subtotal");
  const parts =
    roles.includes("subtotal") && !receipt && !fromRates?.best ? summaryInParts(layout, readings, combo) : null;
  if (parts) {
    for (const [role, decision, sum] of [
      ["subtotal", subtotal, parts.subtotal],
      ["tax", tax, parts.tax],
    ] as const) {
      decision.best = sum.scored;
      // The sum takes the place of the amount the combination chose: the features of its weakest part, as chosen.
      const weakest = sum.parts.reduce((a, b) => (b.score < a.score ? b : a));
      const [features] = alternativesOf(layout, role, [weakest], combo, readings, receipt).map((a) => a.features);
      for (const alternative of decision.alternatives ?? []) {
        alternative.features.chosen = 0;
        alternative.features.chosenValue = 0;
      }
      decision.alternatives?.push({
        scored: sum.scored,
        features: { ...features, ...PARTS_SUM_FEATURES, hand: sum.scored.score },
      });
    }
  }
  const total = decide("total");
  const chosen = combo.total?.candidate;
  if (receipt && chosen && contradicted(layout, chosen, readings)) total.penalty = CONTRADICTED;
  for (const alternative of total.alternatives ?? []) {
    const c = CANDIDATE_OF.get(alternative);
    alternative.features.contradicted = receipt && c && contradicted(layout, c, readings) ? 1 : 0;
  }
  return { total, subtotal, tax, amountDue: decide("amountDue") };
}

/**
 * An invoice whose grand figure is labelled only as the balance due ("BALANCE DUE", under "Subtotal", "Tax", "S & H",
 * "Other"): when the subtotal and the figures printed under it in the amount due's column, down to the amount due,
 * add up to it, and none of them is a payment, a credit or a discount, nothing was taken off, and the amount due is
 * the invoice's total. One figure per row (the column's), and a rate ("20.0%") is no figure of the sum. Null when
 * that does not hold or a labelled total was chosen.
 */
function dueAsTotal(
  layout: Layout,
  combo: Record<AmountRole, RoleScored | null>,
  all: readonly AmountCandidate[],
): RoleScored | null {
  const { total, subtotal, amountDue } = combo;
  if (!subtotal || !amountDue) return null;
  const s = subtotal.candidate;
  const d = amountDue.candidate;
  // A total chosen by the arithmetic alone (a line's amount equal to the subtotal of an untaxed invoice), smaller
  // than the amount due, gives way; a labelled one stands.
  const t = total?.candidate;
  if (t && (t.value >= d.value || roleStrength(labelsOf(layout, t), ["total"]) > 0.5)) return null;
  if (s.segment.pageNum !== d.segment.pageNum || s.segment.row >= d.segment.row || d.value <= 0) return null;
  const rate = (c: AmountCandidate) =>
    /%/.test(c.words[c.words.length - 1]?.text ?? "") || /^%/.test(c.segment.words[c.end]?.text ?? "");
  const byRow = new Map<number, AmountCandidate>();
  for (const c of all) {
    if (c === s || c === d || c.segment.pageNum !== d.segment.pageNum || rate(c)) continue;
    if (c.segment.row <= s.segment.row || c.segment.row >= d.segment.row) continue;
    if (Math.abs(c.box.x1 - d.box.x1) > 0.03) continue;
    const seen = byRow.get(c.segment.row);
    if (!seen || c.box.x1 > seen.box.x1) byRow.set(c.segment.row, c);
  }
  const charges = [...byRow.values()];
  const takenOff = (c: AmountCandidate) =>
    c.value < 0 || roleStrength(labelsOf(layout, c), [...TENDERED, "discount", "change"]) > 0.5;
  if (charges.some(takenOff)) return null;
  const sum = charges.reduce((a, c) => a + c.value, s.value);
  return Math.abs(sum - d.value) < CLOSE ? amountDue : null;
}

/** Whether the combination's subtotal and tax add up to its total (all three chosen). */
function comboAddsUp({ total, subtotal, tax }: Record<AmountRole, RoleScored | null>): boolean {
  if (!total || !subtotal || !tax) return false;
  return Math.abs(subtotal.candidate.value + tax.candidate.value - total.candidate.value) < CLOSE;
}

/** Features of a tax summed from per-rate amounts (taxFromRates): only its arithmetic speaks for it. */
const RATE_SUM_FEATURES: Readonly<Record<string, number>> = { fromRates: 1, chosen: 1, comboAddsUp: 1 };

/**
 * Features of a subtotal or tax summed from a summary's parts (summaryInParts), beside those of its weakest part: no
 * feature of its own, since the one summary in parts among the labelled invoices states its tax a cent off the page
 * (the embedded invoice's rounding), which a feature would learn as "a sum is wrong".
 */
const PARTS_SUM_FEATURES: Readonly<Record<string, number>> = { chosen: 1, chosenValue: 1, comboAddsUp: 1 };

const CANDIDATE_OF = new WeakMap<Alternative, AmountCandidate>();

/**
 * The ranked candidates of a role as alternatives for the learned ranker (model/ranker.ts), with the evidence the
 * hand-set score weighs, taken apart: label strengths by role, place, shape, repetition and the page's arithmetic.
 */
function alternativesOf(
  layout: Layout,
  role: AmountRole,
  ranked: ReadonlyArray<RoleScored | null>,
  combo: Record<AmountRole, RoleScored | null>,
  all: readonly AmountCandidate[],
  receipt: boolean,
): Alternative[] {
  const entries = ranked.filter((e): e is RoleScored => e !== null);
  // The total and the amount due are the same amount on most unpaid invoices: each role also considers the amount
  // chosen for the other, whatever its rank here.
  const partner = role === "total" ? combo.amountDue?.candidate : role === "amountDue" ? combo.total?.candidate : null;
  if (partner && !entries.some((e) => e.candidate === partner)) {
    entries.push({ candidate: partner, score: scoreRole(layout, role, partner, all, receipt) });
  }
  const top = Math.max(...entries.map((e) => e.score));
  const chosen = combo[role]?.candidate;
  const addsUp = comboAddsUp(combo);
  const max = largestLabelled(layout, all);
  return entries.map((entry, rank) => {
    const c = entry.candidate;
    const labels = labelsOf(layout, c);
    const strength = (roles: readonly LabelRole[]) => roleStrength(labels, roles);
    const words = c.words.length > 0 ? c.words : [{ confidence: 1 }];
    const features: Record<string, number> = {
      hand: entry.score,
      handGap: entry.score - top,
      rank,
      chosen: c === chosen ? 1 : 0,
      chosenValue: chosen && sameAmount(chosen.value, c.value) ? 1 : 0,
      partnerValue: partner && sameAmount(partner.value, c.value) ? 1 : 0,
      comboAddsUp: c === chosen && addsUp ? 1 : 0,
      labelTotal: strength(["total"]),
      labelSubtotal: strength(["subtotal"]),
      labelTax: strength(["tax"]),
      labelDue: strength(["amountDue"]),
      labelPaid: strength(TENDERED),
      labelNegative: strength(NEGATIVE),
      labelLeft: labels.left ? 1 : 0,
      labelAbove: labels.above && !labels.left ? 1 : 0,
      decimals: c.hasDecimals ? 1 : 0,
      zero: c.value === 0 ? 1 : 0,
      negativeValue: c.value < 0 ? 1 : 0,
      position: documentPosition(layout, c),
      repeats: Math.min(sameValueCount(all, c), 3),
      rightmost: isRightmost(c, all) ? 1 : 0,
      currency: c.currency ? 1 : 0,
      largest: Math.abs(printedOf(c).value) >= max - 0.005 && max > 0 ? 1 : 0,
      ocr: words.reduce((a, w) => a + w.confidence, 0) / words.length - 1,
      repaired: REPAIRED.has(c) || ROUNDED_FROM.has(c) ? 1 : 0,
      arithmetic: receipt && role === "total" ? arithmeticContext(layout, c, all) : 0,
      payment: receipt && role === "total" ? paymentContext(layout, c, all) : 0,
      gross: grossByArithmetic(layout, c, all) ? 1 : 0,
      logValue: Math.log10(1 + Math.abs(c.value)),
      unitAfter: unitAfter(c) ? 1 : 0,
    };
    const alternative = { scored: { value: c.normal, score: entry.score, words: c.words }, features };
    CANDIDATE_OF.set(alternative, c);
    return alternative;
  });
}

/**
 * Invoices with several VAT rates often print the tax per rate only (7 % and 19 %): when subtotal and total are
 * known and the chosen tax does not bridge them, tax amounts whose sum does are the total tax. Its words are those
 * of the per-rate amounts it adds up.
 */
function taxFromRates(
  layout: Layout,
  all: readonly AmountCandidate[],
  combo: Record<AmountRole, RoleScored | null>,
  receipt: boolean,
): FieldDecision | null {
  const { total, subtotal } = combo;
  if (!total || !subtotal) return null;
  const gap = total.candidate.value - subtotal.candidate.value;
  if (comboAddsUp(combo)) return null;
  const rates = all
    .filter((c) => c !== total.candidate && c !== subtotal.candidate)
    .map((candidate) => ({ candidate, score: scoreRole(layout, "tax", candidate, all, receipt) }))
    .filter((e) => e.score > 1)
    .slice(0, 10);
  for (let i = 0; i < rates.length; i++) {
    for (let j = i + 1; j < rates.length; j++) {
      const a = rates[i];
      const b = rates[j];
      if (!a || !b || a.candidate.segment.row === b.candidate.segment.row) continue;
      if (Math.abs(a.candidate.value + b.candidate.value - gap) >= CLOSE) continue;
      return {
        family: "amount",
        best: {
          value: formatAmount(gap),
          score: Math.min(a.score, b.score, total.score, subtotal.score),
          words: [...a.candidate.words, ...b.candidate.words],
        },
      };
    }
  }
  return null;
}

/** Amounts summed: the sum as scored (its words theirs, its score the weakest among them and the total) and its parts. */
interface PartsSum {
  scored: Scored;
  parts: readonly RoleScored[];
}

function sumOf(parts: readonly RoleScored[], total: RoleScored): PartsSum {
  const scored = {
    value: formatAmount(parts.reduce((sum, p) => sum + p.candidate.value, 0)),
    score: Math.min(total.score, ...parts.map((p) => p.score)),
    words: parts.flatMap((p) => p.candidate.words),
  };
  return { scored, parts };
}

/**
 * An invoice's summary printed in parts: goods and shipping netted apart ("Positionen netto 804,35", "Versandkosten
 * netto 4,99"), each with its tax line ("USt. 19,00% auf 804,35 ... 152,83", "... auf 4,99 ... 0,95"), then the total,
 * and no line holding the net or the tax of the whole. When the chosen amounts do not add up to the chosen total,
 * two labelled nets and one or two labelled taxes above it, each on a row of its own, that do are the subtotal and
 * the tax, as sums. A tax line's base ("auf 804,35") repeats a net's amount and is no tax.
 */
function summaryInParts(
  layout: Layout,
  all: readonly AmountCandidate[],
  combo: Record<AmountRole, RoleScored | null>,
): { subtotal: PartsSum; tax: PartsSum } | null {
  const { total } = combo;
  if (!total || comboAddsUp(combo)) return null;
  const t = total.candidate;
  const labelled = (role: AmountRole): RoleScored[] =>
    all
      .filter((c) => c !== t && c.value > 0 && c.hasDecimals)
      .filter((c) => c.segment.pageNum === t.segment.pageNum && c.segment.row < t.segment.row)
      .map((candidate) => ({ candidate, score: scoreRole(layout, role, candidate, all, false) }))
      .filter((e) => e.score > 1)
      .sort((a, b) => b.score - a.score)
      .slice(0, 8);
  const nets = labelled("subtotal");
  const taxes = labelled("tax");
  const rowOf = (e: RoleScored) => e.candidate.segment.row;
  for (let i = 0; i < nets.length; i++) {
    for (let j = i + 1; j < nets.length; j++) {
      const a = nets[i]!;
      const b = nets[j]!;
      if (rowOf(a) === rowOf(b)) continue;
      const pair = [a, b];
      const rest = t.value - a.candidate.value - b.candidate.value;
      const free = taxes.filter(
        (x) =>
          x.candidate.value < rest + CLOSE &&
          pair.every((n) => rowOf(n) !== rowOf(x) && !sameAmount(n.candidate.value, x.candidate.value)),
      );
      const single = free.find((x) => Math.abs(x.candidate.value - rest) < CLOSE);
      if (single) return { subtotal: sumOf(pair, total), tax: sumOf([single], total) };
      for (let k = 0; k < free.length; k++) {
        for (let m = k + 1; m < free.length; m++) {
          const x = free[k]!;
          const y = free[m]!;
          if (rowOf(x) === rowOf(y) || Math.abs(x.candidate.value + y.candidate.value - rest) >= CLOSE) continue;
          return { subtotal: sumOf(pair, total), tax: sumOf([x, y], total) };
        }
      }
    }
  }
  return null;
}

function comboScore(combo: Record<AmountRole, RoleScored | null>, receipt: boolean): number {
  const { total, subtotal, tax, amountDue } = combo;
  const t = total?.candidate;
  const s = subtotal?.candidate;
  const x = tax?.candidate;
  const d = amountDue?.candidate;
  // One printed number plays one role, except the total that is also the amount due.
  if ((t && (t === s || t === x)) || (s && s === x)) return Number.NEGATIVE_INFINITY;
  if (d && (d === s || d === x)) return Number.NEGATIVE_INFINITY;
  let score =
    (total?.score ?? EMPTY_SCORE) +
    (subtotal?.score ?? EMPTY_SCORE) +
    (tax?.score ?? EMPTY_SCORE) +
    (amountDue?.score ?? EMPTY_SCORE);
  if (t && s && x) {
    score += Math.abs(s.value + x.value - t.value) < CLOSE ? 1.2 : -0.6;
  } else if (t && s) {
    score += Math.abs(s.value) <= Math.abs(t.value) + CLOSE ? 0.1 : -0.8;
  }
  // A subtotal of the other sign than the total is a payment or a discount line, not the net amount.
  if (t && s && t.value !== 0 && Math.sign(s.value) === -Math.sign(t.value)) score -= 1.5;
  // Nor is an invoice's tax of the other sign: it is a discount ("Discount (SAVE20) -524.29" between subtotal and
  // total). (Receipts are left to their payment's arithmetic: on receipts-dev this cost a total.)
  if (!receipt && t && x && t.value !== 0 && Math.sign(x.value) === -Math.sign(t.value)) score -= 1.5;
  // Only a zero document has a tax as large as its total.
  if (t && x && Math.abs(x.value) >= Math.abs(t.value) && (t.value !== 0 || x.value !== 0)) score -= 1;
  if (t && d && Math.abs(d.value) > Math.abs(t.value) + CLOSE) score -= 0.5;
  return score;
}
