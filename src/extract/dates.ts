/**
 * Date fields: issue date (invoice, receipt, document) and due date. Labels decide most cases; without one the
 * earliest prominent date near the top is the issue date, all the more when a clock time is printed beside it. Due
 * date must not precede the issue date. Dates whose day/month order was guessed (no locale, nothing unambiguous on
 * the page), that only read after an OCR repair, or whose year no document of today would carry lose confidence. A
 * date that only reads with a lost separator put back is a last resort, taken only with a label or a clock beside it.
 */
import { type DateCandidate, labelsOf } from "./candidates.js";
import { roleStrength } from "./context.js";
import type { FieldDecision, Scored } from "./decision.js";
import { LABELS, type LabelRole } from "./labels.js";
import type { Layout } from "./layout.js";
import type { OrderSource } from "./locale-infer.js";
import type { Alternative } from "./model/ranker.js";
import { lostSeparator } from "./normalise/date.js";
import { foldForMatching } from "./text.js";

interface DateScored {
  candidate: DateCandidate;
  score: number;
}

/** How a reading of the printed date weighs on its score and, multiplied in, on its confidence. */
interface ReadingDoubt {
  score: number;
  penalty: number;
}

function pagePosition(layout: Layout, c: DateCandidate): number {
  const index = layout.pages.findIndex((p) => p.pageNum === c.segment.pageNum);
  return index + c.box.y0;
}

function yearOf(c: DateCandidate): number {
  return Number(c.iso.slice(0, 4));
}

/** Year, month and day of an ISO date. */
function partsOf(iso: string): string[] {
  return iso.split("-");
}

/**
 * Doubt about a date that only read after an OCR repair. The same date read cleanly elsewhere on the page confirms
 * it. One that differs in one part only from a date read cleanly elsewhere ("30/63/2017" -> 30/03 beside
 * "30/08/2017") is most likely that date, misread twice over, and gives way to it.
 */
function repairDoubt(
  c: DateCandidate,
  all: readonly DateCandidate[],
  repaired: ReadonlySet<DateCandidate>,
): ReadingDoubt {
  const clean = all.filter((o) => !repaired.has(o));
  if (clean.some((o) => o.iso === c.iso)) return { score: 0, penalty: 1 };
  const own = partsOf(c.iso);
  const echoes = clean.some((o) => partsOf(o.iso).filter((part, index) => part !== own[index]).length === 1);
  return { score: echoes ? -2 : -0.5, penalty: 0.85 };
}

/** Documents are processed soon after they are written: later than next year or a generation back is a misreading. */
const FUTURE_YEARS = 1;
const PAST_YEARS = 25;

/**
 * Doubts about the reading itself, whatever the labels say. A year after next ("RO11-23-42" -> 2042) or a generation
 * old (a two-digit "70" -> 1970) is almost always a misread number, so it loses to any other date and, alone, is
 * mostly withheld; a repaired reading is likely but not sure.
 */
function readingDoubt(
  c: DateCandidate,
  all: readonly DateCandidate[],
  repaired: ReadonlySet<DateCandidate>,
  currentYear: number,
): ReadingDoubt {
  const year = yearOf(c);
  const repair = repaired.has(c) ? repairDoubt(c, all, repaired) : { score: 0, penalty: 1 };
  if (year > currentYear + FUTURE_YEARS) return { score: repair.score - 2.5, penalty: repair.penalty * 0.3 };
  if (year < currentYear - PAST_YEARS) return { score: repair.score - 1.5, penalty: repair.penalty * 0.4 };
  return repair;
}

/**
 * A clock time, as tills print it after the date ("27/03/2018 18:46:05", "08:53P"), also when OCR split it after the
 * colon ("08: 53P") or dropped the colon of a 12-hour time, which its A/P still marks ("1012A").
 */
const CLOCK_TIME =
  /(?<![\d./-])(?:(?:[01]?\d|2[0-3]):|(?:[01]\d|2[0-3]): )[0-5]\d(?::[0-5]\d)?(?![\d./-])|(?<![\d./-])(?:0\d|1[0-2])[0-5]\d[ap]m?(?![\p{L}\d])/iu;

/** A digit OCR read as a letter inside a number ("0S:" for "05:"), read back so the time shows. */
function asDigits(word: string): string {
  if (!/\d/.test(word) || !/^[\dOoSIl:]+$/.test(word)) return word;
  return word.replace(/[Oo]/g, "0").replace(/S/g, "5").replace(/[Il]/g, "1");
}

