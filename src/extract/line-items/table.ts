/**
 * Header mode: a table found by its header line, read row by row. A row starts where the amount column has a number;
 * a text line close under a row's description continues that description. Where the first row's figures stand on a
 * line of their own under its description (stacked rows), the table is read that way: text lines go to the row whose
 * figures follow them. A row whose figures' line holds no description (nothing, or a running number) takes the name
 * printed above it, the lines under its figures staying its own (offset-rows.ts). Subtotal, total and tax lines end
 * the table; carried-forward lines and continuation notes end a page of it, and the table goes on at the next page's
 * repeated header, or without one at the first line that fits the same columns.
 */

import type { LocaleHints } from "../normalise/locale.js";
import { amountByArithmetic, quantityByArithmetic, sameAmount } from "./arithmetic-columns.js";
import { type PlacedRow, regroupByBlocks } from "./blocks.js";
import { hasCents } from "./cells.js";
import { type Column, type Header, headerStackTail, readHeaderBand } from "./columns.js";
import { addChunk, brokenAtHyphen, cellText, type DraftRow } from "./draft.js";
import type { ColumnRole } from "./headers.js";
import {
  amountBelow,
  amountOf,
  awaitsAmount,
  codeLine,
  codeOnly,
  dateWrapped,
  descriptionOnly,
  figureDetail,
  figuresTight,
  impliedAmount,
  indentedTotal,
  joinAwaiting,
  keyValue,
  leadingCodes,
  lineCells,
  noteAcross,
  periodLine,
  pricedFigures,
  productFigures,
  rowInBlock,
  stopOf,
  stripPosition,
  takeUpper,
  textOnly,
  titlesAcross,
  upperCells,
  withoutDetails,
} from "./line-cells.js";
import { type Chunk, gapUnit, type VisualLine } from "./lines.js";
import { claimLinesAbove, clearlyWidest, hangingLines, hangUnder, ownLinesFrom, type TextLine } from "./offset-rows.js";

