/**
 * Amount fields. Each printed amount gets a score per role (total, subtotal, tax, amount due) from its nearest label,
 * the labels that rule it out (cash, change, rounding, discount, quantity, unit price), where it sits, how often the
 * same value is printed, and whether it is the largest labelled total. A joint choice then prefers combinations that
 * add up (subtotal + tax = total) and make sense (amount due not above total).
 */
import { type AmountCandidate, labelsOf } from "./candidates.js";
import { roleStrength } from "./context.js";
import type { Decision, Scored } from "./decision.js";
import type { LabelRole } from "./labels.js";
import type { Layout } from "./layout.js";
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
  // After a rounding line comes the rounded total that was actually paid.
  const rounding = all.some(
    (o) =>
      o.segment.pageNum === c.segment.pageNum &&
      o.segment.row < c.segment.row &&
      c.segment.row - o.segment.row <= 2 &&
      roleStrength(labelsOf(layout, o), ["rounding"]) > 0.5,
  );
  if (rounding) score += 0.5;
  // Tendered minus change is what was paid: the total, whatever OCR made of the total's own line.
  const change = all.filter(
    (o) => o.segment.pageNum === c.segment.pageNum && roleStrength(labelsOf(layout, o), ["change"]) > 0.5,
  );
  const paid = payments.some(
    (tendered) =>
      tendered !== c &&
      tendered.value > 0 &&
      change.some(
        (o) =>
          o !== tendered &&
          o.value > 0 &&
          o.segment.row > tendered.segment.row &&
          Math.abs(tendered.value - o.value - c.value) < 0.005,
      ),
  );
  if (paid) score += 1.6;
  return score;
}

export function scoreRole(
  layout: Layout,
  role: AmountRole,
  c: AmountCandidate,
  all: readonly AmountCandidate[],
  receipt: boolean,
): number {
  const labels = labelsOf(layout, c);
  const own = roleStrength(labels, role === "amountDue" ? ["amountDue"] : [role]);
  const total = role === "amountDue" ? roleStrength(labels, ["total"]) * 0.5 : 0;
  const other = roleStrength(labels, OTHER_ROLES[role]);
  const negative = roleStrength(labels, NEGATIVE);
  let score = 2.4 * Math.max(own, total) - 1.6 * Math.max(other, negative) * (own > 0 ? 0.5 : 1);
  // Where amounts are printed with decimals, a bare integer ("within 30 days") is a count, not money.
  if (!c.hasDecimals) score -= receipt || decimalShare(all) > 0.5 ? 1.2 : 0.6;
  if (c.value === 0 && role !== "tax") score -= 0.8;
  // "4:" is a number that labels what follows (a count, a line number, OCR of a rate), never a printed amount.
  if (/:$/.test(c.words[c.words.length - 1]?.text ?? "")) score -= 1;
  if (Math.abs(c.value) > 1e7) score -= 1.5;
  const repeats = Math.min(sameValueCount(all, c), 3);
  const position = documentPosition(layout, c);
  if (role === "total" || role === "amountDue") {
    score += 0.15 * repeats + 0.4 * position;
    if (receipt) score += paymentContext(layout, c, all);
    const labelled = all.filter((o) => roleStrength(labelsOf(layout, o), ["total", "amountDue"]) > 0.3);
    const max = Math.max(0, ...labelled.map((o) => Math.abs(o.value)));
    if (own > 0.3 && Math.abs(c.value) >= max - 0.005) score += 0.2;
  } else {
    score += 0.05 * repeats + 0.2 * position;
  }
  if (isRightmost(c, all)) score += 0.15;
  if (c.currency) score += 0.1;
  return score;
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

/** Score a role contributes when left empty: a weak candidate should not be forced in just to fill the slot. */
const EMPTY_SCORE = 0.4;
const CLOSE = 0.015;

export function chooseAmounts(
  layout: Layout,
  all: readonly AmountCandidate[],
  roles: readonly AmountRole[],
  receipt: boolean,
): Record<AmountRole, Decision> {
  const options: Record<AmountRole, Array<RoleScored | null>> = {
    total: [null],
    subtotal: [null],
    tax: [null],
    amountDue: [null],
  };
  for (const role of roles) options[role] = [null, ...ranked(layout, role, all, receipt)];
  let best: { combo: Record<AmountRole, RoleScored | null>; score: number } | null = null;
  for (const total of options.total) {
    for (const subtotal of options.subtotal) {
      for (const tax of options.tax) {
        for (const amountDue of options.amountDue) {
          const combo = { total, subtotal, tax, amountDue };
          const score = comboScore(combo);
          if (!best || score > best.score) best = { combo, score };
        }
      }
    }
  }
  const combo = best?.combo ?? { total: null, subtotal: null, tax: null, amountDue: null };
  const decide = (role: AmountRole): Decision => ({
    family: "amount",
    best: scored(combo[role]),
  });
  const tax = roles.includes("tax") ? (taxFromRates(layout, all, combo, receipt) ?? decide("tax")) : decide("tax");
  return { total: decide("total"), subtotal: decide("subtotal"), tax, amountDue: decide("amountDue") };
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
): Decision | null {
  const { total, subtotal, tax } = combo;
  if (!total || !subtotal) return null;
  const gap = total.candidate.value - subtotal.candidate.value;
  if (tax && Math.abs(subtotal.candidate.value + tax.candidate.value - total.candidate.value) < CLOSE) return null;
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

function comboScore(combo: Record<AmountRole, RoleScored | null>): number {
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
  if (t && x && Math.abs(x.value) >= Math.abs(t.value) && t.value !== 0) score -= 1;
  if (t && d && Math.abs(d.value) > Math.abs(t.value) + CLOSE) score -= 0.5;
  return score;
}