/** A receipt prints its date and time together on one row: a date beside a time is the transaction date. */
function besideClockTime(layout: Layout, c: DateCandidate): boolean {
  const row = layout.pages.find((p) => p.pageNum === c.segment.pageNum)?.rows[c.segment.row] ?? [c.segment];
  const others = row.flatMap((segment) =>
    segment.words.filter((_, index) => !(segment === c.segment && index >= c.start && index < c.end)),
  );
  return CLOCK_TIME.test(others.map((word) => asDigits(word.text)).join(" "));
}

const DATE_ROLES: readonly LabelRole[] = ["invoiceDate", "genericDate", "dueDate", "otherDate"];

/**
 * Words that make a date part of a period or a schedule rather than the date of the document: a billing or service
 * period ("Billing period Mar 1 - Mar 31, 2024", "Leistungszeitraum"), a subscription's next charge or renewal
 * ("Next billing date", "Renews on"), a validity. Matched on the date's row left of it and on the row above.
 */
const PERIOD_WORDS =
  /\b(period|billing cycle|service (?:date|period|from)|subscription|next (?:billing|payment|charge|invoice|renewal)|renews?|renewal|valid (?:from|until|through)|starts?|ends?|expires?|(?:leistungs|abrechnungs|liefer)zeitraum|zeitraum|nächste|naechste|période|periode|prochaine|periodo|próxima)\b/iu;

/** A date range: the date is joined to another date on its row by a dash, "to", "bis", "au", "through". */
const RANGE_JOIN = /^(?:-|–|—|to|bis|au|through|thru|until|a|al|tot)$/iu;

function rowBefore(layout: Layout, c: DateCandidate, rowOffset: number): string {
  const page = layout.pages.find((p) => p.pageNum === c.segment.pageNum);
  const row = page?.rows[c.segment.row + rowOffset] ?? [];
  const words = row.flatMap((segment) =>
    segment.words.filter(
      (_w, index) => rowOffset !== 0 || segment.box.x1 <= c.box.x0 || (segment === c.segment && index < c.start),
    ),
  );
  return words.map((w) => w.text).join(" ");
}

/**
 * 1 when the date is part of a billing/service period, a range or a next-billing line (PERIOD_WORDS), 0 otherwise:
 * such a date is not the issue date however near the top it is printed.
 */
export function periodContext(layout: Layout, c: DateCandidate, all: readonly DateCandidate[]): number {
  if (PERIOD_WORDS.test(rowBefore(layout, c, 0))) return 1;
  const sameRow = all.filter(
    (o) => o !== c && o.segment.pageNum === c.segment.pageNum && o.segment.row === c.segment.row,
  );
  for (const o of sameRow) {
    const [first, second] = o.box.x0 < c.box.x0 ? [o, c] : [c, o];
    if (first.segment !== second.segment) continue;
    const between = first.segment.words.slice(first.end, second.start).map((w) => w.text);
    if (between.length === 1 && RANGE_JOIN.test(between[0] ?? "")) return 1;
  }
  // "Billing period" as a heading with the dates on the row below it.
  return labelsOf(layout, c).left ? 0 : PERIOD_WORDS.test(rowBefore(layout, c, -1)) ? 0.6 : 0;
}

/** Verbs of a request to pay, folded: "please pay", "bitte überweisen Sie", "merci de régler", "gelieve te betalen". */
const PAY_VERBS = new Set(
  [
    "pay",
    "payable",
    "remit",
    "settle",
    "transfer",
    "überweisen",
    "zahlen",
    "begleichen",
    "régler",
    "payer",
    "betalen",
    "voldoen",
    "pagar",
    "abonar",
  ].map(foldForMatching),
);
/** The deadline word right before a date, folded. */
const DEADLINE_WORDS = new Set(
  ["by", "before", "until", "bis", "avant", "voor", "vóór", "uiterlijk", "spätestens", "hasta", "antes"].map(
    foldForMatching,
  ),
);
/** Deadline words that take an article before the date ("bis zum", "avant le", "antes del"), and those articles. */
const ARTICLE_DEADLINES = new Set(["bis", "avant", "hasta", "antes"]);
const DEADLINE_ARTICLES = new Set(["zum", "le", "el", "del", "de"]);

/**
 * A due date written into a sentence: a request to pay a few words before the date and a deadline word right before
 * it ("Please pay the amount by 03/13/2026", "Bitte überweisen Sie den Betrag bis zum 9. März", "Merci de régler cette
 * facture avant le 09/03/2020"), where no label phrase stands next to the date.
 */
