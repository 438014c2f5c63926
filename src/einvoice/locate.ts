/**
 * Where the page shows a value the XML states: amounts and dates are read in the page's own format (the same
 * candidates extraction reads, so "529,87 €" is 529.87 and "05.03.2018" is 2018-03-05), anything else is matched as
 * letters and digits only, case and spacing aside, word by word along each line. A value printed on no page has
 * no box.
 */
import type { FieldType } from "../catalog/catalog.js";
import { guessLanguage } from "../document/language-guess.js";
import type { Document, Word } from "../document/model.js";
import type { LineItem, LineItemCellBox, LineItemCellName, LineItemCells } from "../domain/line-items.js";
import type { BoundingBox } from "../domain/result.js";
import { amountCandidates, dateCandidates } from "../extract/candidates.js";
import { boundingBox } from "../extract/decision.js";
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

/**
 * The words of the first run along a line whose letters and digits are `key` (a label glued in front allowed),
 * starting at a word `usable` accepts.
 */
function findRun(layout: Layout, key: string, usable: (word: Word) => boolean = () => true): Word[] | null {
  for (const segment of layout.segments) {
    const keys = segment.words.map((w) => compactText(w.text));
    for (let start = 0; start < keys.length; start++) {
      const head = keys[start] ?? "";
      const word = segment.words[start];
      if (head === "" || !word || !usable(word)) continue;
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
  /**
   * The cells of invoice lines where the page prints them, in order: a line's description anchors it (its first
   * words will do for a description the page wraps or cuts), and its amount, unit price and quantity are looked for
   * on the description's line. A line whose description is printed nowhere gets no boxes.
   */
  locateLines(lines: readonly LineItemCells[]): LineItemCellBox[][];
}

/** The boxed cells besides the description, with the field type that reads them in the page's own format. */
const ROW_CELLS: readonly (readonly [LineItemCellName, "amount" | "quantity"])[] = [
  ["amount", "amount"],
  ["unitPrice", "amount"],
  ["quantity", "quantity"],
];

/** Keys to find a description by: the whole of it, its first line, then its first four and two words. */
function descriptionKeys(description: string): string[] {
  const words = description.split(/\s+/);
  const keys = [
    description,
    description.split("\n")[0] ?? "",
    words.slice(0, 4).join(" "),
    words.slice(0, 2).join(" "),
  ];
  return [...new Set(keys.map(compactText).filter((k) => k.length >= MIN_PART))];
}

function cellBox(cell: LineItemCellName, box: BoundingBox): LineItemCellBox {
  return { cell, ...box };
}

/** The union of cell boxes on the first page any of them is on: a table's box. */
export function tableBox(rows: readonly Pick<LineItem, "boundingBoxes">[]): BoundingBox | null {
  const boxes = rows.flatMap((r) => r.boundingBoxes);
  const page = Math.min(...boxes.map((b) => b.pageNum));
  const onPage = boxes.filter((b) => b.pageNum === page);
  if (onPage.length === 0) return null;
  return {
    pageNum: page,
    topLeft: { x: Math.min(...onPage.map((b) => b.topLeft.x)), y: Math.min(...onPage.map((b) => b.topLeft.y)) },
    bottomRight: {
      x: Math.max(...onPage.map((b) => b.bottomRight.x)),
      y: Math.max(...onPage.map((b) => b.bottomRight.y)),
    },
    tokenIds: [...new Set(onPage.flatMap((b) => b.tokenIds))],
  };
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

  const locateLines = (lines: readonly LineItemCells[]): LineItemCellBox[][] => {
    amounts ??= amountCandidates(layout, pageHints());
    const candidates = amounts;
    const taken = new Set<number>();
    const take = (words: readonly Word[]) => {
      for (const w of words) taken.add(w.id);
    };
    /** Where the previous line's description starts: lines are printed in order, so the next one is not above it. */
    let after: { page: number; y: number } | null = null;
    const below = (w: Word) => {
      if (!after) return true;
      const page = pageOfWord(w.id);
      return page > after.page || (page === after.page && w.box.y0 >= after.y);
    };
    return lines.map((line) => {
      if (line.description === null) return [];
      const usable = (w: Word) => !taken.has(w.id) && below(w);
      let described: Word[] | null = null;
      for (const key of descriptionKeys(line.description)) {
        described = findRun(layout, key, usable);
        if (described) break;
      }
      const anchor = described?.[0];
      if (!described || !anchor) return [];
      take(described);
      const page = pageOfWord(anchor.id);
      after = { page, y: anchor.box.y0 };
      const top = Math.min(...described.map((w) => w.box.y0));
      const bottom = Math.max(...described.map((w) => w.box.y1));
      const middle = (w: Word) => (w.box.y0 + w.box.y1) / 2;
      const height = bottom - top;
      // The row's figures stand on the description's line, or on the next one (a description over two lines
      // whose figures are printed at its middle or foot).
      const inRow = (w: Word) =>
        pageOfWord(w.id) === page && middle(w) >= top - height / 2 && middle(w) <= bottom + 1.6 * height;
      const distance = (c: (typeof candidates)[number]) => Math.abs(middle(c.words[0] as Word) - (top + bottom) / 2);
      const boxes = [cellBox("description", boundingBox(described, pageOfWord) as BoundingBox)];
      for (const [cell, kind] of ROW_CELLS) {
        const value = line[cell];
        if (value === null) continue;
        const target = Math.abs(Number(value));
        const fitting = candidates.filter(
          (c) =>
            Math.abs(Math.abs(c.value) - target) < 0.005 &&
            (kind === "quantity" || c.hasDecimals) &&
            c.words.length > 0 &&
            c.words.every((w) => !taken.has(w.id) && inRow(w) && w.box.x0 >= anchor.box.x0),
        );
        // Nearest the description's line first; there, the amount is the rightmost figure (a unit price equal to
        // it, quantity 1, stands left of it), the others the leftmost.
        const x = (c: (typeof candidates)[number]) => (c.words[0] as Word).box.x0;
        const found = fitting.sort(
          (a, b) => distance(a) - distance(b) || (cell === "amount" ? x(b) - x(a) : x(a) - x(b)),
        )[0];
        if (!found) continue;
        take(found.words);
        boxes.push(cellBox(cell, boundingBox(found.words, pageOfWord) as BoundingBox));
      }
      return boxes;
    });
  };

  return {
    locate: (type, value) => {
      const words = wordsOf(type, value);
      return words ? boundingBox(words, pageOfWord) : null;
    },
    locateLines,
  };
}
