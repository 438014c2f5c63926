/**
 * The header line of a table and the columns it defines: header words matched to roles, each role's x-range, and the
 * choice of column for a chunk of a data line (text by overlap, numbers by alignment: left, right or centre).
 */
import type { Box, Word } from "../../document/model.js";
import type { LocaleHints } from "../normalise/locale.js";
import { isNumeric, isPercent, isRateWithCategory, moneyCell } from "./cells.js";
import { foldWord } from "./fold.js";
import { type ColumnRole, headerWordOf, isQualifier, isTaxLead, MAX_PHRASE_WORDS, rolesOf } from "./headers.js";
import { boxOf, type Chunk, type VisualLine } from "./lines.js";

export interface Column {
  role: ColumnRole;
  /** The header cell's extent (x ratios). */
  x0: number;
  x1: number;
  headerWords: Word[];
  /** An amount no header word names: the rightmost money column taken for it (arithmetic-columns.ts checks it). */
  guessed?: boolean;
  /** An amount column no header cell stands over, placed where quantity x unit price falls on the rows. */
  fromRows?: boolean;
  /** A cell naming the amount read as the quantity, as the rows' arithmetic says (arithmetic-columns.ts). */
  countedAmount?: boolean;
}

export interface Header {
  line: VisualLine;
  columns: Column[];
  /**
   * A second cell naming the amount right of the amount column ("Amount | Product | Price | Total") where no cell
   * names the quantity: the left one may count the items (arithmetic-columns.ts checks it on the rows).
   */
  laterAmount?: Column;
}

/** A size glued to its number: millilitres to kilograms, millimetres to metres. */
const MEASURE = /^\d+(?:[.,]\d+)?(?:ml|cl|dl|l|mg|g|kg|mm|cm|m)$/i;

const NUMERIC_ROLES: ReadonlySet<ColumnRole> = new Set(["quantity", "unitPrice", "amount", "taxRate", "position"]);

interface Match {
  roles: readonly ColumnRole[] | ColumnRole[];
  /** Words matched, left to right. */
  words: Word[];
}

/**
 * Greedy longest-phrase matching of a line's words against the header vocabulary; `fuzzy`: OCR'd words read as the
 * header words they are misreadings of (headers.ts headerWordOf), phrases of several words included.
 */
function matchPhrases(line: VisualLine, fuzzy = false): { matches: Match[]; unmatched: number } {
  const words = line.words;
  const folded = line.chunks.flatMap((c) =>
    fuzzy
      ? c.folded.map((f, k) => (f !== "" && c.words[k]?.source === "ocr" ? headerWordOf(f, c.words[k]?.text ?? "") : f))
      : c.folded,
  );
  const cellOf = line.chunks.flatMap((c, k) => c.words.map(() => k));
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
    // "Rate net", "Total net": a qualifying word right after a phrase of the same cell names no column of its own.
    const previous = matches[matches.length - 1];
    // A cell ending in a tax lead ("Amount excl.") goes on in the next chunk: OCR set "VAT" apart.
    const dangling =
      i > 0 && cellOf[i - 1] !== cellOf[i] && previous?.words[previous.words.length - 1] === words[i - 1];
    // "excl. VAT", "sin IVA" in a price cell qualify it: no tax-rate column.
    const taxQualifier =
      found?.roles.includes("taxRate") === true &&
      i > 0 &&
      (cellOf[i - 1] === cellOf[i] || dangling) &&
      isTaxLead(folded[i - 1] ?? "");
    const qualifier =
      found?.words.length === 1 &&
      isQualifier(folded[i] ?? "") &&
      previous !== undefined &&
      previous.words[previous.words.length - 1] === words[i - 1] &&
      cellOf[i - 1] === cellOf[i];
    // A qualifier widens the cell it qualifies: the column runs under "Totaal excl. BTW", not only "Totaal".
    const widen = (n: number): void => {
      const last = previous?.words[previous.words.length - 1];
      const at = last === undefined ? -1 : words.indexOf(last);
      if (previous !== undefined && at >= 0 && (cellOf[at] === cellOf[i] || (taxQualifier && dangling))) {
        previous.words.push(...words.slice(i, i + n));
      }
    };
    if (found !== null && (taxQualifier || qualifier)) {
      widen(found.words.length);
      i += found.words.length;
      continue;
    }
    if (found === null) {
      const word = folded[i] ?? "";
      if (word !== "" && !isQualifier(word)) unmatched++;
      else widen(1);
      i++;
    } else {
      matches.push(found);
      i += found.words.length;
    }
  }
  return { matches, unmatched };
}

