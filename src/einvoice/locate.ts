/**
 * Where the page shows a value the XML states: amounts and dates are read in the page's own format (the same
 * candidates extraction reads, so "529,87 €" is 529.87 and "05.03.2018" is 2018-03-05), anything else is matched as
 * letters and digits only, case and spacing aside, word by word along each line. A value printed on no page has
 * no box.
 */
import type { FieldType } from "../catalog/catalog.js";
import type { Document, Word } from "../document/model.js";
import type { BoundingBox } from "../domain/result.js";
import { amountCandidates, dateCandidates } from "../extract/candidates.js";
import { boundingBox } from "../extract/decision.js";
import { guessLanguage } from "../extract/language-guess.js";
import { buildLayout, fullText, type Layout } from "../extract/layout.js";
import { inferLocale } from "../extract/locale-infer.js";
import { localeHints } from "../extract/normalise/locale.js";

/** Parts of a value shorter than this (a country code) match too many words to place anything. */
const MIN_PART = 3;

export function compactText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");
}

/** The words of the first run along a line whose letters and digits are `key` (a label glued in front allowed). */
function findRun(layout: Layout, key: string): Word[] | null {
  for (const segment of layout.segments) {
    const keys = segment.words.map((w) => compactText(w.text));
    for (let start = 0; start < keys.length; start++) {
      const head = keys[start] ?? "";
      if (head === "") continue;
      if (head.endsWith(key)) return [segment.words[start] as Word];
      let run = head;
      for (let end = start + 1; key.startsWith(run) && end <= keys.length; end++) {
        if (run === key) return segment.words.slice(start, end);
        run += keys[end] ?? "";
      }
    }
  }
  return null;
}

function swappedIso(iso: string): string {
  const [y, m, d] = iso.split("-");
  return `${y}-${d}-${m}`;
}

export interface Locator {
  /** The box of `value` (a field of type `type`) on the page, or null when no page shows it. */
  locate(type: FieldType, value: string): BoundingBox | null;
}

export function createLocator(document: Document, locale: string | undefined): Locator {
  const layout = buildLayout(document);
  let hints: ReturnType<typeof localeHints> | undefined;
  const pageHints = () => {
    if (!hints) {
      const text = fullText(layout);
      hints = inferLocale(localeHints(locale), text, guessLanguage(text).language).hints;
    }
    return hints;
  };
  let amounts: ReturnType<typeof amountCandidates> | undefined;
  let dates: ReturnType<typeof dateCandidates> | undefined;
  const pageOfWord = (id: number): number => {
    const place = layout.wordPlace.get(id);
    return (place && layout.segments[place.segment]?.pageNum) ?? 1;
  };

  const wordsOf = (type: FieldType, value: string): Word[] | null => {
    if (type === "amount") {
      amounts ??= amountCandidates(layout, pageHints());
      const target = Math.abs(Number(value));
      // A credit note prints its amounts without a sign as often as with one. Totals close the document: the last.
      return amounts.findLast((c) => Math.abs(Math.abs(c.value) - target) < 0.005)?.words ?? null;
    }
    if (type === "date") {
      dates ??= dateCandidates(layout, pageHints());
      return dates.find((c) => c.iso === value || (c.ambiguous && swappedIso(c.iso) === value))?.words ?? null;
    }
    // Names and addresses may run over several lines, which need not follow each other on the page.
    const parts = value
      .split(type === "address" ? /\n|, / : /\n/)
      .map(compactText)
      .filter((p) => p.length >= MIN_PART || (type !== "address" && p.length > 0));
    const found = parts.flatMap((p) => findRun(layout, p) ?? []);
    const first = found[0];
    return first ? found.filter((w) => pageOfWord(w.id) === pageOfWord(first.id)) : null;
  };

  return {
    locate: (type, value) => {
      const words = wordsOf(type, value);
      return words ? boundingBox(words, pageOfWord) : null;
    },
  };
}
