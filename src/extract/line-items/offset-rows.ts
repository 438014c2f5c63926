/**
 * Rows whose figures stand between their text lines: a product's name on the line above its figures, a detail line
 * (a service period, more of the description) under them, and the figures' line holding no description of its own
 * (nothing, or a running number at its left). Which of the text lines read between two figures lines belong to the
 * lower row is told by geometry alone: the gaps between the lines, not their words.
 */
import type { DraftRow } from "./draft.js";
import { takeUpper } from "./line-cells.js";
import type { Chunk } from "./lines.js";

/** A text line read between two figures lines: its description chunks and its extent (page-height ratios). */
export interface TextLine {
  chunks: Chunk[];
  y0: number;
  y1: number;
  /** The line's text height. */
  height: number;
  /** A "Key: value" line ("Delivery date: ..."): a detail of the row above. */
  keyed: boolean;
}

/**
 * Whether `widest` stands clearly apart from the next widest gap: the space between two rows' blocks. `floor`: by how
 * much of a line's height at least (0.15 lets through rows spaced a sixth of a line wider than their own lines).
 */
export function clearlyWidest(widest: number, next: number, height: number, floor = 0.2): boolean {
  return widest >= next * 1.25 && widest - next >= height * floor;
}

/**
 * Where the lines of a row start among the text lines read since the line above it (the previous row's figures, or
 * the header, whose foot is `from`); `lines.length` (none) when the nearest one does not stand tight over the row's
 * figures' line (its top `to`). After the clearly widest gap between them (the space between two rows' blocks: what
 * comes before it hangs under the row above); without one, as `otherwise` says: the block of tight lines over the
 * figures ("chain", a table's first row on the page), every line ("all", a stacked row's description over several
 * lines), the nearest line ("nearest", the name over a row's figures) or none ("none", a row with its own text);
 * never a "Key: value" line or one above it.
 */
export function ownLinesFrom(
  lines: readonly TextLine[],
  from: number,
  to: number,
  height: number,
  otherwise: "chain" | "all" | "nearest" | "none",
): number {
  const last = lines[lines.length - 1];
  if (last === undefined || to - last.y1 > height * 1.1) return lines.length;
  if (otherwise === "chain") {
    let s = lines.length - 1;
    while (s > 0 && (lines[s]?.y0 ?? 0) - (lines[s - 1]?.y1 ?? 0) < height * 1.1) s--;
    return s;
  }
  // The gaps over each line, then the one over the figures: the widest there, the lines all hang under the row above.
  const gaps = [...lines, { y0: to }].map((line, k) => line.y0 - (k === 0 ? from : (lines[k - 1]?.y1 ?? from)));
  const sorted = [...gaps].sort((a, b) => b - a);
  const widest = sorted[0] ?? 0;
  const at = clearlyWidest(widest, sorted[1] ?? 0, height, 0.15)
    ? gaps.indexOf(widest)
    : otherwise === "all"
      ? 0
      : otherwise === "nearest"
        ? lines.length - 1
        : lines.length;
  // A "Key: value" line is a detail of the row above, and so is every line before it.
  return Math.max(at, lines.findLastIndex((l) => l.keyed) + 1);
}

/**
 * The row takes the lines from `at` on (ownLinesFrom) before its own figures' text, a running number there dropped
 * and a code kept as its code; the row above loses them. Where `giveBack` (stacked rows, which gave every line above
 * to the row under them), the row above gets back the lines before them that hang under its figures (whose foot is
 * `from`). Whether the row took any line.
 */
export function claimLinesAbove(
  row: DraftRow,
  previous: DraftRow | undefined,
  lines: readonly TextLine[],
  at: number,
  hang: { giveBack: boolean; from: number },
): boolean {
  const taken = new Set(lines.slice(at).flatMap((l) => l.chunks));
  const before = new Set(lines.slice(0, at).flatMap((l) => l.chunks));
  if (previous !== undefined && (taken.size > 0 || hang.giveBack)) {
    previous.cells.set(
      "description",
      (previous.cells.get("description") ?? []).filter((c) => !taken.has(c)),
    );
    if (hang.giveBack) hangUnder(previous, hangingLines(lines.slice(0, at), hang.from));
  }
  const own = (row.cells.get("description") ?? []).filter((c) => !taken.has(c) && !before.has(c));
  if (own.length > 0) row.cells.set("description", own);
  else row.cells.delete("description");
  if (taken.size === 0) return false;
  takeUpper(row.cells, new Map([["description", [...taken]]]));
  return true;
}

/** Lines hanging under a row's figures end its description, in the order printed (some may be in it already). */
export function hangUnder(row: DraftRow, lines: readonly TextLine[]): void {
  const back = new Set(lines.flatMap((l) => l.chunks));
  const kept = (row.cells.get("description") ?? []).filter((c) => !back.has(c));
  row.cells.set("description", [...kept, ...back]);
}

/**
 * The lines hanging tight under a row's figures (whose foot is `from`), up to a "Key: value" line (details of the
 * row, no part of its description, and so are the lines after it).
 */
export function hangingLines(lines: readonly TextLine[], from: number): TextLine[] {
  const out: TextLine[] = [];
  let bottom = from;
  for (const line of lines) {
    if (line.keyed || line.y0 - bottom >= line.height * 1.1) break;
    out.push(line);
    bottom = line.y1;
  }
  return out;
}
