/**
 * Rows printed as blocks: each row a block of tight lines (name, period, attributes, codes) with its figures' line
 * somewhere in it, the blocks set apart by wider gaps. Where a page's lines fall into such blocks clearly (every gap
 * inside a block clearly narrower than the narrowest space between two rows, and no block holding two rows' figures),
 * the block decides whose text a description line is: a line read into the row above belongs to the row of its own
 * block, a line of the header's block (its last title, "Note") to no row, and a description line of a row's block that
 * the reading left out (over the row's figures, beside a labelled figure) to that row. Geometry only, no words.
 */
import type { Word } from "../../document/model.js";
import type { DraftRow } from "./draft.js";
import type { Chunk, VisualLine } from "./lines.js";
import { clearlyWidest } from "./offset-rows.js";

/** A row of the page with the line its figures stand on. */
export interface PlacedRow {
  row: DraftRow;
  line: VisualLine;
}

/**
 * Regroups the description lines of a page's rows by block (see the header); leaves the rows as they are where the
 * page's lines form no clear blocks. `headerFrom`: the index of the header's first line on the page, null where the
 * page has none; `descriptionOf`: the description chunks of a line the reading left out.
 */
export function regroupByBlocks(
  lines: readonly VisualLine[],
  headerFrom: number | null,
  placed: readonly PlacedRow[],
  descriptionOf: (line: VisualLine) => Chunk[],
): void {
  if (placed.length < 2) return;
  const gapAbove = (i: number): number => {
    const line = lines[i];
    const above = lines[i - 1];
    return line === undefined || above === undefined ? Number.POSITIVE_INFINITY : line.box.y0 - above.box.y1;
  };
  const figures = placed.map((p) => p.line.index);
  // The narrowest of the widest gaps between two rows' figures: a space between two blocks is at least that wide.
  let threshold = Number.POSITIVE_INFINITY;
  for (let k = 1; k < figures.length; k++) {
    const from = figures[k - 1] ?? 0;
    const to = figures[k] ?? 0;
    if (to <= from) return;
    let widest = Number.NEGATIVE_INFINITY;
    for (let i = from + 1; i <= to; i++) widest = Math.max(widest, gapAbove(i));
    threshold = Math.min(threshold, widest);
  }
  if (!(threshold > 0)) return;
  const first = figures[0] ?? 0;
  const last = figures[figures.length - 1] ?? 0;
  // Blocks only where the gaps inside them (between the first and the last row's figures) are clearly narrower than
  // the space between blocks; a gap wider than halfway between the two parts blocks, above and below the rows too.
  let inside = Number.NEGATIVE_INFINITY;
  for (let i = first + 1; i <= last; i++) if (gapAbove(i) < threshold) inside = Math.max(inside, gapAbove(i));
  if (inside === Number.NEGATIVE_INFINITY) return;
  const height = placed[0]?.line.height ?? 0;
  if (!clearlyWidest(threshold, Math.max(0, inside), height)) return;
  const apart = (i: number): boolean => gapAbove(i) > (threshold + Math.max(0, inside)) / 2;
  let start = headerFrom === null ? first : headerFrom;
  if (headerFrom === null) while (start > 0 && !apart(start)) start--;
  let end = last;
  while (end + 1 < lines.length && !apart(end + 1)) end++;
  const blockOf = new Map<number, number>();
  let block = 0;
  for (let i = start; i <= end; i++) {
    if (i > start && apart(i)) block++;
    blockOf.set(i, block);
  }
  const owner = new Map<number, DraftRow>();
  for (const { row, line } of placed) {
    const b = blockOf.get(line.index);
    if (b === undefined || owner.has(b)) return;
    owner.set(b, row);
  }
  const headerBlock = headerFrom !== null && !owner.has(0) ? 0 : null;
  const lineOfWord = new Map<Word, number>();
  for (const line of lines) for (const word of line.words) lineOfWord.set(word, line.index);
  const lineOf = (chunk: Chunk): number | undefined => {
    const word = chunk.words[0];
    return word === undefined ? undefined : lineOfWord.get(word);
  };

  const used = new Set<Word>();
  for (const { row } of placed) {
    for (const chunks of row.cells.values()) for (const chunk of chunks) for (const word of chunk.words) used.add(word);
  }
  const descriptions = new Map<DraftRow, Chunk[]>(placed.map(({ row }) => [row, []]));
  const changed = new Set<DraftRow>();
  for (const { row } of placed) {
    for (const chunk of row.cells.get("description") ?? []) {
      const at = lineOf(chunk);
      const b = at === undefined ? undefined : blockOf.get(at);
      const to = b === undefined ? row : (owner.get(b) ?? (b === headerBlock ? null : row));
      if (to !== row) changed.add(row);
      if (to !== null) {
        descriptions.get(to)?.push(chunk);
        if (to !== row) changed.add(to);
      }
    }
  }
  // Description lines of a row's block over its figures that no row took, below another row's block: not over the
  // page's first row (its block may hold the header's last lines, or a later page's letterhead).
  for (const { row, line } of placed.slice(1)) {
    const b = blockOf.get(line.index);
    for (let i = line.index - 1; i >= start && blockOf.get(i) === b; i--) {
      const above = lines[i];
      if (above === undefined) continue;
      const left = descriptionOf(above).filter((c) => c.words.every((w) => !used.has(w)));
      if (left.length === 0) continue;
      descriptions.get(row)?.push(...left);
      changed.add(row);
    }
  }
  for (const row of changed) {
    const own = descriptions.get(row) ?? [];
    const order = (c: Chunk): number => lineOf(c) ?? Number.POSITIVE_INFINITY;
    const sorted = own
      .map((chunk, k) => ({ chunk, k }))
      .sort((a, b) => order(a.chunk) - order(b.chunk) || a.chunk.box.x0 - b.chunk.box.x0 || a.k - b.k)
      .map((e) => e.chunk);
    if (sorted.length > 0) row.cells.set("description", sorted);
    else row.cells.delete("description");
  }
}
