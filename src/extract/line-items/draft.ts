/** A row as read, before its cells are normalised: the chunks each column received, line by line. */
import type { ColumnRole } from "./headers.js";
import type { Chunk } from "./lines.js";

export interface DraftRow {
  page: number;
  /** Chunks per column; the description's lines in order. */
  cells: Map<ColumnRole, Chunk[]>;
  /** Bottom of the row's last line (page-height ratio), for wrapped-description gaps. */
  bottom: number;
  /**
   * Labelled figures printed over, beside or under the row's figures ("(Brut: 12,00)", "(Net): 10,00"): where the
   * unit price column holds none, the one that quantity x price = amount closes on is the unit price.
   */
  details?: Chunk[];
}

export function addChunk(cells: Map<ColumnRole, Chunk[]>, role: ColumnRole, chunk: Chunk): void {
  const list = cells.get(role) ?? [];
  list.push(chunk);
  cells.set(role, list);
}

export function cellText(cells: ReadonlyMap<ColumnRole, Chunk[]>, role: ColumnRole): string {
  return (cells.get(role) ?? []).map((c) => c.text).join(" ");
}

/** Whether a line of text ends in a hyphen after a word: a word broken there ("Unsere Art.-" over "Nr.: TB100A4"). */
export function brokenAtHyphen(text: string): boolean {
  return /\S[-‐]$/u.test(text);
}

/** A description's text over its lines: a line broken at a hyphen joins the next without a space. */
export function descriptionText(chunks: readonly Chunk[]): string {
  let text = "";
  for (const [i, chunk] of chunks.entries()) {
    const before = chunks[i - 1];
    const broken = before !== undefined && brokenAtHyphen(before.text) && chunk.box.y0 >= before.box.y1 - 0.002;
    text += i === 0 || broken ? chunk.text : ` ${chunk.text}`;
  }
  return text;
}
