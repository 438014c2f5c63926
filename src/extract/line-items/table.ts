/**
 * Header mode: a table found by its header line, read row by row. A row starts where the amount column has a number;
 * a text line close under a row's description continues that description. Subtotal, total and tax lines end the table;
 * carried-forward lines and continuation notes end a page of it, and the table goes on at the next page's repeated
 * header, or without one at the first line that fits the same columns.
 */

import type { Word } from "../../document/model.js";
import type { LocaleHints } from "../normalise/locale.js";
import { hasCents, moneyCell, quantityCell } from "./cells.js";
import { type Column, columnOf, type Header, readHeaderBand } from "./columns.js";
import { addChunk, cellText, type DraftRow } from "./draft.js";
import { type ColumnRole, startsWithStop } from "./headers.js";
import { boxOf, type Chunk, type VisualLine } from "./lines.js";

/** Stop lines that end a page of the table, not the table: carried and brought forward, page totals, continuation notes. */
const PAGE_STOP =
  /\b(carried|brought|ubertrag|fortsetzung|continued|reporter|report|suite|sigue|anterior|continua|transport|transporte|riporto|dibawa|page|seitensumme|seite|pagina|halaman)\b/;

export interface ReadTable {
  header: Header;
  rows: DraftRow[];
}

function lineCells(line: VisualLine, columns: readonly Column[], hints: LocaleHints): Map<ColumnRole, Chunk[]> {
  const cells = new Map<ColumnRole, Chunk[]>();
  for (const chunk of line.chunks.flatMap((c) => splitLeadingNumber(c, columns))) {
    const column = columnOf(chunk, columns, hints);
    if (column !== null) addChunk(cells, column.role, chunk);
  }
  return cells;
}

/** The folded words of the line's first text chunks: where a subtotal or total line names itself. */
function labelWords(line: VisualLine, hints: LocaleHints): string[] {
  const first = line.chunks.findIndex((c) => moneyCell(c.text, hints) === null && /\p{L}/u.test(c.text));
  if (first < 0) return [];
  const out: string[] = [];
  // OCR may split "Sub  total" into two chunks: the words up to the next number.
  for (const chunk of line.chunks.slice(first)) {
    if (moneyCell(chunk.text, hints) !== null || !/\p{L}/u.test(chunk.text)) break;
    out.push(...chunk.folded.filter((w) => w !== ""));
    if (out.length >= 4) break;
  }
  return out;
}

type StopKind = "table" | "page" | null;

function stopOf(line: VisualLine, cells: ReadonlyMap<ColumnRole, Chunk[]>, hints: LocaleHints): StopKind {
  const label = labelWords(line, hints);
  if (!startsWithStop(label)) return null;
  if (quantityCell(cellText(cells, "quantity"), hints) !== null) return null;
  return PAGE_STOP.test(label.slice(0, 4).join(" ")) ? "page" : "table";
}

function amountOf(cells: ReadonlyMap<ColumnRole, Chunk[]>, hints: LocaleHints): string | null {
  const chunks = cells.get("amount") ?? [];
  const joined = moneyCell(chunks.map((c) => c.text).join(" "), hints);
  if (joined !== null) return joined;
  // OCR may break a number with a space ("42,0 0").
  const glued = moneyCell(
    chunks
      .map((c) => c.text)
      .join("")
      .replace(/\s+/g, ""),
    hints,
  );
  if (glued !== null) return glued;
  for (let i = chunks.length - 1; i >= 0; i--) {
    const one = moneyCell(chunks[i]?.text ?? "", hints);
    if (one !== null) return one;
  }
  return null;
}

/** Whether every chunk of the line went to the description (a wrapped description line). */
function descriptionOnly(cells: ReadonlyMap<ColumnRole, Chunk[]>): boolean {
  for (const [role, chunks] of cells) if (role !== "description" && chunks.length > 0) return false;
  return (cells.get("description") ?? []).length > 0;
}

/** readHeader per line, once: the first search, the row loop and the look at the next page all ask. */
function headerCache(): (lines: readonly VisualLine[], i: number) => Header | null {
  const seen = new Map<VisualLine, Header | null>();
  return (lines, i) => {
    const line = lines[i];
    if (line === undefined) return null;
    const cached = seen.get(line);
    if (cached !== undefined) return cached;
    const [above, below] = neighboursOf(lines, i);
    const header = readHeaderBand(line, above, below);
    seen.set(line, header);
    return header;
  };
}

