/**
 * Typed candidates: every run of 1..N words inside a segment that a normaliser accepts as a whole. Cheap textual
 * prefilters keep the parsers (dates, jsvat, ibantools, ...) off n-grams that cannot be the type, which is what keeps
 * extraction within its time budget. Of overlapping parses of one type only the longest survive ("€ 529,87" over
 * "529,87"), so one printed value is one candidate.
 */
import type { Box, Word } from "../document/model.js";
import { type Span, type SpanLabels, spanLabels } from "./context.js";
import type { Layout, LineSegment } from "./layout.js";
import { unionBox } from "./layout.js";
import { parseAmount } from "./normalise/amount.js";
import { parseDate } from "./normalise/date.js";
import type { LocaleHints } from "./normalise/locale.js";

export interface Candidate extends Span {
  words: Word[];
  text: string;
  box: Box;
  /** Labels next to the span, computed lazily by labelsOf(). */
  labels?: SpanLabels;
}

export interface AmountCandidate extends Candidate {
  value: number;
  normal: string;
  currency: string | null;
  /** Printed with decimals ("12.00", not "12"). */
  hasDecimals: boolean;
}

export interface DateCandidate extends Candidate {
  iso: string;
  ambiguous: boolean;
  order: string;
  /** The date only read after undoing an OCR misreading ("61/03/18"): likely, but less sure than a clean one. */
  repaired: boolean;
}

export function spanOf(segment: LineSegment, start: number, end: number): Candidate {
  const words = segment.words.slice(start, end);
  return {
    segment,
    start,
    end,
    words,
    text: words.map((w) => w.text).join(" "),
    box: unionBox(words.map((w) => w.box)),
  };
}

/**
 * The labels of each span already looked up, per segment: the field families scan the same n-grams (an amount, a
 * tax id and an order number can all be "12345"), and a span's labels depend only on its segment's layout and words.
 */
const labelsBySpan = new WeakMap<LineSegment, Map<number, SpanLabels>>();

export function labelsOf(layout: Layout, candidate: Candidate): SpanLabels {
  if (candidate.labels) return candidate.labels;
  let known = labelsBySpan.get(candidate.segment);
  if (!known) {
    known = new Map();
    labelsBySpan.set(candidate.segment, known);
  }
  const key = candidate.start * 4096 + candidate.end;
  let labels = known.get(key);
  if (!labels) {
    labels = spanLabels(layout, candidate);
    known.set(key, labels);
  }
  candidate.labels = labels;
  return labels;
}

/** Drops candidates whose words lie inside a longer candidate of the same type on the same segment. */
function keepMaximal<T extends Candidate>(found: T[]): T[] {
  const bySegment = new Map<LineSegment, T[]>();
  for (const c of found) {
    const same = bySegment.get(c.segment);
    if (same === undefined) bySegment.set(c.segment, [c]);
    else same.push(c);
  }
  return found.filter(
    (c) =>
      !(bySegment.get(c.segment) ?? []).some(
        (o) => o !== c && o.start <= c.start && o.end >= c.end && o.end - o.start > c.end - c.start,
      ),
  );
}

/** Runs `parse` over n-grams of every segment whose text passes `prefilter`. */
export function ngramCandidates<T extends Candidate>(
  layout: Layout,
  maxWords: number,
  prefilter: (text: string) => boolean,
  parse: (span: Candidate) => T | null,
): T[] {
  const found: T[] = [];
  for (const segment of layout.segments) {
    const n = segment.words.length;
    for (let start = 0; start < n; start++) {
      let text = "";
      for (let end = start + 1; end <= Math.min(n, start + maxWords); end++) {
        const word = segment.words[end - 1]?.text ?? "";
        text = text === "" ? word : `${text} ${word}`;
        if (!prefilter(text)) continue;
        const candidate = parse(spanOf(segment, start, end));
        if (candidate) found.push(candidate);
      }
    }
  }
  return keepMaximal(found);
}

const AMOUNT_SHAPE = /^[^\d]{0,4}[-(]?\d[\d.,' ]*[-)]?[^\d]{0,4}$/;

/**
 * OCR reads a column rule or the edge of a box next to an amount as ")", "|" or "]" ("63.60)"): a closing mark with
 * no opening one is not part of the number. "(63.60)", a credit in accounting notation, keeps both.
 */
function withoutStrayMarks(text: string): string {
  return /[)|\]]$/.test(text) && !/[(|[]/.test(text.slice(0, -1)) ? text.slice(0, -1).trimEnd() : text;
}

export function amountCandidates(layout: Layout, hints: LocaleHints): AmountCandidate[] {
  return ngramCandidates(
    layout,
    3,
    (text) => AMOUNT_SHAPE.test(text) && text.length <= 24,
    (span) => {
      const parsed = parseAmount(withoutStrayMarks(span.text), hints);
      if (!parsed) return null;
      return {
        ...span,
        value: parsed.value,
        normal: parsed.text,
        currency: parsed.currency,
        // OCR opens gaps around the separator ("RM96. 20", "RM100 .00"): parseAmount closes them, so does this.
        hasDecimals: /\d ?[.,] ?\d{1,2}(?!\d)/.test(span.text),
      };
    },
  );
}

/**
 * The amounts that are not a date's day or year: "13" of "GBP 2579.47 due 13 Feb 2022" is no amount due. An amount
 * with decimals is never part of a date.
 */
export function outsideDates(amounts: readonly AmountCandidate[], dates: readonly DateCandidate[]): AmountCandidate[] {
  const inDate = new Set(dates.flatMap((d) => d.words.map((w) => w.id)));
  return amounts.filter((a) => a.hasDecimals || !a.words.every((w) => inDate.has(w.id)));
}

/** A month name, also with OCR's 0 for a leading O ("0ct 3, 2016": date.ts reads it as October). */
const MONTH_WORD = /[a-zäéû0][a-zäéû]{2,}/i;
const GLUED_LABEL = /^[[({|'"‘’“”«]*\p{L}{2,}[:.]?(\d.*)$/u;
/** A numeric date with the next label or a smudge glued after it: "21/05/2018Time:", "20/10/2017*--.". */
const GLUED_TAIL = /^(.*?\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2}))(?:\p{L}|[*~_|=-]).*$/u;

export function dateCandidates(layout: Layout, hints: LocaleHints): DateCandidate[] {
  return ngramCandidates(
    layout,
    5,
    (text) => {
      const digits = (text.match(/\d/g) ?? []).length;
      if (digits < 2 || text.length > 36) return false;
      return /\d[./-]\d/.test(text) || MONTH_WORD.test(text) || /^\d{8}$/.test(text);
    },
    (span) => {
      // OCR glues labels to values ("Date:11/01/2019", "Dater11/03/18"), and reads the edge of a box or a smudge in
      // front of the label as a bracket or quote ("[ate:09/02/17"): a single word may carry both in front, and the
      // next label or a smudge after it.
      const one = span.end - span.start === 1;
      const glued = one ? GLUED_LABEL.exec(span.text)?.[1] : undefined;
      const tail = one ? GLUED_TAIL.exec(glued ?? span.text)?.[1] : undefined;
      const parsed =
        parseDate(span.text, hints) ??
        (glued ? parseDate(glued, hints) : null) ??
        (tail ? parseDate(tail, hints) : null);
      return parsed && { ...span, ...parsed, repaired: parsed.repaired === true };
    },
  );
}
