/** A row as read, before its cells are normalised: the chunks each column received, line by line. */
import type { ColumnRole } from "./headers.js";
import type { Chunk } from "./lines.js";

export interface DraftRow {
  page: number;
  /** Chunks per column; the description's lines in order. */
  cells: Map<ColumnRole, Chunk[]>;
  /** Bottom of the row's last line (page-height ratio), for wrapped-description gaps. */
  bottom: number;
}

export function addChunk(cells: Map<ColumnRole, Chunk[]>, role: ColumnRole, chunk: Chunk): void {
  const list = cells.get(role) ?? [];
  list.push(chunk);
  cells.set(role, list);
}

export function cellText(cells: ReadonlyMap<ColumnRole, Chunk[]>, role: ColumnRole): string {
  return (cells.get(role) ?? []).map((c) => c.text).join(" ");
}