function payBySentence(c: DateCandidate): boolean {
  const before = c.segment.words.slice(Math.max(0, c.start - 12), c.start).map((w) => foldForMatching(w.text));
  let deadline = before.length - 1;
  if (DEADLINE_ARTICLES.has(before[deadline] ?? "")) deadline--;
  if (!DEADLINE_WORDS.has(before[deadline] ?? "")) return false;
  if (deadline < before.length - 1 && !ARTICLE_DEADLINES.has(before[deadline] ?? "")) return false;
  return before.slice(0, deadline).some((w) => PAY_VERBS.has(w));
}

/** Articles a date is read with ("le 5 décembre 2021", "am 3. Mai"): they may end the label printed before them. */
const DATE_ARTICLES = new Set(["le", "el", "am", "on"]);

/**
 * "Montant total dû le 5 décembre 2021": the date was read with its article, which ends a due-date label ("dû le")
 * the words before the date begin.
 */
function dueLabelThroughArticle(c: DateCandidate): boolean {
  const article = foldForMatching(c.words[0]?.text ?? "");
  if (!DATE_ARTICLES.has(article)) return false;
  const before = c.segment.words.slice(Math.max(0, c.start - 3), c.start).map((w) => foldForMatching(w.text));
  for (let k = before.length - 1; k >= 0; k--) {
    if (LABELS.get(before.slice(k).join("") + article)?.some((e) => e.role === "dueDate")) return true;
  }
  return false;
}

/** How strongly the date is named a due date: by a label beside it, or by a request to pay in its sentence. */
function dueStrength(layout: Layout, c: DateCandidate): number {
  const sentence = payBySentence(c) || dueLabelThroughArticle(c);
  return Math.max(roleStrength(labelsOf(layout, c), ["dueDate"]), sentence ? 0.9 : 0);
}

/**
 * A date that only reads with a separator put back ("0406-18") has the shape of many numbers, so it needs a reason to
 * be a date: a date label before it, or a clock time on its row when no label names it as something else ("Inv No").
 */
function supported(layout: Layout, c: DateCandidate): boolean {
  const labels = labelsOf(layout, c);
  if (roleStrength(labels, DATE_ROLES) > 0) return true;
  const namedOther = labels.left?.roles.some((entry) => !DATE_ROLES.includes(entry.role));
  return !namedOther && besideClockTime(layout, c);
}

/**
 * The dates worth choosing from. One read by putting back a lost separator counts only with support, and only when
 * no date printed cleanly in a plausible year is on the page: that one is the better reading whatever it is.
 */
function usable(layout: Layout, all: readonly DateCandidate[], currentYear: number): DateCandidate[] {
  const plausible = (c: DateCandidate) =>
    yearOf(c) >= currentYear - PAST_YEARS && yearOf(c) <= currentYear + FUTURE_YEARS;
  const clean = all.some((c) => !c.repaired && plausible(c));
  return all.filter((c) => !c.repaired || !lostSeparator(c.text) || (!clean && supported(layout, c)));
}

function issueScore(layout: Layout, c: DateCandidate, receipt: boolean, all: readonly DateCandidate[]): number {
  const labels = labelsOf(layout, c);
  const issue = roleStrength(labels, ["invoiceDate"]);
  const generic = roleStrength(labels, ["genericDate"]);
  const other = Math.max(roleStrength(labels, ["otherDate"]), dueStrength(layout, c));
  const position = pagePosition(layout, c);
  let score = 2.2 * issue + 1.6 * generic - 1.8 * other;
  // The issue date is usually in the document's title line or header, printed larger than the body text.
  const page = layout.pages.find((p) => p.pageNum === c.segment.pageNum);
  if (page && page.medianHeight > 0) score += 0.25 * Math.max(0, Math.min(c.segment.height / page.medianHeight - 1, 1));
  score += position < 0.5 ? 0.4 - 0.4 * position : -0.2 * Math.min(position, 2);
  if (receipt) score += 0.5;
  if (other === 0 && besideClockTime(layout, c)) score += 0.3;
  if (issue === 0) score -= 1.5 * periodContext(layout, c, all);
  return score;
}

function dueScore(layout: Layout, c: DateCandidate, all: readonly DateCandidate[]): number {
  const labels = labelsOf(layout, c);
  const due = dueStrength(layout, c);
  const other = roleStrength(labels, ["invoiceDate", "genericDate", "otherDate"]);
  return 2.6 * due - 1.2 * other - 0.6 - 1.0 * periodContext(layout, c, all);
}

/**
 * Payment terms in days ("net 30", "payable within 30 days", "30 Tage netto", "à 30 jours", "binnen 14 dagen", "a 30
 * días", "entro 30 giorni"): each with the page row it is printed on.
 */