export interface ReadTable {
  header: Header;
  rows: DraftRow[];
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
  if (!clearlyWidest(widest, sorted[1] ?? 0, line.height)) return;
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
  let firstFrom = -1;
  for (let p = 0; p < pages.length && first === null; p++) {
    const lines = pages[p] ?? [];
    for (const line of lines) {
      const header = headerAt(lines, line.index);
      if (header !== null) {
        first = header;
        pageIndex = p;
        firstFrom = line.index;
        // A header over two lines ends at its lower line.
        start = Math.max(line.index, header.line.index) + 1;
        break;
      }
    }
  }
  if (first === null) return null;
  const firstLines = pages[pageIndex] ?? [];
  first = amountByArithmetic(quantityByArithmetic(first, firstLines, start, hints), firstLines, start, hints);
  let columns = first.columns;
  const rows: DraftRow[] = [];
  let continuing = true;
  // Stacked rows (figures under their description): decided at the table's first row.
  let stacked: boolean | null = null;
  // Per row: the bottom of its figures' line and the description lines read under it (rows whose figures are
  // centred or at the foot of their description give some of them to the next row).
  const figuresBottom = new Map<DraftRow, number>();
  const trailing = new Map<DraftRow, TrailingLine[]>();
  // Rows whose description has ended at a line of details ("Lieferdatum: ..."): later lines are no part of it.
  const noted = new Set<DraftRow>();
  // Rows whose figures' line has no description took their name from above while lines hung under the row above: the
  // lines under the last row's figures are its own too.
  let hangs = false;
  // A first row of bare figures right under the header (a code at most, no text above it): each row's description is
  // printed under its figures ("1938 2 6.89 13.78" over "4\" ROLLER SET"), so no row takes the lines above it.
  let descriptionsBelow = false;
  // How far a row's loose description lines reach below its last line: the table still runs there.
  const looseBelow = (row: DraftRow | undefined): number => {
    if (row === undefined) return 0;
    const last = (trailing.get(row) ?? []).at(-1);
    return last?.loose === true ? Math.max(0, last.y1 - row.bottom) : 0;
  };
  // The widest gap seen between two rows on a page: a table whose rows stand far apart goes on past as wide a gap, on
  // the pages after too (a page's first rows have no gap of their own to go by).
  let rowGap = 0;
  // Per page read: its lines, rows and columns, for rows printed as blocks (blocks.ts) once every row is read.
  const blockPages: {
    lines: readonly VisualLine[];
    headerTop: number | null;
    placed: PlacedRow[];
    columns: Column[];
  }[] = [];
  for (let p = pageIndex; p < pages.length && continuing; p++) {
    const lines = pages[p] ?? [];
    // On a later page the table resumes at a repeated header, or at the first row that fits the columns.
    let inTable = p === pageIndex;
    let headerSeen = p === pageIndex;
    let lastBottom = p === pageIndex ? first.line.box.y1 : 0;
    // The foot of the page's header: a line overlapping it is one of the header's (not the lines of a first row
    // printed tight over each other under it).
    let headerBottom = lastBottom;
    // The last line read as the header's on the page (its stacked cells may run a line further down).
    let headerLast: VisualLine | null = p === pageIndex ? first.line : null;
    // The foot of the last line read as part of the table (rows, their text, and the notes printed between rows): a
    // wide gap under it, not under the last row, ends the table.
    let reach = lastBottom;
    let pending: Chunk[] = [];
    // The foot of the last pending line: a header's own last line stands apart from the first row.
    let pendingBottom = 0;
    // Labelled figures over the next row's figures (its gross price), waiting for that row.
    let detailsAbove: Chunk[] = [];
    // A stacked row's upper lines (description, running number, code), waiting for its figures.
    let upper = new Map<ColumnRole, Chunk[]>();
    let upperBottom: number | null = null;
    // A line with a description and figures but no amount, whose amount may stand on the line right under it.
    let awaiting: { cells: Map<ColumnRole, Chunk[]>; top: number; bottom: number; reach: number } | null = null;
    let pageRows = 0;
    let pageEnd: "page" | "table" | "gap" | null = null;
    let noteBottom: number | null = null;
    // The text lines read since the last row's figures (or the header, whose foot is `linesFrom`): a row whose
    // figures' line has no description takes its own from them.
    let between: TextLine[] = [];
    let linesFrom = lastBottom;
    // A later page that repeats the header: what stands above it is the page's letterhead ("FATTURA" | "882456"), no
    // total of the table.
    const headerFrom = p > pageIndex ? lines.findIndex((_, k) => headerAt(lines, k) !== null) : -1;
    // The page's rows with their figures' lines, for blocks.ts.
    const placed: PlacedRow[] = [];
    for (let i = p === pageIndex ? start : 0; i < lines.length; i++) {
      const line = lines[i];
      if (line === undefined || i < headerFrom) continue;
      const header = headerAt(lines, i);
      if (header !== null && (pageRows > 0 || !sameTable(first, header))) {
        // A second header under rows, or one naming other columns, starts another table (a tax breakdown).
        pageEnd = "table";
        break;
      }
      if (header !== null) {
        columns = keepColumns(columns, sameAmount(header, first).columns);
        inTable = true;
        headerSeen = true;
        lastBottom = header.line.box.y1;
        headerBottom = lastBottom;
        headerLast = header.line;
        reach = lastBottom;
        between = [];
        linesFrom = lastBottom;
        pending = [];
        upper = new Map();
        upperBottom = null;
        i = Math.max(i, header.line.index);
        continue;
      }
      // A line overlapping the header's band is part of it (a header cell OCR put on a line of its own).
      if (headerSeen && pageRows === 0 && line.box.y0 < headerBottom - line.height * 0.3) {
        headerLast = line;
        continue;
      }
      // So is a line right under it that continues a stack of its text naming no column ("(Art)" under "Art-Nr").
      if (
        headerSeen &&
        pageRows === 0 &&
        headerLast !== null &&
        line.box.y0 - headerBottom < line.height * 0.8 &&
        headerStackTail(line, headerLast, columns)
      ) {
        headerLast = line;
        headerBottom = line.box.y1;
        continue;
      }
      // Column titles under rows, or on a later page before the table resumed without its header: another table.
      if ((pageRows > 0 || (!inTable && rows.length > 0)) && titlesAcross(line, columns)) {
        pageEnd = "table";
        break;
      }
      const cells = lineCells(line, columns, hints);
      // A service period (under or over a row's figures, beside its code) is a detail of the row, no description.
      const period = periodLine(cells, hints);
      const stop = stopOf(line, cells, hints);
      if (stop !== null) {
        // A page the table runs on to without its header: totals or tax lines before any row of it end the table.
        if (!inTable && stop === "table" && !headerSeen && rows.length > 0) {
          pageEnd = "table";
          break;
        }
        if (!inTable) continue;
        if (stop === "page" && pageRows === 0 && rows.length > 0) {
          // Brought forward at the top: the first row's description may start right under it.
          lastBottom = line.box.y1;
          reach = line.box.y1;
          between = [];
          linesFrom = line.box.y1;
          continue;
        }
        if (pageRows === 0 && rows.length === 0) continue;
        pageEnd = stop;
        break;
      }
      // An amount OCR could not read still makes a row when quantity, unit price and a description are there.
      // Not where the amount stands on the line right under it (a row over two lines).
      const amount =
        amountOf(cells, hints) ??
        (inTable && !amountBelow(lines, i, columns, hints) ? impliedAmount(cells, hints) : null);
      if (amount !== null && rows.length > 0 && indentedTotal(line, cells, columns, hints)) {
        pageEnd = "table";
        break;
      }
      let gap = line.box.y0 - lastBottom;
      let reachGap = line.box.y0 - reach;
      if (amount !== null && awaiting !== null && line.box.y0 - awaiting.bottom < line.height * 1.1) {
        // The row starts at its upper line: the gap that may end the table is above that one.
        if (joinAwaiting(cells, awaiting.cells)) {
          gap = awaiting.top - lastBottom;
          reachGap = awaiting.top - awaiting.reach;
        }
      }
      awaiting = null;
      // A note across the table, and the lines of its paragraph under it.
      if (
        amount === null &&
        ((stacked !== true && noteAcross(cells, columns) && !figuresTight(lines, i, columns, hints)) ||
          (noteBottom !== null && textOnly(cells) && line.box.y0 - noteBottom < line.height * 1.1))
      ) {
        if (inTable && pageRows > 0 && reachGap < gapUnit(line) * 2.5) reach = line.box.y1;
        noteBottom = line.box.y1;
        continue;
      }
      const description = cellText(cells, "description");
      // Text lines with no figures; a line of a wrapped description's last figures ("28.12.2026") too.
      const text =
        amount === null
          ? (upperCells(cells)?.get("description") ?? (descriptionOnly(cells) ? cells.get("description") : undefined))
          : undefined;
      if (text !== undefined) {
        // A period between two rows' figures keeps its place in the rows' blocks, not its text.
        const chunks = period ? [] : text;
        between.push({ chunks, y0: line.box.y0, y1: line.box.y1, height: line.height, keyed: keyValue(cells) });
      }
      if (amount !== null) {
        // A product's figures with no description beside them (nothing, or a running number): its name stands above.
        const bare = codeOnly(description) && productFigures(cells);
        const lead = stacked === true ? cellText(upper, "description") : "";
        if (!inTable) {
          // Resuming without a header: the row must look like one (text and an amount with cents).
          if (!/\p{L}/u.test(`${lead} ${description}`) || !hasCents(cellText(cells, "amount"))) continue;
          inTable = true;
        } else if (
          pageRows > 0 &&
          gap - looseBelow(rows[rows.length - 1]) > Math.max(gapUnit(line) * 6, rowGap * 1.3) &&
          // Past a long run of notes under the last row only a product's row (a quantity or unit price, or labelled
          // figures about it where OCR lost those) goes on.
          (reachGap > gapUnit(line) * 6 || !pricedFigures(cells, [...detailsAbove, ...line.chunks], columns))
        ) {
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
        const details = [...detailsAbove, ...line.chunks.filter((c) => figureDetail(c, columns))];
        detailsAbove = [];
        const row: DraftRow = {
          page: line.page,
          cells,
          bottom: line.box.y1,
          ...(details.length > 0 ? { details } : {}),
        };
        const previous = rows[rows.length - 1];
        if (stacked) takeUpper(cells, upper);
        // Which text lines above are the row's: a bare row's name over its figures; under stacked rows, not the
        // lines hanging under the row above (all of them where the row has text of its own).
        if (rows.length === 0 && bare && between.length === 0) descriptionsBelow = true;
        const otherwise = pageRows === 0 ? "chain" : !bare ? "none" : stacked === true ? "all" : "nearest";
        const claims =
          !descriptionsBelow &&
          (bare ? stacked !== true || pageRows > 0 : stacked === true && pageRows > 0 && !codeOnly(description));
        const at = claims ? ownLinesFrom(between, linesFrom, line.box.y0, line.height, otherwise) : between.length;
        const giveBack = claims && stacked === true && pageRows > 0;
        const claimed =
          claims &&
          claimLinesAbove(row, pageRows > 0 ? previous : undefined, between, at, { giveBack, from: linesFrom });
        if (giveBack && bare && at > 0 && at < between.length) hangs = true;
        if (!stacked && !claimed) {
          if (pending.length > 0 && pageRows === 0 && line.box.y0 - pendingBottom < line.height * 2) {
            const own = cells.get("description") ?? [];
            cells.set("description", [...pending, ...own]);
          } else if (pageRows > 0 && previous !== undefined) {
            moveLeadingLines(previous, row, trailing.get(previous) ?? [], figuresBottom.get(previous), line);
          }
        }
        figuresBottom.set(row, line.box.y1);
        between = [];
        linesFrom = line.box.y1;
        pending = [];
        upper = new Map();
        upperBottom = null;
        if (pageRows > 0) rowGap = Math.max(rowGap, gap);
        rows.push(row);
        placed.push({ row, line });
        pageRows++;
        lastBottom = line.box.y1;
        reach = line.box.y1;
        continue;
      }
      // A row's description over its figures: one block of tight lines, the last one right above the figures. Before
      // the first row such lines are kept both ways (the first row decides), from then on only when stacked.
      const upperLine =
        stacked === true ? !inTable || pageRows === 0 || gap < line.height * 4 : inTable && gap < line.height * 3;
      const upperLineCells = stacked !== false && upperLine ? upperCells(cells) : null;
      if (upperLineCells !== null) {
        if (upperBottom === null || line.box.y0 - upperBottom > line.height * 1.1) upper = new Map();
        for (const [role, chunks] of upperLineCells) {
          if (period && role === "description") continue;
          for (const chunk of chunks) addChunk(upper, role, chunk);
        }
        upperBottom = line.box.y1;
        if (stacked === true) {
          if (inTable) lastBottom = line.box.y1;
          if (inTable) reach = line.box.y1;
          continue;
        }
      }
      // Where the table resumes without its header, a row's amount may still stand on the line under its figures.
      if (!inTable && !(p > pageIndex && rows.length > 0 && awaitsAmount(cells))) continue;
      if (awaitsAmount(cells)) {
        awaiting = { cells, top: line.box.y0, bottom: line.box.y1, reach };
        reach = line.box.y1;
        continue;
      }
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
      if (loose && current !== undefined && (noted.has(current) || keyValue(cells) || period)) {
        // Details under a row ("Packages: 4"): the lines kept aside before them are details too, not the start of
        // the next row's description. The table runs on past them.
        noted.add(current);
        trailing.set(
          current,
          after.filter((l) => !l.loose),
        );
        reach = line.box.y1;
        continue;
      }
      if (loose && current !== undefined) {
        after.push({ chunks: cells.get("description") ?? [], y0: line.box.y0, y1: line.box.y1, loose: true });
        trailing.set(current, after);
        reach = line.box.y1;
        continue;
      }
      // A line of the code column tight under a row (a GTIN under the article number), with or without text.
      if (
        current !== undefined &&
        pageRows > 0 &&
        gap < line.height * 1.1 &&
        lastLoose === undefined &&
        codeLine(cells)
      ) {
        if ((current.cells.get("productCode") ?? []).length === 0) {
          current.cells.set("productCode", [...(cells.get("productCode") ?? [])]);
        }
        const text = cells.get("description") ?? [];
        if (text.length > 0 && (noted.has(current) || detailLine(cells, current) || period)) noted.add(current);
        else if (text.length > 0) {
          for (const chunk of text) addChunk(current.cells, "description", chunk);
          current.bottom = line.box.y1;
          after.push({ chunks: text, y0: line.box.y0, y1: line.box.y1, loose: false });
          trailing.set(current, after);
        }
        lastBottom = line.box.y1;
        reach = line.box.y1;
        continue;
      }
      const wrapped = descriptionOnly(cells) || (pageRows > 0 && dateWrapped(cells));
      if (wrapped && gap < line.height * 1.1 && lastLoose === undefined) {
        if (pageRows > 0 && current !== undefined && (noted.has(current) || detailLine(cells, current) || period)) {
          // "Delivery date: ...", "Order no: ...", a service period: details under the description, and the lines
          // after them.
          noted.add(current);
        } else if (pageRows > 0 && current !== undefined) {
          for (const chunk of cells.get("description") ?? []) addChunk(current.cells, "description", chunk);
          for (const chunk of cells.get("date") ?? []) addChunk(current.cells, "date", chunk);
          current.bottom = line.box.y1;
          after.push({ chunks: cells.get("description") ?? [], y0: line.box.y0, y1: line.box.y1, loose: false });
          trailing.set(current, after);
        } else {
          pending.push(...(cells.get("description") ?? []));
          pendingBottom = line.box.y1;
        }
        lastBottom = line.box.y1;
        reach = line.box.y1;
        continue;
      }
      // A note between rows (delivery details, a discount's basis) printed tight under the table's last line.
      if (pageRows > 0 && reachGap < gapUnit(line) * 2.5) {
        reach = line.box.y1;
        // A row's own labelled figures tight under it ("(Net): 10,00"): the row ends there.
        if (cells.size === 0 && gap < line.height * 1.5) {
          lastBottom = line.box.y1;
          const current = rows[rows.length - 1];
          const details = line.chunks.filter((c) => figureDetail(c, columns));
          if (current !== undefined && details.length > 0) current.details = [...(current.details ?? []), ...details];
        }
        continue;
      }
      if (pageRows > 0) {
        // The upper line of a row printed as a block (a gross price over its figures) after a wider gap: the table
        // runs on there. Another line this far under the table ends it.
        if (rowInBlock(lines, i, columns, hints)) {
          reach = line.box.y1;
          detailsAbove = line.chunks.filter((c) => figureDetail(c, columns));
          continue;
        }
        if (reachGap > gapUnit(line) * 4) {
          pageEnd = footerOnly(lines, i) ? "page" : "gap";
          break;
        }
      }
    }
    const last = rows[rows.length - 1];
    if (hangs && pageRows > 0 && last !== undefined) hangUnder(last, hangingLines(between, linesFrom));
    // Where the page's header starts: the first one's line, a repeated one's, or none.
    const headerTop = p === pageIndex ? firstFrom : headerFrom >= 0 ? headerFrom : null;
    blockPages.push({ lines, headerTop, placed, columns });
    if (pageEnd === "table") continuing = false;
    // A table that stopped at a wide gap goes on only at a repeated header on the next page.
    const next = pages[p + 1] ?? [];
    if (pageEnd === "gap") continuing = next.some((_, i) => headerAt(next, i) !== null);
    if (!headerSeen && pageRows === 0 && p > pageIndex) continuing = false;
  }
  for (const row of rows) leadingCodes(row.cells);
  for (const { lines, headerTop, placed, columns } of blockPages) {
    // A service period the reading left out of a row stays out.
    regroupByBlocks(lines, headerTop, placed, (l) => {
      const cells = lineCells(l, columns, hints);
      return periodLine(cells, hints) ? [] : (cells.get("description") ?? []);
    });
  }
  for (const row of rows) {
    const description = row.cells.get("description");
    if (description !== undefined) row.cells.set("description", withoutDetails(description));
  }
  return rows.length === 0 ? null : { header: first, rows };
}

/**
 * A "Key: value" line under a row's description, a detail of the row ("Lieferdatum: 01.09.2013") unless the
 * description's last line broke a word there ("Unsere Art.-" over "Nr.: TB100A4").
 */
function detailLine(cells: ReadonlyMap<ColumnRole, Chunk[]>, row: DraftRow): boolean {
  return keyValue(cells) && !brokenAtHyphen(cellText(row.cells, "description"));
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

/** Whether a header repeats the first one's columns: it names the amount and two more of its roles. */
function sameTable(first: Header, other: Header): boolean {
  const roles = new Set(first.columns.map((c) => c.role));
  const shared = other.columns.filter((c) => roles.has(c.role)).length;
  return shared >= Math.min(3, roles.size) && other.columns.some((c) => c.role === "amount");
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