/**
 * matchPhrases, and on a scan where some words are not understood and one is, again with the OCR'd words read as the
 * header words they may be misreadings of ("Kuanti" beside "Harga seunit").
 */
function matchLine(line: VisualLine): { matches: Match[]; unmatched: number } {
  const exact = matchPhrases(line);
  if (exact.unmatched === 0 || exact.matches.length === 0 || !line.words.some((w) => w.source === "ocr")) return exact;
  // A line with figures is a row, not a header; nor is a line of text with a header word among many others.
  if (exact.unmatched > 2 * exact.matches.length + 3) return exact;
  if (line.words.some((w) => /^\P{L}*\d\P{L}*$/u.test(w.text))) return exact;
  const fuzzy = matchPhrases(line, true);
  return fuzzy.unmatched < exact.unmatched ? fuzzy : exact;
}

/** Whether a line holds figures: a table's row, no line of its header. */
function hasFigures(line: VisualLine): boolean {
  return line.words.some((w) => /\d/.test(w.text));
}

/** Roles a header line printed above or below may give a cell of the main header line ("Unit price" over "excl. VAT"). */
const BAND_ROLES: ReadonlySet<ColumnRole> = new Set(["unitPrice", "amount", "quantity", "description"]);

/**
 * A header printed over two or three lines: a cell of the main line takes the role of a phrase on a line just above
 * or below it that overlaps it, when that role is one of BAND_ROLES and not named on the main line. A line with
 * figures is a row, no part of the header ("Design (hours)" under "Product" names no quantity).
 */