const TERM_DAYS =
  /(?:\bnet(?:to)?\s*(\d{1,3})\b(?!\s*[.,]\d))|(?:\b(\d{1,3})\s*(?:days?|tagen?|jours?|dagen|d[ií]as|giorni|gg)\b)/iu;
const TERM_WORDS =
  /(?<!\p{L})(net|netto|nets?|within|innerhalb|binnen|sous|dans|dentro|entro|payable|payment|terms|zahlbar|zahlungsziel|zahlungsbedingungen|zahlung|paiement|conditions|betaaltermijn|betalingstermijn|betalingsvoorwaarden|condiciones|termini|règlement|reglement|échéance|echeance|betaling|betalen|pago|plazo|pagamento|scadenza)(?!\p{L})/iu;

function rowKey(c: DateCandidate): string {
  return `${c.segment.pageNum}:${c.segment.row}`;
}

function termDays(layout: Layout): Array<{ row: string; days: number }> {
  const out: Array<{ row: string; days: number }> = [];
  for (const segment of layout.segments) {
    if (!TERM_WORDS.test(segment.text)) continue;
    const match = TERM_DAYS.exec(segment.text);
    const days = Number(match?.[1] ?? match?.[2] ?? 0);
    if (days >= 1 && days <= 180) out.push({ row: `${segment.pageNum}:${segment.row}`, days });
  }
  return out;
}

