/**
 * Date fields: issue date (invoice, receipt, document) and due date. Labels decide most cases; without one the
 * earliest prominent date near the top is the issue date. Due date must not precede the issue date. Dates whose
 * day/month order was guessed (no locale, nothing unambiguous on the page) lose confidence.
 */
import { type DateCandidate, labelsOf } from "./candidates.js";
import { roleStrength } from "./context.js";
import type { Decision, Scored } from "./decision.js";
import type { Layout } from "./layout.js";
import type { OrderSource } from "./locale-infer.js";

interface DateScored {
  candidate: DateCandidate;
  score: number;
}

function pagePosition(layout: Layout, c: DateCandidate): number {
  const index = layout.pages.findIndex((p) => p.pageNum === c.segment.pageNum);
  return index + c.box.y0;
}

function issueScore(layout: Layout, c: DateCandidate, receipt: boolean): number {
  const labels = labelsOf(layout, c);
  const issue = roleStrength(labels, ["invoiceDate"]);
  const generic = roleStrength(labels, ["genericDate"]);
  const other = roleStrength(labels, ["dueDate", "otherDate"]);
  const position = pagePosition(layout, c);
  let score = 2.2 * issue + 1.6 * generic - 1.8 * other;
  // The issue date is usually in the document's title line or header, printed larger than the body text.
  const page = layout.pages.find((p) => p.pageNum === c.segment.pageNum);
  if (page && page.medianHeight > 0) score += 0.25 * Math.max(0, Math.min(c.segment.height / page.medianHeight - 1, 1));
  score += position < 0.5 ? 0.4 - 0.4 * position : -0.2 * Math.min(position, 2);
  if (receipt) score += 0.5;
  return score;
}

function dueScore(layout: Layout, c: DateCandidate): number {
  const labels = labelsOf(layout, c);
  const due = roleStrength(labels, ["dueDate"]);
  const other = roleStrength(labels, ["invoiceDate", "genericDate", "otherDate"]);
  return 2.6 * due - 1.2 * other - 0.6;
}

function toScored(entry: DateScored | undefined | null): Scored | null {
  return entry ? { value: entry.candidate.iso, score: entry.score, words: entry.candidate.words } : null;
}

/** An ambiguous date (day and month both <= 12) is only as sure as the order that decided it. */
function orderPenalty(c: DateCandidate | undefined, source: OrderSource): number {
  if (!c?.ambiguous) return 1;
  return source === "guess" ? 0.75 : source === "document" ? 0.92 : 1;
}

export function chooseDates(
  layout: Layout,
  all: readonly DateCandidate[],
  source: OrderSource,
  receipt: boolean,
): { issue: Decision; due: Decision } {
  const issues = all
    .map((candidate) => ({ candidate, score: issueScore(layout, candidate, receipt) }))
    .sort((a, b) => b.score - a.score || pagePosition(layout, a.candidate) - pagePosition(layout, b.candidate));
  // Printing the same date several times (header, footer, payment terms) makes it more likely the issue date.
  for (const entry of issues) {
    const repeats = all.filter((o) => o !== entry.candidate && o.iso === entry.candidate.iso).length;
    entry.score += 0.1 * Math.min(repeats, 3);
  }
  // A document that prints one date only: that is its date.
  if (new Set(all.map((c) => c.iso)).size === 1) for (const entry of issues) entry.score += 0.6;
  issues.sort((a, b) => b.score - a.score);
  const issue = issues[0];
  // A due date is only ever known from its label ("Due date", "Zahlbar bis"): an unlabelled second date is not one.
  const dues = all
    .filter((candidate) => roleStrength(labelsOf(layout, candidate), ["dueDate"]) > 0)
    .map((candidate) => ({ candidate, score: dueScore(layout, candidate) }))
    .filter((d) => d.candidate !== issue?.candidate)
    .map((d) => ({ ...d, score: d.score - (issue && d.candidate.iso < issue.candidate.iso ? 1.5 : 0) }))
    .sort((a, b) => b.score - a.score);
  const due = dues[0];
  return {
    issue: {
      family: "date",
      best: toScored(issue),
      penalty: orderPenalty(issue?.candidate, source),
    },
    due: {
      family: "date",
      best: toScored(due),
      penalty: orderPenalty(due?.candidate, source),
    },
  };
}