export function readHeaderTable(pages: readonly VisualLine[][], hints: LocaleHints): ReadTable | null {
  const headerAt = headerCache();
  let first: Header | null = null;
  let pageIndex = 0;
  let start = 0;
  for (let p = 0; p < pages.length && first === null; p++) {
    const lines = pages[p] ?? [];
    for (const line of lines) {
      const header = headerAt(lines, line.index);
      if (header !== null) {
        first = header;
        pageIndex = p;
        // A header over two lines ends at its lower line.
        start = Math.max(line.index, header.line.index) + 1;
        break;
      }
    }
  }
  if (first === null) return null;
  let columns = first.columns;
  const rows: DraftRow[] = [];
  let continuing = true;
  for (let p = pageIndex; p < pages.length && continuing; p++) {
    const lines = pages[p] ?? [];
    // On a later page the table resumes at a repeated header, or at the first row that fits the columns.
    let inTable = p === pageIndex;
    let headerSeen = p === pageIndex;
    let lastBottom = p === pageIndex ? first.line.box.y1 : 0;
    let pending: Chunk[] = [];
    let pageRows = 0;
    let pageEnd: "page" | "table" | "gap" | null = null;
    for (let i = p === pageIndex ? start : 0; i < lines.length; i++) {
      const line = lines[i];
      if (line === undefined) continue;
      const header = headerAt(lines, i);
      if (header !== null && (pageRows > 0 || !sameTable(first, header))) {
        // A second header under rows, or one naming other columns, starts another table (a tax breakdown).
        pageEnd = "table";
        break;
      }
      if (header !== null) {
        columns = keepColumns(columns, header.columns);
        inTable = true;
        headerSeen = true;
        lastBottom = header.line.box.y1;
        pending = [];
        i = Math.max(i, header.line.index);
        continue;
      }
      // A line overlapping the header's band is part of it (a header cell OCR put on a line of its own).
      if (headerSeen && pageRows === 0 && line.box.y0 < lastBottom - line.height * 0.3) continue;
      const cells = lineCells(line, columns, hints);
      const stop = stopOf(line, cells, hints);
      if (stop !== null) {
        if (!inTable) continue;
        if (stop === "page" && pageRows === 0 && rows.length > 0) continue; // brought forward at the top
        if (pageRows === 0 && rows.length === 0) continue;
        pageEnd = stop;
        break;
      }
      // An amount OCR could not read still makes a row when quantity, unit price and a description are there.
      const amount = amountOf(cells, hints) ?? (inTable ? impliedAmount(cells, hints) : null);
      if (amount !== null && rows.length > 0 && indentedTotal(line, cells, columns, hints)) {
        pageEnd = "table";
        break;
      }
      const description = cellText(cells, "description");
      const gap = line.box.y0 - lastBottom;
      if (amount !== null) {
        if (!inTable) {
          // Resuming without a header: the row must look like one (text and an amount with cents).
          if (!/\p{L}/u.test(description) || !hasCents(cellText(cells, "amount"))) continue;
          inTable = true;
        } else if (pageRows > 0 && gap > line.height * 6) {
          pageEnd = footerOnly(lines, i) ? "page" : "gap";
          break;
        }
        stripPosition(cells, columns);
        const row: DraftRow = { page: line.page, cells, bottom: line.box.y1 };
        if (pending.length > 0 && pageRows === 0) {
          const own = cells.get("description") ?? [];
          cells.set("description", [...pending, ...own]);
        }
        pending = [];
        rows.push(row);
        pageRows++;
        lastBottom = line.box.y1;
        continue;
      }
      if (!inTable) continue;
      const current = rows[rows.length - 1];
      if (descriptionOnly(cells) && gap < line.height * 1.1) {
        if (pageRows > 0 && current !== undefined) {
          for (const chunk of cells.get("description") ?? []) addChunk(current.cells, "description", chunk);
          current.bottom = line.box.y1;
        } else pending.push(...(cells.get("description") ?? []));
        lastBottom = line.box.y1;
        continue;
      }
      if (pageRows > 0 && gap > line.height * 4) {
        pageEnd = footerOnly(lines, i) ? "page" : "gap";
        break;
      }
    }
    if (pageEnd === "table") continuing = false;
    // A table that stopped at a wide gap goes on only at a repeated header on the next page.
    const next = pages[p + 1] ?? [];
    if (pageEnd === "gap") continuing = next.some((_, i) => headerAt(next, i) !== null);
    if (!headerSeen && pageRows === 0 && p > pageIndex) continuing = false;
  }
  return rows.length === 0 ? null : { header: first, rows };
}

/** The lines printed tight above and below a line (null where none): the rest of a header printed over several lines. */
function neighboursOf(lines: readonly VisualLine[], i: number): [VisualLine | null, VisualLine | null] {
  const line = lines[i];
  if (line === undefined) return [null, null];
  const above = lines[i - 1];
  const below = lines[i + 1];
  return [
    above !== undefined && line.box.y0 - above.box.y1 < line.height * 0.8 ? above : null,
    below !== undefined && below.box.y0 - line.box.y1 < line.height * 0.8 ? below : null,
  ];
}

/**
 * An amount whose label starts well right of the description column, with no quantity or unit price: the totals block
 * printed under the price columns ("Rechnungssumme netto  845,00"), whatever its words.
 */