/** The ISO date `days` days after `iso`. */
function addDays(iso: string, days: number): string {
  const [y = 0, m = 1, d = 1] = iso.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

function toScored(entry: DateScored | undefined | null): Scored | null {
  return entry ? { value: entry.candidate.iso, score: entry.score, words: entry.candidate.words } : null;
}

/** An ambiguous date (day and month both <= 12) is only as sure as the order that decided it. */
function orderPenalty(c: DateCandidate | undefined, source: OrderSource): number {
  if (!c?.ambiguous) return 1;
  return source === "guess" ? 0.75 : source === "document" ? 0.92 : 1;
}

function decide(
  entry: DateScored | undefined,
  source: OrderSource,
  doubts: Map<DateCandidate, ReadingDoubt>,
): FieldDecision {
  const doubt = entry ? (doubts.get(entry.candidate)?.penalty ?? 1) : 1;
  return { family: "date", best: toScored(entry), penalty: orderPenalty(entry?.candidate, source) * doubt };
}

/**
 * A repaired reading that a clean copy elsewhere confirms is reported as that copy: the value is the same, and its
 * words are the ones OCR read as printed, so their confidence is the one to go by.
 */
function asPrinted(
  entry: DateScored | undefined,
  all: readonly DateCandidate[],
  repaired: ReadonlySet<DateCandidate>,
): DateScored | undefined {
  if (!entry || !repaired.has(entry.candidate)) return entry;
  const clean = all.find((o) => o.iso === entry.candidate.iso && !repaired.has(o));
  return clean ? { candidate: clean, score: entry.score } : entry;
}

export function chooseDates(
  layout: Layout,
  found: readonly DateCandidate[],
  source: OrderSource,
  receipt: boolean,
  currentYear: number = new Date().getUTCFullYear(),
): { issue: FieldDecision; due: FieldDecision } {
  const all = usable(layout, found, currentYear);
  const repaired = new Set(all.filter((c) => c.repaired));
  const doubts = new Map(all.map((candidate) => [candidate, readingDoubt(candidate, all, repaired, currentYear)]));
  const doubtScore = (candidate: DateCandidate) => doubts.get(candidate)?.score ?? 0;
  const issues = all
    .map((candidate) => ({ candidate, score: issueScore(layout, candidate, receipt, all) + doubtScore(candidate) }))
    .sort((a, b) => b.score - a.score || pagePosition(layout, a.candidate) - pagePosition(layout, b.candidate));
  for (const entry of issues) {
    // Printing the same date several times (header, footer, payment terms) makes it more likely the issue date.
    const repeats = all.filter((o) => o !== entry.candidate && o.iso === entry.candidate.iso).length;
    entry.score += 0.1 * Math.min(repeats, 3);
    // Another date of the same year (a due date, a delivery date) confirms the year was read right.
    if (all.some((o) => o.iso !== entry.candidate.iso && yearOf(o) === yearOf(entry.candidate))) entry.score += 0.2;
  }
  // A document that prints one date only: that is its date.
  if (new Set(all.map((c) => c.iso)).size === 1) for (const entry of issues) entry.score += 0.6;
  issues.sort((a, b) => b.score - a.score);
  const issue = issues[0];
  // A due date is known from its label ("Due date", "Zahlbar bis"), or as the date the payment terms printed on its
  // row work out to ("Payable within 30 days: 19/10/2023"): an unlabelled second date is not one.
  const terms = termDays(layout);
  const termsDate = (candidate: DateCandidate): boolean =>
    issue !== undefined &&
    terms.some((t) => t.row === rowKey(candidate) && candidate.iso === addDays(issue.candidate.iso, t.days));
  const dues = all
    .filter((candidate) => dueStrength(layout, candidate) > 0 || termsDate(candidate))
    .map((candidate) => ({
      candidate,
      score: dueScore(layout, candidate, all) + doubtScore(candidate) + (termsDate(candidate) ? 0.8 : 0),
    }))
    .filter((d) => d.candidate !== issue?.candidate)
    .map((d) => ({ ...d, score: d.score - (issue && d.candidate.iso < issue.candidate.iso ? 1.5 : 0) }))
    .sort((a, b) => b.score - a.score);
  const kind = receipt ? "receipt" : "invoice";
  const context = { layout, all, repaired, doubts, source, currentYear };
  return {
    issue: {
      ...decide(asPrinted(issue, all, repaired), source, doubts),
      key: `${kind}.date`,
      alternatives: alternativesOf(context, issues.slice(0, 5), "issue"),
    },
    due: {
      ...decide(asPrinted(dues[0], all, repaired), source, doubts),
      key: `${kind}.dueDate`,
      alternatives: alternativesOf(context, dues.slice(0, 5), "due", issue?.candidate),
    },
  };
}

interface DateContext {
  layout: Layout;
  all: readonly DateCandidate[];
  repaired: ReadonlySet<DateCandidate>;
  doubts: ReadonlyMap<DateCandidate, ReadingDoubt>;
  source: OrderSource;
  currentYear: number;
}

/** The ranked dates as alternatives for the learned ranker (model/ranker.ts), with their evidence taken apart. */
function alternativesOf(
  context: DateContext,
  ranked: readonly DateScored[],
  role: "issue" | "due",
  issue?: DateCandidate,
): Alternative[] {
  const { layout, all, repaired, doubts, source, currentYear } = context;
  const top = Math.max(...ranked.map((e) => e.score));
  const page = (c: DateCandidate) => layout.pages.find((p) => p.pageNum === c.segment.pageNum);
  return ranked.map((entry, rank) => {
    const c = entry.candidate;
    const printed = asPrinted(entry, all, repaired) ?? entry;
    const labels = labelsOf(layout, c);
    const year = yearOf(c);
    const median = page(c)?.medianHeight ?? 0;
    const words = printed.candidate.words.length > 0 ? printed.candidate.words : [{ confidence: 1 }];
    const features: Record<string, number> = {
      hand: entry.score,
      handGap: entry.score - top,
      rank,
      labelIssue: roleStrength(labels, ["invoiceDate"]),
      labelGeneric: roleStrength(labels, ["genericDate"]),
      labelDue: dueStrength(layout, c),
      labelOther: roleStrength(labels, ["otherDate"]),
      labelLeft: labels.left ? 1 : 0,
      period: periodContext(layout, c, all),
      position: pagePosition(layout, c),
      larger: median > 0 ? Math.max(0, Math.min(c.segment.height / median - 1, 1)) : 0,
      clock: besideClockTime(layout, c) ? 1 : 0,
      repaired: repaired.has(c) ? 1 : 0,
      ambiguousGuess: c.ambiguous && source === "guess" ? 1 : 0,
      ambiguousDocument: c.ambiguous && source === "document" ? 1 : 0,
      future: year > currentYear + FUTURE_YEARS ? 1 : 0,
      old: year < currentYear - PAST_YEARS ? 1 : 0,
      doubt: doubts.get(c)?.penalty ?? 1,
      repeats: Math.min(all.filter((o) => o !== c && o.iso === c.iso).length, 3),
      onlyDate: new Set(all.map((o) => o.iso)).size === 1 ? 1 : 0,
      distinctDates: Math.min(new Set(all.map((o) => o.iso)).size, 6),
      earliest: all.every((o) => o.iso >= c.iso) ? 1 : 0,
      latest: all.every((o) => o.iso <= c.iso) ? 1 : 0,
      beforeIssue: role === "due" && issue && c.iso < issue.iso ? 1 : 0,
      ocr: words.reduce((a, w) => a + w.confidence, 0) / words.length - 1,
    };
    return { scored: { value: c.iso, score: entry.score, words: printed.candidate.words }, features };
  });
}
