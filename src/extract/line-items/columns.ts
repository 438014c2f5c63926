/**
 * The header line of a table and the columns it defines: header words matched to roles, each role's x-range, and the
 * choice of column for a chunk of a data line (text by overlap, numbers by alignment: left, right or centre).
 */
import type { Box, Word } from "../../document/model.js";
import type { LocaleHints } from "../normalise/locale.js";
import { isNumeric, moneyCell } from "./cells.js";
import { type ColumnRole, MAX_PHRASE_WORDS, rolesOf } from "./headers.js";
import { boxOf, type Chunk, type VisualLine } from "./lines.js";

export interface Column {
  role: ColumnRole;
  /** The header cell's extent (x ratios). */
  x0: number;
  x1: number;
  headerWords: Word[];
}

export interface Header {
  line: VisualLine;
  columns: Column[];
}

const NUMERIC_ROLES: ReadonlySet<ColumnRole> = new Set(["quantity", "unitPrice", "amount", "taxRate", "position"]);

interface Match {
  roles: readonly ColumnRole[] | ColumnRole[];
  /** Words matched, left to right. */
  words: Word[];
}

/** Greedy longest-phrase matching of a line's words against the header vocabulary. */
function matchPhrases(line: VisualLine): { matches: Match[]; unmatched: number } {
  const words = line.words;
  const folded = line.chunks.flatMap((c) => c.folded);
  const matches: Match[] = [];
  let unmatched = 0;
  let i = 0;
  while (i < words.length) {
    let found: Match | null = null;
    for (let n = Math.min(MAX_PHRASE_WORDS, words.length - i); n >= 1 && found === null; n--) {
      const phrase = folded
        .slice(i, i + n)
        .filter((w) => w !== "")
        .join(" ");
      const roles = rolesOf(phrase);
      if (roles.length > 0) found = { roles, words: words.slice(i, i + n) };
    }
    if (found === null) {
      if ((folded[i] ?? "") !== "") unmatched++;
      i++;
    } else {
      matches.push(found);
      i += found.words.length;
    }
  }
  return { matches, unmatched };
}

/** Roles a header line printed above or below may give a cell of the main header line ("Unit price" over "excl. VAT"). */
const BAND_ROLES: ReadonlySet<ColumnRole> = new Set(["unitPrice", "amount", "quantity", "description"]);

/**
 * A header printed over two or three lines: a cell of the main line takes the role of a phrase on a line just above
 * or below it that overlaps it, when that role is one of BAND_ROLES and not named on the main line.
 */
function applyBand(matches: Match[], neighbours: readonly VisualLine[]): void {
  const named = new Set(matches.flatMap((m) => m.roles));
  for (const line of neighbours) {
    for (const other of matchPhrases(line).matches) {
      const role = other.roles[0];
      if (role === undefined || !BAND_ROLES.has(role) || named.has(role)) continue;
      // The phrase's whole header cell ("Unit Price Excl."): the chunk it sits in.
      const cell = line.chunks.find((c) => c.words.includes(other.words[0] as Word));
      const ob = boxOf(cell?.words ?? other.words);
      const target = matches.find((m) => {
        const b = boxOf(m.words);
        return overlap(b.x0, b.x1, ob.x0, ob.x1) > 0;
      });
      if (target === undefined) continue;
      target.roles = [role];
      named.add(role);
    }
  }
}

/** Assigns each matched header cell one role, left to right, preferring roles not yet taken. */
function assignRoles(matches: readonly Match[]): Column[] {
  const taken = new Set<ColumnRole>();
  const columns: Column[] = [];
  matches.forEach((match, i) => {
    let role = match.roles.find((r) => !taken.has(r));
    // A second cell of a taken role is a qualifier ("Amount excl. VAT"), not a column; two prices are handled below.
    if (role === undefined && match.roles[0] === "unitPrice") role = "unitPrice";
    if (role === undefined) return;
    // "Artikel" names a code column when a description column follows it.
    if (match.roles.includes("productCode") && matches.slice(i + 1).some((m) => m.roles.includes("description"))) {
      role = "productCode";
    }
    taken.add(role);
    const box = boxOf(match.words);
    columns.push({ role, x0: box.x0, x1: box.x1, headerWords: match.words });
  });
  // Two columns of one role (a repeated "Price"): the left one is the unit price, the right one the amount.
  const prices = columns.filter((c) => c.role === "unitPrice");
  if (prices.length === 2 && !columns.some((c) => c.role === "amount")) {
    const right = prices[1];
    if (right !== undefined) right.role = "amount";
  }
  // Without an amount column the rightmost money column is the amount ("Price" as the last header).
  if (!columns.some((c) => c.role === "amount")) {
    const money = columns.filter((c) => c.role === "unitPrice");
    const last = money[money.length - 1];
    if (last !== undefined) last.role = "amount";
  }
  return columns;
}

/**
 * The line as a table header, or null: two or more roles incl. an amount, and few other words. `neighbours` are the
 * lines just above and below it (a header printed over several lines).
 */