function applyBand(matches: Match[], neighbours: readonly VisualLine[]): void {
  const named = new Set(matches.flatMap((m) => m.roles));
  for (const line of neighbours) {
    if (hasFigures(line)) continue;
    for (const other of matchLine(line).matches) {
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
function assignRoles(matches: readonly Match[]): { columns: Column[]; laterAmount?: Column } {
  const taken = new Set<ColumnRole>();
  const columns: Column[] = [];
  const counted = matches.some((m) => m.roles.includes("quantity"));
  let laterAmount: Column | undefined;
  // A word of two roles ("Bil." a count or a running number) leaves to another cell the role only that cell names.
  const sole = new Set(matches.filter((m) => m.roles.length === 1).map((m) => m.roles[0]));
  matches.forEach((match, i) => {
    let role =
      match.roles.length > 1
        ? (match.roles.find((r) => !taken.has(r) && !sole.has(r)) ?? match.roles.find((r) => !taken.has(r)))
        : match.roles.find((r) => !taken.has(r));
    // A second cell of a taken role is a qualifier ("Amount excl. VAT"), not a column; two prices are handled below.
    if (role === undefined && match.roles[0] === "unitPrice") role = "unitPrice";
    if (role === undefined && !counted && laterAmount === undefined && match.roles.includes("amount")) {
      const box = boxOf(match.words);
      laterAmount = { role: "amount", x0: box.x0, x1: box.x1, headerWords: match.words };
    }
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
    if (last !== undefined) {
      last.role = "amount";
      last.guessed = true;
    }
  }
  return laterAmount === undefined ? { columns } : { columns, laterAmount };
}

/**
 * The line as a table header, or null: two or more roles incl. an amount, and few other words. `neighbours` are the
 * lines just above and below it (a header printed over several lines).
 */
export function readHeader(
  line: VisualLine,
  neighbours: readonly VisualLine[] = [],
  stacked: ReadonlySet<Chunk> = new Set(),
): Header | null {
  if (line.words.length > 16) return null;
  // A header OCR misread ("Descripci6n", "Kuanti"): its other words read as the header words they may stand for.
  let { matches, unmatched } = matchLine(line);
  // A cell stacked over two lines is one column: its first phrase names it ("Unit price" over "excl. VAT").
  if (stacked.size > 0) matches = firstPerCell(matches, stacked);
  if (matches.length < 2) return null;
  // Few words the vocabulary does not know; a header naming four columns or more may have as many ("GTIN",
  // "VKE/Geb", "Art-Nr-Lieferant" beside "Menge  Nettopreis  MwSt-%  Nettowert").
  if (unmatched > Math.max(2, matches.length / 2) && (matches.length < 4 || unmatched > matches.length)) return null;
  applyBand(matches, neighbours);
  const { columns, laterAmount } = assignRoles(matches);
  const roles = new Set(columns.map((c) => c.role));
  if (!roles.has("amount")) return null;
  if (!roles.has("description") && !roles.has("quantity") && !roles.has("unitPrice")) return null;
  if (roles.size < 2) return null;
  // Header cells read left to right without overlaps.
  columns.sort((a, b) => a.x0 - b.x0);
  // A description header misread or left blank: the text left of the first value column is still the description.
  if (!roles.has("description")) {
    const lead = columns.filter((c) => c.role === "position" || c.role === "productCode" || c.role === "date");
    const firstValue = columns.find((c) => !lead.includes(c));
    const after = lead.filter((c) => firstValue === undefined || c.x1 < firstValue.x0);
    // From the page's left edge (the header line may start at its first value column) or the lead columns' end.
    const from = after.length > 0 ? Math.max(...after.map((c) => c.x1)) + 0.01 : 0;
    if (firstValue !== undefined && firstValue.x0 - from > 0.12) {
      columns.push({ role: "description", x0: from, x1: firstValue.x0 - 0.05, headerWords: [] });
      columns.sort((a, b) => a.x0 - b.x0);
    }
  }
  return laterAmount === undefined ? { line, columns } : { line, columns, laterAmount };
}

function intervalGap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.max(a0, b0) - Math.min(a1, b1));
}

export function overlap(a0: number, a1: number, b0: number, b1: number): number {
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
  // A rate ("21%") among the figures where OCR lost the tax-rate column's header: that column, not the amount's.
  const figures = columns.filter((c) => NUMERIC_ROLES.has(c.role) && c.role !== "position");
  if (
    isPercent(chunk.text) &&
    figures.length > 0 &&
    !columns.some((c) => c.role === "taxRate") &&
    chunk.box.x0 >= Math.min(...figures.map((c) => c.x0))
  ) {
    return { role: "taxRate", x0: chunk.box.x0, x1: chunk.box.x1, headerWords: [] };
  }
  if (numeric) {
    // A long run of digits is an article number or GTIN, no figure.
    const code = columns.find((c) => c.role === "productCode");
    if (
      code !== undefined &&
      /^\d{8,}$/.test(chunk.text) &&
      overlap(chunk.box.x0, chunk.box.x1, code.x0, code.x1) > 0
    ) {
      return code;
    }
    // A measure glued to its number ("100ml", "250g") under the description's title and clear of the quantity's is
    // the product's size, part of its name, not a quantity.
    const description = columns.find((c) => c.role === "description");
    const quantity = columns.find((c) => c.role === "quantity");
    if (
      description !== undefined &&
      MEASURE.test(chunk.text) &&
      overlap(chunk.box.x0, chunk.box.x1, description.x0, description.x1) > 0 &&
      (quantity === undefined || overlap(chunk.box.x0, chunk.box.x1, quantity.x0, quantity.x1) === 0)
    ) {
      return description;
    }
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
    // An article number or GTIN under the code column.
    if (code !== undefined && overlap(chunk.box.x0, chunk.box.x1, code.x0, code.x1) > 0) return code;
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
  // A unit word ("Stk", "kg", "h") standing alone among the figures, where OCR lost the unit column's header or
  // read it narrower than its values: the unit, not the end of the description.
  if (
    figures.length > 0 &&
    chunk.words.length === 1 &&
    /^\p{L}{1,4}\.?$/u.test(chunk.text) &&
    !/^[xX×]$/.test(chunk.text) &&
    chunk.box.x0 >= Math.min(...figures.map((c) => c.x0))
  ) {
    return (
      columns.find((c) => c.role === "unit") ?? { role: "unit", x0: chunk.box.x0, x1: chunk.box.x1, headerWords: [] }
    );
  }
  // A rate with its category ("19 % VAT (S)") over the tax-rate column is that column's.
  const rate = columns.find((c) => c.role === "taxRate");
  if (
    rate !== undefined &&
    isRateWithCategory(chunk.text) &&
    overlap(chunk.box.x0, chunk.box.x1, rate.x0, rate.x1) > 0
  ) {
    return rate;
  }
  // A figure with marks beside it ("-1,00 (RE)") among the figure columns right of the description, under a header
  // cell not understood: no cell of the row, and no text of its description.
  const description = columns.find((c) => c.role === "description");
  if (description === undefined) return null;
  const right = figures.filter((c) => c.x0 > description.x1);
  if (right.length > 0 && figureWithMarks(chunk.text) && chunk.box.x0 >= Math.min(...right.map((c) => c.x0)))
    return null;
  // Any other text is description.
  return description;
}

/** A figure with marks beside it and no word: "-1,00 (RE)", "1,00 (CH)", "@ 12.00". */
function figureWithMarks(text: string): boolean {
  return /^[^\p{L}]*\d/u.test(text) && (text.match(/\p{L}/gu) ?? []).length <= 3;
}

function firstPerCell(matches: readonly Match[], stacked: ReadonlySet<Chunk>): Match[] {
  const seen = new Set<Chunk>();
  return matches.filter((m) => {
    const cell = [...stacked].find((c) => c.words.includes(m.words[0] as Word));
    if (cell === undefined) return true;
    if (seen.has(cell)) return false;
    seen.add(cell);
    return true;
  });
}

/** Whether a line may be one line of a header printed over two: header words, few others, no figures. */
function headerBandLine(line: VisualLine): boolean {
  if (line.words.length > 16 || hasFigures(line)) return false;
  const { matches, unmatched } = matchLine(line);
  return matches.length >= 1 && unmatched <= matches.length + 1;
}

/**
 * Whether `lower` is only the rest of figure columns' header cells wrapped under `upper`: a word or two of letters
 * under each, every one under a cell that names a figure column and makes with it a header phrase of that column
 * ("Prix" over "unitaire"), none under the description.
 */
function figureCellTail(upper: VisualLine, lower: VisualLine): boolean {
  if (lower.words.length > 4 || lower.words.some((w) => !/^\p{L}[\p{L}.'’-]*$/u.test(w.text))) return false;
  const figure = (words: readonly string[]): ColumnRole[] =>
    phraseRoles(words).filter(
      (role) => role === "unitPrice" || role === "amount" || role === "quantity" || role === "taxRate",
    );
  return lower.chunks.every((chunk) => {
    const over = upper.chunks.filter((c) => overlap(c.box.x0, c.box.x1, chunk.box.x0, chunk.box.x1) > 0);
    const cell = over.length === 1 ? over[0] : undefined;
    if (cell === undefined) return false;
    const roles = figure(cell.folded);
    return figure([...cell.folded, ...chunk.folded]).some((role) => roles.includes(role));
  });
}

/** Header cells of two lines merged where they overlap: "Unit" over "price" is one cell "Unit price". */
function mergeBand(upper: VisualLine, lower: VisualLine): { line: VisualLine; stacked: Set<Chunk> } {
  const stacked = new Set<Chunk>();
  // Each lower word joins the upper cell it shares a third of the narrower's width with; lower words under no upper cell stay in their own chunk.
  const under = new Map<Chunk, Word[]>();
  const alone = new Map<Chunk, Word[]>();
  for (const chunk of lower.chunks) {
    const narrower = (c: Chunk, box: Box): number => Math.min(c.box.x1 - c.box.x0, box.x1 - box.x0);
    const overlaps = (box: Box) => (c: Chunk) => overlap(c.box.x0, c.box.x1, box.x0, box.x1) > 0.3 * narrower(c, box);
    // A lower cell under one upper cell joins it whole ("eenheid excl. BTW" under "Prijs per", wider than it).
    const cells = upper.chunks.filter(overlaps(chunk.box));
    const only = cells.length === 1 ? cells[0] : undefined;
    // Unless it is not aligned with that cell and a word of it outside the cell names a column ("(unit) Butiran"
    // under "Kuantiti").
    const names = (word: Word): boolean =>
      !overlaps(word.box)(only as Chunk) && rolesOf(foldWord(word.text)).length > 0;
    const aligned = (c: Chunk): boolean =>
      Math.abs(c.box.x0 - chunk.box.x0) < 0.005 || Math.abs(c.box.x1 - chunk.box.x1) < 0.005;
    if (only !== undefined && (aligned(only) || !chunk.words.some(names))) {
      under.set(only, [...(under.get(only) ?? []), ...chunk.words]);
      continue;
    }
    for (const word of chunk.words) {
      const cell = upper.chunks.find(overlaps(word.box));
      if (cell !== undefined) under.set(cell, [...(under.get(cell) ?? []), word]);
      else alone.set(chunk, [...(alone.get(chunk) ?? []), word]);
    }
  }
  const chunks: Chunk[] = [];
  for (const words of alone.values()) {
    chunks.push({
      words,
      text: words.map((w) => w.text).join(" "),
      folded: words.map((w) => foldWord(w.text)),
      box: boxOf(words),
    });
  }
  for (const cell of upper.chunks) {
    const below = under.get(cell) ?? [];
    if (below.length === 0) {
      chunks.push(cell);
      continue;
    }
    const words = [...cell.words, ...below];
    const folded = words.map((w) => foldWord(w.text));
    // A word broken at a hyphen over the two lines ("Einzel-" over "preis") is read whole.
    const at = cell.words.length - 1;
    if (/-$/.test(cell.words[at]?.text ?? "")) folded.splice(at, 2, `${folded[at] ?? ""}${folded[at + 1] ?? ""}`, "");
    const merged: Chunk = { words, text: words.map((w) => w.text).join(" "), folded, box: boxOf(words) };
    stacked.add(merged);
    chunks.push(merged);
  }
  chunks.sort((a, b) => a.box.x0 - b.box.x0);
  const words = chunks.flatMap((c) => c.words);
  const line: VisualLine = {
    page: lower.page,
    index: lower.index,
    words,
    chunks,
    box: boxOf([upper, lower].map((l) => ({ box: l.box }))),
    height: lower.height,
  };
  return { line, stacked };
}

/**
 * The header at a line, read with its neighbours: a header printed over two lines (stacked cells) is read as the two
 * lines merged (the header then ends at the lower line); else the line alone, its neighbours naming a cell's role.
 */
export function readHeaderBand(line: VisualLine, above: VisualLine | null, below: VisualLine | null): Header | null {
  const single = readHeader(
    line,
    [above, below].filter((l): l is VisualLine => l !== null),
  );
  // The line and the one below it; else the one above it and the line: where none is below, or where the line below
  // is a row and the line is a header by itself (read again with the cells over it: "Tax" over "rate").
  const pairs: [VisualLine | null, VisualLine | null][] = [
    [line, below],
    [below === null || single !== null ? above : null, line],
  ];
  const pair = pairs.find(
    (p): p is [VisualLine, VisualLine] =>
      p[0] !== null && p[1] !== null && headerBandLine(p[0]) && (headerBandLine(p[1]) || figureCellTail(p[0], p[1])),
  );
  if (pair === undefined) return single;
  const band = mergeBand(pair[0], pair[1]);
  const merged = readHeader(band.line, [], band.stacked);
  if (merged === null) return single;
  if (single === null || merged.columns.length > single.columns.length) return merged;
  if (merged.columns.length < single.columns.length) return single;
  // A line under a header complete by itself that names no more columns, and whose words neither name a cell nor
  // complete the one over them, is the first row's text ("Consulting services" under "Service"), not the header's
  // lower line ("unitaire" under "Prix").
  return pair[1] === below && !completesCells(line, below) ? single : merged;
}

/** Whether each chunk of `lower` holds header words only, or completes a header phrase with the cell over it. */
function completesCells(upper: VisualLine, lower: VisualLine): boolean {
  return lower.chunks.every((chunk) => {
    if (chunk.folded.every((w) => w === "" || isQualifier(w) || isTaxLead(w) || rolesOf(w).length > 0)) return true;
    const over = upper.chunks.filter((c) => overlap(c.box.x0, c.box.x1, chunk.box.x0, chunk.box.x1) > 0);
    return over.some((c) => phraseRoles([...c.folded, ...chunk.folded]).length > 0);
  });
}

/** The roles the folded words of two header lines' cells name as one phrase ("prix" + "unitaire"). */
function phraseRoles(words: readonly string[]): readonly ColumnRole[] {
  return rolesOf(words.filter((w) => w !== "").join(" "));
}

/**
 * Whether `line`, right under a line of the header (`above`), continues a stack of header text that names no column
 * ("Art-Nr-Kunde", "Art-Nr" over "(Art)" beside "Pos"): a few words, no figure, each chunk starting where such a cell
 * of the line above starts and standing under no column's title.
 */
export function headerStackTail(line: VisualLine, above: VisualLine, columns: readonly Column[]): boolean {
  if (line.words.length > 3 || hasFigures(line)) return false;
  const titles = new Set(columns.flatMap((c) => c.headerWords));
  return line.chunks.every((chunk) => {
    if (columns.some((c) => overlap(chunk.box.x0, chunk.box.x1, c.x0, c.x1) > 0)) return false;
    return above.chunks.some(
      (cell) => Math.abs(cell.box.x0 - chunk.box.x0) < 0.005 && !cell.words.some((w) => titles.has(w)),
    );
  });
}