function indentedTotal(
  line: VisualLine,
  cells: ReadonlyMap<ColumnRole, Chunk[]>,
  columns: readonly Column[],
  hints: LocaleHints,
): boolean {
  const description = columns.find((c) => c.role === "description");
  if (description === undefined) return false;
  if ((cells.get("quantity") ?? []).length > 0 || (cells.get("unitPrice") ?? []).length > 0) return false;
  const label = line.chunks.find((c) => /\p{L}/u.test(c.text) && moneyCell(c.text, hints) === null);
  return label !== undefined && label.box.x0 > description.x0 + 0.2;
}

/** "1 Superdrachen" under "Pos. Artikelbeschreibung": the running number printed in the description's cell. */
function stripPosition(cells: Map<ColumnRole, Chunk[]>, columns: readonly Column[]): void {
  if (!columns.some((c) => c.role === "position") || (cells.get("position") ?? []).length > 0) return;
  const [first, ...rest] = cells.get("description") ?? [];
  if (first === undefined || first.words.length < 2 || !/^\d{1,3}\.?$/.test(first.words[0]?.text ?? "")) return;
  const words = first.words.slice(1);
  const chunk: Chunk = {
    words,
    text: words.map((w) => w.text).join(" "),
    folded: first.folded.slice(1),
    box: boxOf(words),
  };
  cells.set("description", [chunk, ...rest]);
}

/** Whether a header repeats the first one's columns: it names the amount and two more of its roles. */
function sameTable(first: Header, other: Header): boolean {
  const roles = new Set(first.columns.map((c) => c.role));
  const shared = other.columns.filter((c) => roles.has(c.role)).length;
  return shared >= Math.min(3, roles.size) && other.columns.some((c) => c.role === "amount");
}

/** Quantity x unit price of a line with a description whose amount cell is missing or unreadable. */
function impliedAmount(cells: ReadonlyMap<ColumnRole, Chunk[]>, hints: LocaleHints): string | null {
  if (!/\p{L}{3}/u.test(cellText(cells, "description"))) return null;
  const quantity = quantityCell(cellText(cells, "quantity"), hints);
  const unitPrice = moneyCell(cellText(cells, "unitPrice"), hints);
  if (quantity === null || unitPrice === null) return null;
  return String(Number(quantity.quantity) * Number(unitPrice));
}

function chunkOf(words: Word[], folded: string[]): Chunk {
  return { words, text: words.map((w) => w.text).join(" "), folded, box: boxOf(words) };
}

/**
 * "1 Website maintenance" read as one chunk where a quantity or running-number column sits tight left of the
 * description: the number under that column's header is its own cell.
 */
function splitLeadingNumber(chunk: Chunk, columns: readonly Column[]): Chunk[] {
  const [first, second] = chunk.words;
  if (first === undefined || second === undefined || !/^\d{1,4}(?:[.,]\d{1,3})?$/.test(first.text)) return [chunk];
  if (!/^\p{L}/u.test(second.text)) return [chunk];
  const centre = (first.box.x0 + first.box.x1) / 2;
  const under = columns.find(
    (c) => (c.role === "quantity" || c.role === "position") && centre >= c.x0 - 0.01 && centre <= c.x1 + 0.01,
  );
  if (under === undefined || second.box.x0 < under.x1) return [chunk];
  // Only where the description column follows and the rest starts under it ("3 Piece" is a quantity and its unit).
  const description = columns.find((c) => c.role === "description");
  if (description === undefined || description.x0 < under.x1 - 0.02) return [chunk];
  if (second.box.x0 > description.x1 + 0.02 || second.box.x0 < description.x0 - 0.03) return [chunk];
  return [chunkOf([first], chunk.folded.slice(0, 1)), chunkOf(chunk.words.slice(1), chunk.folded.slice(1))];
}

/**
 * Whether the lines from `from` on are only the page's foot (the bottom sixth: bank line, page number, company
 * register): a table that stops at a gap above them runs on to the next page, header repeated or not.
 */
function footerOnly(lines: readonly VisualLine[], from: number): boolean {
  for (let i = from; i < lines.length; i++) {
    const line = lines[i];
    if (line !== undefined && line.box.y0 < 5 / 6) return false;
  }
  return true;
}

/**
 * The columns under a repeated header: its own, plus the earlier header's columns it does not name where nothing of
 * it sits (a repeat OCR read worse loses no column).
 */
function keepColumns(earlier: readonly Column[], repeated: readonly Column[]): Column[] {
  const roles = new Set(repeated.map((c) => c.role));
  const kept = earlier.filter(
    (c) => !roles.has(c.role) && !repeated.some((r) => Math.min(r.x1, c.x1) - Math.max(r.x0, c.x0) > 0),
  );
  return [...repeated, ...kept].sort((a, b) => a.x0 - b.x0);
}