export function readHeader(line: VisualLine, neighbours: readonly VisualLine[] = []): Header | null {
  if (line.words.length > 16) return null;
  const { matches, unmatched } = matchPhrases(line);
  if (matches.length < 2 || unmatched > Math.max(2, matches.length / 2)) return null;
  applyBand(matches, neighbours);
  const columns = assignRoles(matches);
  const roles = new Set(columns.map((c) => c.role));
  if (!roles.has("amount")) return null;
  if (!roles.has("description") && !roles.has("quantity") && !roles.has("unitPrice")) return null;
  if (roles.size < 2) return null;
  // Header cells read left to right without overlaps.
  columns.sort((a, b) => a.x0 - b.x0);
  // A description header misread or left blank: the text left of the first column is still the description.
  const first = columns[0];
  if (!roles.has("description") && first !== undefined && first.x0 > 0.2) {
    columns.unshift({
      role: "description",
      x0: Math.max(0, line.box.x0 - 0.02),
      x1: Math.min(first.x0 - 0.05, line.box.x0 + 0.1),
      headerWords: [],
    });
  }
  return { line, columns };
}

function intervalGap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.max(a0, b0) - Math.min(a1, b1));
}

function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
}

/** How far a box is from a column under any of the three alignments, or 0 when they overlap. */
function alignment(box: Box, column: Column): number {
  if (overlap(box.x0, box.x1, column.x0, column.x1) > 0) return 0;
  return Math.min(
    Math.abs(box.x1 - column.x1),
    Math.abs(box.x0 - column.x0),
    Math.abs((box.x0 + box.x1) / 2 - (column.x0 + column.x1) / 2),
    intervalGap(box.x0, box.x1, column.x0, column.x1),
  );
}

/**
 * The column of a data chunk. Numbers go to the numeric column they align with best (a number left of every numeric
 * column by more than its header's width stays in the description); text goes to a text column it overlaps, else the
 * description. `amountRight` is where the amounts seen so far end (their alignment is the table's strongest cue).
 */
export function columnOf(chunk: Chunk, columns: readonly Column[], hints: LocaleHints): Column | null {
  const numeric = isNumeric(chunk.text, hints);
  if (numeric) {
    // "3 Stk" is a quantity with its unit; "4 Eisvogel" under a position column is a numbered description.
    const candidates =
      /^\d[\d.,]*\s*\p{L}/u.test(chunk.text) && moneyCell(chunk.text, hints) === null
        ? columns.filter((c) => c.role === "quantity")
        : columns.filter((c) => NUMERIC_ROLES.has(c.role) || c.role === "date");
    let best: Column | null = null;
    let bestScore = Number.POSITIVE_INFINITY;
    for (const c of candidates) {
      const score = alignment(chunk.box, c);
      if (score < bestScore) {
        bestScore = score;
        best = c;
      }
    }
    if (best !== null) {
      const width = Math.max(best.x1 - best.x0, 0.03);
      if (bestScore <= Math.max(width * 1.5, 0.06)) return best;
    }
    // The running-number column sits left of the description: the numeric columns start right of it.
    const firstNumeric = Math.min(...candidates.filter((c) => c.role !== "position").map((c) => c.x0));
    // Without a quantity header, a bare count left of the price columns is the quantity.
    const description = columns.find((c) => c.role === "description");
    if (
      !columns.some((c) => c.role === "quantity") &&
      /^\d{1,4}(?:[.,]\d{1,3})?$/.test(chunk.text) &&
      chunk.box.x1 < firstNumeric &&
      chunk.box.x0 > (description?.x1 ?? 0) + 0.15
    ) {
      return { role: "quantity", x0: chunk.box.x0, x1: chunk.box.x1, headerWords: [] };
    }
    // A number among the numeric columns that fits none of them sits under a header cell not understood: dropped.
    if (chunk.box.x0 > firstNumeric - 0.08) return null;
    return description ?? null;
  }
  let best: Column | null = null;
  let bestOverlap = 0;
  for (const c of columns) {
    if (NUMERIC_ROLES.has(c.role) || c.role === "description") continue;
    const o = overlap(chunk.box.x0, chunk.box.x1, c.x0, c.x1);
    if (o > bestOverlap) {
      bestOverlap = o;
      best = c;
    }
  }
  if (best !== null) return best;
  // An article number under "No." / "Pos." is the row's product code.
  const position = columns.find((c) => c.role === "position");
  if (
    position !== undefined &&
    chunk.words.length === 1 &&
    /\d/.test(chunk.text) &&
    overlap(chunk.box.x0, chunk.box.x1, position.x0, position.x1) > 0
  ) {
    return { ...position, role: "productCode" };
  }
  // A short mark beside a number (a currency, a unit, "%") belongs to the numeric column it sits in.
  if (chunk.text.length <= 5) {
    for (const c of columns) {
      if (NUMERIC_ROLES.has(c.role) && overlap(chunk.box.x0, chunk.box.x1, c.x0, c.x1) > 0) return c;
    }
  }
  // Any other text is description.
  return columns.find((c) => c.role === "description") ?? null;
}
