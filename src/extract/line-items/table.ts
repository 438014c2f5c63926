/**
 * Header mode: a table found by its header line, read row by row. A row starts where the amount column has a number;
 * a text line close under a row's description continues that description. Where the first row's figures stand on a
 * line of their own under its description (stacked rows), the table is read that way: text lines go to the row whose
 * figures follow them. Subtotal, total and tax lines end the table;
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

/** Roles of a row's figures: a line with none of them may be the upper line of a stacked row. */
const FIGURE_ROLES: ReadonlySet<ColumnRole> = new Set(["quantity", "unitPrice", "amount", "taxRate"]);

/**
 * A line without figures, with text, as a stacked row's upper line: a running number, code or date (with a digit,
 * under its column) kept; all other text, wherever it runs over the columns, the description. Null for another line.
 */
function upperCells(cells: ReadonlyMap<ColumnRole, Chunk[]>): Map<ColumnRole, Chunk[]> | null {
  const out = new Map<ColumnRole, Chunk[]>();
  const text: Chunk[] = [];
  for (const [role, chunks] of cells) {
    if (chunks.length === 0) continue;
    if (FIGURE_ROLES.has(role)) return null;
    for (const chunk of chunks) {
      if ((role === "position" || role === "productCode" || role === "date") && /\d/.test(chunk.text)) {
        addChunk(out, role, chunk);
      } else text.push(chunk);
    }
  }
  if (!text.some((c) => /\p{L}/u.test(c.text))) return null;
  out.set(
    "description",
    text.sort((a, b) => a.box.x0 - b.box.x0),
  );
  return out;
}

/** Text with no word of letters alone: nothing, or codes and numbers ("AB-1234", "10.5"). */
function codeOnly(text: string): boolean {
  return text
    .trim()
    .split(/\s+/)
    .every((token) => !/\p{L}/u.test(token) || /\d/.test(token));
}

/**
 * A stacked row's upper lines joined to its figures: description first, a running number or code kept. A code
 * printed under the description on the figures' line is the row's product code.
 */
function takeUpper(cells: Map<ColumnRole, Chunk[]>, upper: ReadonlyMap<ColumnRole, Chunk[]>): void {
  const own = cells.get("description") ?? [];
  if (upper.has("description") && own.length > 0 && codeOnly(cellText(cells, "description"))) {
    if (/\p{L}/u.test(cellText(cells, "description")) && (cells.get("productCode") ?? []).length === 0) {
      cells.set("productCode", own);
    }
    cells.delete("description");
  }
  for (const [role, chunks] of upper) {
    const own = cells.get(role) ?? [];
    if (role === "description") cells.set(role, [...chunks, ...own]);
    else if (own.length === 0) cells.set(role, [...chunks]);
  }
}

interface TrailingLine {
  chunks: Chunk[];
  y0: number;
  y1: number;
  /** Read below the row's description by more than a line's gap: not part of the row unless moved to the next. */
  loose: boolean;
}

/**
 * Description lines read under a row's figures that belong to the next row: where the space between rows is wider
 * than between the lines of a row, the lines after the widest gap (clearly the widest) go with the row below them —
 * figures centred on, or printed at the foot of, a description over several lines.
 */
function moveLeadingLines(
  previous: DraftRow,
  row: DraftRow,
  after: readonly TrailingLine[],
  figures: number | undefined,
  line: VisualLine,
): void {
  if (after.length === 0 || figures === undefined) return;
  const gaps = [
    (after[0]?.y0 ?? 0) - figures,
    ...after.slice(1).map((l, k) => l.y0 - (after[k]?.y1 ?? 0)),
    line.box.y0 - (after[after.length - 1]?.y1 ?? 0),
  ];
  const sorted = [...gaps].sort((a, b) => b - a);
  const widest = sorted[0] ?? 0;
  const next = sorted[1] ?? 0;
  if (widest < next * 1.25 || widest - next < line.height * 0.2) return;
  const at = gaps.indexOf(widest);
  if (at >= after.length) return;
  if (after.slice(0, at).some((l) => l.loose)) return;
  const moved = after.slice(at).flatMap((l) => l.chunks);
  const gone = new Set(moved);
  previous.cells.set(
    "description",
    (previous.cells.get("description") ?? []).filter((c) => !gone.has(c)),
  );
  const kept = after[at - 1];
  previous.bottom = kept === undefined ? figures : kept.y1;
  row.cells.set("description", [...moved, ...(row.cells.get("description") ?? [])]);
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
  // Stacked rows (figures under their description): decided at the table's first row.
  let stacked: boolean | null = null;
  // Per row: the bottom of its figures' line and the description lines read under it (rows whose figures are
  // centred or at the foot of their description give some of them to the next row).
  const figuresBottom = new Map<DraftRow, number>();
  const trailing = new Map<DraftRow, TrailingLine[]>();
  for (let p = pageIndex; p < pages.length && continuing; p++) {
    const lines = pages[p] ?? [];
    // On a later page the table resumes at a repeated header, or at the first row that fits the columns.
    let inTable = p === pageIndex;
    let headerSeen = p === pageIndex;
    let lastBottom = p === pageIndex ? first.line.box.y1 : 0;
    let pending: Chunk[] = [];
    // A stacked row's upper lines (description, running number, code), waiting for its figures.
    let upper = new Map<ColumnRole, Chunk[]>();
    let upperBottom: number | null = null;
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
        upper = new Map();
        upperBottom = null;
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
        const lead = stacked === true ? cellText(upper, "description") : "";
        if (!inTable) {
          // Resuming without a header: the row must look like one (text and an amount with cents).
          if (!/\p{L}/u.test(`${lead} ${description}`) || !hasCents(cellText(cells, "amount"))) continue;
          inTable = true;
        } else if (pageRows > 0 && gap > line.height * 6) {
          pageEnd = footerOnly(lines, i) ? "page" : "gap";
          break;
        }
        stripPosition(cells, columns);
        // Stacked when the first row's figures have no text of their own and its description stands tight above.
        stacked ??=
          upperBottom !== null &&
          line.box.y0 - upperBottom < line.height * 1.1 &&
          /\p{L}/u.test(cellText(upper, "description")) &&
          codeOnly(description);
        const row: DraftRow = { page: line.page, cells, bottom: line.box.y1 };
        const previous = rows[rows.length - 1];
        if (stacked) takeUpper(cells, upper);
        else if (pending.length > 0 && pageRows === 0) {
          const own = cells.get("description") ?? [];
          cells.set("description", [...pending, ...own]);
        } else if (pageRows > 0 && previous !== undefined) {
          moveLeadingLines(previous, row, trailing.get(previous) ?? [], figuresBottom.get(previous), line);
        }
        figuresBottom.set(row, line.box.y1);
        pending = [];
        upper = new Map();
        upperBottom = null;
        rows.push(row);
        pageRows++;
        lastBottom = line.box.y1;
        continue;
      }
      // A row's description over its figures: one block of tight lines, the last one right above the figures. Before
      // the first row such lines are kept both ways (the first row decides), from then on only when stacked.
      const upperLine =
        stacked === true ? !inTable || pageRows === 0 || gap < line.height * 4 : inTable && gap < line.height * 3;
      const upperLineCells = stacked !== false && upperLine ? upperCells(cells) : null;
      if (upperLineCells !== null) {
        if (upperBottom === null || line.box.y0 - upperBottom > line.height * 1.1) upper = new Map();
        for (const [role, chunks] of upperLineCells) for (const chunk of chunks) addChunk(upper, role, chunk);
        upperBottom = line.box.y1;
        if (stacked === true) {
          if (inTable) lastBottom = line.box.y1;
          continue;
        }
      }
      if (!inTable) continue;
      const current = rows[rows.length - 1];
      // A description line a little further down may start the next row (figures at its foot): kept aside, given to
      // that row by moveLeadingLines or dropped; so is every description line after it.
      const after = current === undefined ? [] : (trailing.get(current) ?? []);
      const lastLoose = after[after.length - 1]?.loose === true ? after[after.length - 1] : undefined;
      const looseGap = lastLoose === undefined ? gap : line.box.y0 - lastLoose.y1;
      const loose =
        stacked === false &&
        pageRows > 0 &&
        descriptionOnly(cells) &&
        (lastLoose !== undefined ? looseGap < line.height * 1.1 : gap >= line.height * 1.1 && gap < line.height * 2);
      if (loose && current !== undefined) {
        after.push({ chunks: cells.get("description") ?? [], y0: line.box.y0, y1: line.box.y1, loose: true });
        trailing.set(current, after);
        continue;
      }
      if (descriptionOnly(cells) && gap < line.height * 1.1 && lastLoose === undefined) {
        if (pageRows > 0 && current !== undefined) {
          for (const chunk of cells.get("description") ?? []) addChunk(current.cells, "description", chunk);
          current.bottom = line.box.y1;
          after.push({ chunks: cells.get("description") ?? [], y0: line.box.y0, y1: line.box.y1, loose: false });
          trailing.set(current, after);
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
