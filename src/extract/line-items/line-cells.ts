/**
 * What a line of a table holds, read against the header's columns: its cells, whether it ends the table or a page of
 * it, is a note, a code or "Key: value" detail line, the upper lines of a stacked row or a row whose amount stands on
 * the line under it. Pure functions of one line (or a line and its neighbours); table.ts reads the rows with them.
 */

import type { Word } from "../../document/model.js";
import { parseCurrency } from "../normalise/currency.js";
import { parseDate } from "../normalise/date.js";
import type { LocaleHints } from "../normalise/locale.js";
import { PERIOD_TITLES, TAX_NOUNS } from "../vocabulary/table-headers.js";
import { moneyCell, priceCell, quantityCell } from "./cells.js";
import { type Column, columnOf, overlap } from "./columns.js";
import { addChunk, brokenAtHyphen, cellText } from "./draft.js";
import { foldWord } from "./fold.js";
import { type ColumnRole, rolesOf, startsWithStop } from "./headers.js";
import { boxOf, type Chunk, type VisualLine } from "./lines.js";

/** Stop lines that end a page of the table, not the table: carried and brought forward, page totals, continuation notes. */
const PAGE_STOP =
  /\b(carried|brought|ubertrag|fortsetzung|continued|reporter|report|suite|sigue|anterior|continua|transport|transporte|riporto|dibawa|page|seitensumme|seite|pagina|halaman)\b/;

export function lineCells(line: VisualLine, columns: readonly Column[], hints: LocaleHints): Map<ColumnRole, Chunk[]> {
  const cells = new Map<ColumnRole, Chunk[]>();
  const chunks = line.chunks
    .flatMap((c) => splitLeadingNumber(c, columns))
    .flatMap((c) => splitFigures(c, columns, hints));
  for (const chunk of chunks) {
    const column = chunks.length === 1 ? loneColumn(chunk, columns, hints) : columnOf(chunk, columns, hints);
    // A labelled figure among the figures is a detail, under the description's title or a unit's it overlaps.
    const text = column?.role === "description" || column?.role === "unit";
    if (column === null || (text && figureDetail(chunk, columns))) continue;
    // A currency sign wrapped under its amount ("7 317,92" over "€") is no cell of the line; "(EUR)" is a header's.
    const money = column.role === "amount" || column.role === "unitPrice";
    if (money && !/[()]/.test(chunk.text) && currencyMark(chunk.text, hints)) continue;
    addChunk(cells, column.role, chunk);
  }
  return cells;
}

/**
 * The column of a line's only chunk: a number under the description's header that reaches no figure column is a
 * line of the description wrapped in its cell ("GTIN:" over "4012345001235", "- 2,00" over "Euro je"), no row's
 * figure.
 */
function loneColumn(chunk: Chunk, columns: readonly Column[], hints: LocaleHints): Column | null {
  const column = columnOf(chunk, columns, hints);
  const description = columns.find((c) => c.role === "description");
  if (column === null || description === undefined || !FIGURE_ROLES.has(column.role)) return column;
  const over = (c: Column): boolean => overlap(chunk.box.x0, chunk.box.x1, c.x0, c.x1) > 0;
  return over(description) && !over(column) ? description : column;
}

/**
 * A labelled figure printed among the figure columns, apart from the description: "(Brut: 60,00)", "(Rabais: 0,00)",
 * "Net: 10,00" over, beside or under a row's figures (a gross price and its discount over the net one). A detail of
 * those figures, not text of the row's description; the row's own figures stand in their columns.
 */
export function figureDetail(chunk: Chunk, columns: readonly Column[]): boolean {
  // Its brackets as OCR may read them too ("{Net}: 60,00", "@escuento: 11,22)").
  if (!/^[({@]?\p{L}[\p{L}.\s-]{0,24}[)}]?\s*:\s*\(?[-+]?\d[\d.,\s]*%?\)?$/u.test(chunk.text)) return false;
  const figures = columns.filter((c) => FIGURE_ROLES.has(c.role));
  const centre = (chunk.box.x0 + chunk.box.x1) / 2;
  // Not under the amounts: "Netto: 1.234,00" there is a total.
  const amount = columns.find((c) => c.role === "amount");
  if (amount !== undefined && chunk.box.x1 > amount.x0) return false;
  if (figures.length === 0) return false;
  // Centred among the figure columns, or set right against one of them and running left past its header (a long
  // label beside a row's name on the same line).
  return (
    centre >= Math.min(...figures.map((c) => c.x0)) ||
    figures.some((c) => chunk.box.x1 > c.x0 && chunk.box.x1 <= c.x1 + (c.x1 - c.x0) * 0.1)
  );
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

/** The folded words of the text chunk right before the line's last number: a total's label printed beside it. */
function labelBeforeAmount(line: VisualLine, hints: LocaleHints): string[] {
  const last = line.chunks.findLastIndex((c) => moneyCell(c.text, hints) !== null);
  const label = line.chunks[last - 1];
  return label === undefined || !/\p{L}/u.test(label.text) ? [] : label.folded.filter((w) => w !== "");
}

/** A page number line: "Página 1 de 2", "Page 2 of 3", "Seite 1/2" (its first word a page word, PAGE_STOP). */
const PAGE_NUMBER = /^(\p{L}+)\.?\s*\d{1,3}\s*(?:\/|\p{L}{1,3}\.?)\s*\d{1,3}$/u;

export function stopOf(line: VisualLine, cells: ReadonlyMap<ColumnRole, Chunk[]>, hints: LocaleHints): StopKind {
  // Nothing of the line in the table's cells (labelled figures of a row, "(Netto): 120,72"): no total.
  if ([...cells.values()].every((chunks) => chunks.length === 0)) return null;
  // A page number OCR read as words apart ("Página" | "1 de 2"): the page's foot, its last figure no amount.
  const numbered = PAGE_NUMBER.exec(line.chunks.map((c) => c.text).join(" "));
  if (numbered !== null && PAGE_STOP.test(foldWord(numbered[1] ?? ""))) return "page";
  let label = labelWords(line, hints);
  if (!startsWithStop(label)) {
    // "Taxe  Base  Montant      Total HT  -218,48": another block's words on the left, the total's label at the amount.
    if ((cells.get("unitPrice") ?? []).length > 0) return null;
    label = labelBeforeAmount(line, hints);
    if (!startsWithStop(label)) return null;
  }
  if (quantityCell(cellText(cells, "quantity"), hints) !== null) return null;
  return PAGE_STOP.test(label.slice(0, 4).join(" ")) ? "page" : "table";
}

export function amountOf(cells: ReadonlyMap<ColumnRole, Chunk[]>, hints: LocaleHints): string | null {
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
export function descriptionOnly(cells: ReadonlyMap<ColumnRole, Chunk[]>): boolean {
  for (const [role, chunks] of cells) if (role !== "description" && chunks.length > 0) return false;
  return (cells.get("description") ?? []).length > 0;
}

/**
 * Whether the line holds the rest of a row's date cell, with or without more of its description: "Managed" | "5.
 * November 2021 - 4. Dezember" over "Datenbank" | "2021", a period column's range wrapped in its cell.
 */
export function dateWrapped(cells: ReadonlyMap<ColumnRole, Chunk[]>): boolean {
  for (const [role, chunks] of cells) if (role !== "description" && role !== "date" && chunks.length > 0) return false;
  return (cells.get("date") ?? []).length > 0;
}

/**
 * A line of text only that runs on over two figure columns or more: a note printed across the table ("Important:
 * orders until ..."), no row's description.
 */
export function noteAcross(cells: ReadonlyMap<ColumnRole, Chunk[]>, columns: readonly Column[]): boolean {
  if ([...FIGURE_ROLES].some((role) => (cells.get(role) ?? []).length > 0)) return false;
  const figures = columns.filter((c) => FIGURE_ROLES.has(c.role));
  return [...cells.values()].some((chunks) =>
    chunks.some((chunk) => figures.filter((c) => chunk.box.x0 <= c.x0 && chunk.box.x1 >= c.x1).length >= 2),
  );
}

/** Whether a line holds text and no figure, in whatever columns (a note's paragraph runs on over them). */
export function textOnly(cells: ReadonlyMap<ColumnRole, Chunk[]>): boolean {
  if ([...FIGURE_ROLES].some((role) => (cells.get(role) ?? []).length > 0)) return false;
  return [...cells.values()].some((chunks) => chunks.some((chunk) => /\p{L}/u.test(chunk.text)));
}

/**
 * A line that starts with a label of up to three words and a colon, bulleted or not: "Liefer-Datum: 01.09.2013",
 * "Order no : 12", "* Packages: 4", "Bruttopreis :30,0000" (the colon printed against the figure). A qualifier in
 * brackets is no word of the label ("Weight (kg): 12", "SKU (Stock keeping unit) (SK): A-1", "(ATT) Colour : white"),
 * and a code's label may stand without a colon ("REF:A-1254", "Zähler-Nr. MG-X79318").
 */
export function keyValue(cells: ReadonlyMap<ColumnRole, Chunk[]>): boolean {
  // The line's text, not its first chunk: OCR may read the label's words apart ("Pedido" | "n.°:" | "R648940").
  const chunks = cells.get("description") ?? [];
  const text = chunks
    .map((c) => c.text)
    .join(" ")
    .replace(TAG, "$1")
    .replace(QUALIFIER, "");
  // OCR reads a label's colon as a semicolon ("Delivery date; C88706712").
  const scanned = chunks.some((c) => c.words.some((w) => w.source === "ocr"));
  return (scanned ? KEY_VALUE_SCANNED : KEY_VALUE).test(text) || CODE_LABEL.test(text);
}

/**
 * A row's description without the details printed in it: from its first "Key: value" line under its first line on
 * (an attribute "(ATT) Colour : white", a code "SKU (SK): A-1"), unless the line above broke a word at a hyphen. Reading
 * line by line drops such lines already; a row whose lines stand around its figures, or were regrouped by block,
 * may still hold them.
 */
export function withoutDetails(chunks: readonly Chunk[]): Chunk[] {
  const lines: Chunk[][] = [];
  for (const chunk of [...chunks].sort((a, b) => a.box.y0 - b.box.y0)) {
    const line = lines[lines.length - 1];
    const centre = (chunk.box.y0 + chunk.box.y1) / 2;
    if (line?.some((c) => centre < c.box.y1)) line.push(chunk);
    else lines.push([chunk]);
  }
  const cut = lines.findIndex(
    (line, i) =>
      i > 0 &&
      keyValue(new Map([["description", line]])) &&
      !brokenAtHyphen((lines[i - 1] ?? []).map((c) => c.text).join(" ")),
  );
  if (cut < 0) return [...chunks];
  const dropped = new Set(lines.slice(cut).flat());
  return chunks.filter((c) => !dropped.has(c));
}

/** A label of up to three words and its mark (`marks`, a character class): "Lieferdatum: ...", "Bruttopreis :30,0000". */
function keyValuePattern(marks: string): RegExp {
  return new RegExp(
    `^(?:[*•·–-]\\s*)?\\p{L}[^\\s${marks}]*(?:\\s[^\\s${marks}]+){0,2}(?:\\s?[${marks}](?:\\s|$)|\\s[${marks}](?=\\d))`,
    "u",
  );
}
const KEY_VALUE = keyValuePattern(":");
const KEY_VALUE_SCANNED = keyValuePattern(":;");
/**
 * A bracketed code in capitals opening a line ("(ATT) Colour", "(BLU): ..."): a word of the label. A wrapped
 * description's line may open with words in brackets too ("(Stunde): Einer Beispielrechnung"): no tag.
 */
const TAG = /^\((\p{Lu}{2,5})\)/u;
/** A bracketed qualifier after a word ("Weight (kg)", "SKU (Stock keeping unit) (SK)"): no word of the label. */
const QUALIFIER = /\s*\([^()]{1,40}\)/gu;
/**
 * A code's label: in capitals against its value ("REF:A-1254"), or a number's name without a colon before a value
 * holding a digit ("Zähler-Nr. MG-X79318", "Order No. 4711").
 */
const CODE_LABEL = /^\p{Lu}{2,6}\.?:(?=[\p{L}\p{N}])|^\p{L}[\p{L}.]*[-\s](?:Nr|No|N°|Nº)\.?\s+\S*\d/u;

/**
 * What joins the two dates of a period: "Nov 1 – Dec 1, 2024", "01.08.2024 bis 31.08.2024", "du 1er au 30 juin", "de
 * 01/03/2026 a 28/03/2026", "01/03/2026 hingga 28/03/2026".
 */
const PERIOD_JOINS = "–|—|-|to|until|through|bis|au|al|a|tot|hingga|sampai";
const PERIOD_JOIN = new RegExp(`\\s+(?:${PERIOD_JOINS})\\s+`, "iu");
/** A period wrapped after its first date ends on the word that joins it to the second: "01/11/2026 al". */
const PERIOD_JOIN_AT_END = new RegExp(`\\s+(?:${PERIOD_JOINS})$`, "iu");
const PERIOD_FROM = /^(?:from|vom|von|du|del|dal|van|de)\s+/iu;
/** A period's name before it: "Période du ...", "Billing period: ...". */
const PERIOD_TITLE = new RegExp(`^(?:${PERIOD_TITLES.join("|")})\\s*:?\\s+`, "iu");
/** A calendar week as a period: "KW 36", "Week 12/2024". */
const CALENDAR_WEEK = /^(?:kw|cw|wk|week|woche|semaine|semana|settimana)\.?\s*\d{1,2}(?:\s*\/\s*\d{2,4})?$/iu;

/**
 * A line of the description column that is a date or a period only, or one named as a period: the service period
 * printed under a subscription's item ("Nov 1 – Dec 1, 2024", "Période de 01/01/2026 au 31/01/2026",
 * "Abrechnungszeitraum KW 36"), a detail of the row and no part of its description.
 */
export function periodLine(cells: ReadonlyMap<ColumnRole, Chunk[]>, hints: LocaleHints): boolean {
  const line = (cells.get("description") ?? [])
    .map((c) => c.text)
    .join(" ")
    .trim();
  const text = line.replace(PERIOD_TITLE, "");
  const titled = text !== line;
  if (titled && CALENDAR_WEEK.test(text)) return true;
  // A titled period wrapped after its first date ("Periodo del 01/11/2026 al" over "28/11/2026").
  const from = text.replace(PERIOD_FROM, "");
  const dates = titled ? from.replace(PERIOD_JOIN_AT_END, "") : from;
  if (!/\d/.test(dates)) return false;
  const parts = dates.split(PERIOD_JOIN);
  return parts.length <= 2 && parts.every((part) => parseDate(part.trim(), hints) !== null);
}

/** A line with a code under the code column and no figures: text beside it is description. */
export function codeLine(cells: ReadonlyMap<ColumnRole, Chunk[]>): boolean {
  if ((cells.get("productCode") ?? []).length === 0) return false;
  for (const [role, chunks] of cells) {
    if (chunks.length > 0 && role !== "productCode" && role !== "description") return false;
  }
  return true;
}

/** The cells of the line right under line i when it starts less than `gap` line heights under it, else null. */
function cellsBelow(
  lines: readonly VisualLine[],
  i: number,
  columns: readonly Column[],
  hints: LocaleHints,
  gap: number,
): Map<ColumnRole, Chunk[]> | null {
  const line = lines[i];
  const next = lines[i + 1];
  if (line === undefined || next === undefined || next.box.y0 - line.box.y1 >= line.height * gap) return null;
  return lineCells(next, columns, hints);
}

/**
 * Whether a row's figures follow line i tight under it (a wide stacked description over them): right under it, or
 * under a few more tight lines of text that start in the description's column (a note across the table starts at its
 * left edge) when the figures' line has no description of its own (a code at most).
 */
export function figuresTight(
  lines: readonly VisualLine[],
  i: number,
  columns: readonly Column[],
  hints: LocaleHints,
): boolean {
  const description = columns.find((c) => c.role === "description");
  const inDescription = (line: VisualLine | undefined): boolean =>
    line !== undefined && description !== undefined && line.box.x0 >= description.x0 - line.height;
  const startsInDescription = inDescription(lines[i]);
  for (let k = i; k < i + 4; k++) {
    const cells = cellsBelow(lines, k, columns, hints, 0.8);
    if (cells === null) return false;
    if ([...FIGURE_ROLES].some((role) => (cells.get(role) ?? []).length > 0))
      return k === i || codeOnly(cellText(cells, "description"));
    if (!textOnly(cells) || !startsInDescription || !inDescription(lines[k + 1])) return false;
  }
  return false;
}

/**
 * Whether a product's row (an amount, and a quantity or unit price) follows in the block of tight lines that starts at
 * line i: a row printed as a block (its gross price over its figures) after a gap wider than the table's usual.
 */
export function rowInBlock(
  lines: readonly VisualLine[],
  i: number,
  columns: readonly Column[],
  hints: LocaleHints,
): boolean {
  for (let k = i; k < Math.min(lines.length, i + 4); k++) {
    const line = lines[k];
    const above = lines[k - 1];
    if (line === undefined || (k > i && above !== undefined && line.box.y0 - above.box.y1 >= line.height * 1.1)) break;
    const cells = lineCells(line, columns, hints);
    if (stopOf(line, cells, hints) !== null) return false;
    if (amountOf(cells, hints) !== null) {
      return pricedFigures(
        cells,
        lines.slice(i, k + 1).flatMap((l) => l.chunks),
        columns,
      );
    }
  }
  return false;
}

/**
 * A line of column titles, two or more of them over the figure columns and no figure ("Détail TVA ...  Code  Taux
 * Base TVA  Montant TVA"), or a tax breakdown's titles whatever words name its columns: the header of another table
 * under the rows, too long or too unlike a line-item header to read as one.
 */
export function titlesAcross(line: VisualLine, columns: readonly Column[]): boolean {
  const figures = columns.filter((c) => FIGURE_ROLES.has(c.role));
  if (taxTableTitles(line)) return true;
  if (figures.length === 0 || line.chunks.some((c) => /\d/.test(c.text))) return false;
  const from = Math.min(...figures.map((c) => c.x0)) - 0.05;
  const titles = line.chunks.filter(
    (c) => c.box.x0 >= from && (rolesOf(c.folded.join(" ")).length > 0 || rolesOf(c.folded[0] ?? "").length > 0),
  );
  return titles.length >= 2;
}

const TAX_WORDS: ReadonlySet<string> = new Set(TAX_NOUNS);

/**
 * The titles of a tax breakdown ("Resumo IVA | Taxa | Base tributável | Valor IVA", "MwSt-Aufstellung | MwSt-Satz |
 * Nettobetrag | MwSt-Betrag"): three cells or more, no figure, two of them naming a tax, whatever words name its
 * columns.
 */
function taxTableTitles(line: VisualLine): boolean {
  if (line.chunks.length < 3 || line.chunks.some((c) => /\d/.test(c.text))) return false;
  const taxed = line.chunks.filter((c) =>
    c.words.some((word) =>
      word.text
        .split(/[^\p{L}]+/u)
        .map(foldWord)
        .some((w) => TAX_WORDS.has(w) || w.endsWith("steuer")),
    ),
  );
  return taxed.length >= 2;
}

/**
 * Whether a row is a product's: a quantity or a unit price, or labelled figures about it among `chunks` ("(Bruto:
 * 71,00)" over figures whose quantity OCR lost).
 */
export function pricedFigures(
  cells: ReadonlyMap<ColumnRole, Chunk[]>,
  chunks: readonly Chunk[],
  columns: readonly Column[],
): boolean {
  return productFigures(cells) || chunks.some((c) => figureDetail(c, columns));
}

/** Whether a row has a quantity or a unit price (a product's row, not a discount, a charge or a total). */
export function productFigures(cells: ReadonlyMap<ColumnRole, Chunk[]>): boolean {
  return (cells.get("quantity") ?? []).length > 0 || (cells.get("unitPrice") ?? []).length > 0;
}

/** Roles of a row's figures: a line with none of them may be the upper line of a stacked row. */
const FIGURE_ROLES: ReadonlySet<ColumnRole> = new Set(["quantity", "unitPrice", "amount", "taxRate"]);

/**
 * A line without figures, with text, as a stacked row's upper line: a running number, code or date (with a digit,
 * under its column) kept; all other text, wherever it runs over the columns, the description. Null for another line.
 */
export function upperCells(cells: ReadonlyMap<ColumnRole, Chunk[]>): Map<ColumnRole, Chunk[]> | null {
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
export function codeOnly(text: string): boolean {
  return text
    .trim()
    .split(/\s+/)
    .every((token) => !/\p{L}/u.test(token) || /\d/.test(token));
}

/**
 * A stacked row's upper lines joined to its figures: description first, a running number or code kept. A code
 * printed under the description on the figures' line is the row's product code.
 */
export function takeUpper(cells: Map<ColumnRole, Chunk[]>, upper: ReadonlyMap<ColumnRole, Chunk[]>): void {
  const own = cells.get("description") ?? [];
  const codes = own.filter((c) => codeOnly(c.text));
  if (upper.has("description") && codes.length > 0) {
    const lettered = codes.filter((c) => /\p{L}/u.test(c.text));
    if (lettered.length > 0 && (cells.get("productCode") ?? []).length === 0) cells.set("productCode", lettered);
    const text = own.filter((c) => !codes.includes(c));
    if (text.length > 0) cells.set("description", text);
    else cells.delete("description");
  }
  for (const [role, chunks] of upper) {
    const own = cells.get(role) ?? [];
    // The row's first line names it: its code before one printed under it (a GTIN under the article number).
    if (role === "description") cells.set(role, [...chunks, ...own]);
    else if (own.length === 0 || role === "productCode") cells.set(role, [...chunks]);
  }
}

/** Whether the line right under line i holds an amount and no other figure: the amount of a row over two lines. */
export function amountBelow(
  lines: readonly VisualLine[],
  i: number,
  columns: readonly Column[],
  hints: LocaleHints,
): boolean {
  const cells = cellsBelow(lines, i, columns, hints, 1.1);
  if (cells === null) return false;
  return amountOf(cells, hints) !== null && !awaitsAmount(cells) && (cells.get("unitPrice") ?? []).length === 0;
}

/** A row's text and figures without its amount: a description with letters and a quantity or a unit price. */
export function awaitsAmount(cells: ReadonlyMap<ColumnRole, Chunk[]>): boolean {
  if ((cells.get("amount") ?? []).length > 0 || !/\p{L}/u.test(cellText(cells, "description"))) return false;
  return (cells.get("quantity") ?? []).length > 0 || (cells.get("unitPrice") ?? []).length > 0;
}

/**
 * The amount printed on its own line right under the row's other cells (the amount cell centred on a row of two
 * lines, or set at its foot): the row is both lines. The lower line brings its amount, codes and the rest of the
 * description; one with a quantity or unit price of its own is a row of its own.
 */
export function joinAwaiting(cells: Map<ColumnRole, Chunk[]>, above: ReadonlyMap<ColumnRole, Chunk[]>): boolean {
  if ((cells.get("quantity") ?? []).length > 0 || (cells.get("unitPrice") ?? []).length > 0) return false;
  takeUpper(cells, above);
  return true;
}

/**
 * A description that starts with chunks of codes only ("4123456000014 WA997", then "Wirkarbeit HT" on the line
 * under it): those are the row's article number and GTIN, under a code column the header did not name. The row's
 * code when it has none (one with letters), else dropped.
 */
export function leadingCodes(cells: Map<ColumnRole, Chunk[]>): void {
  const chunks = cells.get("description") ?? [];
  let k = 0;
  while (k < chunks.length - 1 && codeOnly(chunks[k]?.text ?? "")) k++;
  if (k === 0 || !chunks.slice(k).some((c) => /\p{L}{2}/u.test(c.text))) return;
  const codes = chunks.slice(0, k).filter((c) => /\p{L}/u.test(c.text));
  if (codes.length > 0 && (cells.get("productCode") ?? []).length === 0) cells.set("productCode", codes);
  cells.set("description", chunks.slice(k));
}

/**
 * An amount whose label starts well right of the description column, with no quantity or unit price: the totals block
 * printed under the price columns ("Rechnungssumme netto  845,00"), whatever its words.
 */
export function indentedTotal(
  line: VisualLine,
  cells: ReadonlyMap<ColumnRole, Chunk[]>,
  columns: readonly Column[],
  hints: LocaleHints,
): boolean {
  const description = columns.find((c) => c.role === "description");
  if (description === undefined) return false;
  if ((cells.get("quantity") ?? []).length > 0 || (cells.get("unitPrice") ?? []).length > 0) return false;
  const label = line.chunks.find((c) => /\p{L}/u.test(c.text) && moneyCell(c.text, hints) === null);
  // A bracketed labelled figure of the row ("(Descuento: 15,06)"), however OCR read its label, labels no total.
  if (label === undefined || /:\s*[-+]?\d[\d.,]*\)$/.test(label.text)) return false;
  return label.box.x0 > description.x0 + 0.2;
}

/** "1 Superdrachen" under "Pos. Artikelbeschreibung": the running number printed in the description's cell. */
export function stripPosition(cells: Map<ColumnRole, Chunk[]>, columns: readonly Column[]): void {
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

/** Quantity x unit price of a line with a description whose amount cell is missing or unreadable. */
export function impliedAmount(cells: ReadonlyMap<ColumnRole, Chunk[]>, hints: LocaleHints): string | null {
  // Not a labelled figure under a row ("Bruttopreis :30,0000 Abschlag :0,9000"), whatever OCR made of its figures.
  if (!/\p{L}{3}/u.test(cellText(cells, "description")) || keyValue(cells)) return null;
  const quantity = quantityCell(cellText(cells, "quantity"), hints);
  const unitPrice = priceCell(cellText(cells, "unitPrice"), hints);
  if (quantity === null || unitPrice === null) return null;
  return (Number(quantity.quantity) * Number(unitPrice)).toFixed(2);
}

function chunkOf(words: Word[], folded: string[]): Chunk {
  return { words, text: words.map((w) => w.text).join(" "), folded, box: boxOf(words) };
}

/**
 * "1 Website maintenance" read as one chunk where a quantity, running-number or code column sits tight left of the
 * description: the number or code under that column's header is its own cell ("4012345001235 Unsere Art.-").
 */
function splitLeadingNumber(chunk: Chunk, columns: readonly Column[]): Chunk[] {
  const [first, second] = chunk.words;
  if (first === undefined || second === undefined) return [chunk];
  const count = /^\d{1,4}(?:[.,]\d{1,3})?$/.test(first.text);
  const code = /^\d{5,}$/.test(first.text);
  if ((!count && !code) || !/^\p{L}/u.test(second.text)) return [chunk];
  const roles: readonly ColumnRole[] = code ? ["productCode"] : ["quantity", "position"];
  const centre = (first.box.x0 + first.box.x1) / 2;
  const under = columns.find((c) => roles.includes(c.role) && centre >= c.x0 - 0.01 && centre <= c.x1 + 0.01);
  if (under === undefined || second.box.x0 < under.x1) return [chunk];
  // Only where the description column follows and the rest starts under it ("3 Piece" is a quantity and its unit).
  const description = columns.find((c) => c.role === "description");
  if (description === undefined || description.x0 < under.x1 - 0.02) return [chunk];
  if (second.box.x0 > description.x1 + 0.02 || second.box.x0 < description.x0 - 0.03) return [chunk];
  return [chunkOf([first], chunk.folded.slice(0, 1)), chunkOf(chunk.words.slice(1), chunk.folded.slice(1))];
}

/** A currency code or sign printed beside a figure: "GBP", "EUR", "CHF", "€", "US$". */
function currencyMark(text: string, hints: LocaleHints): boolean {
  return !/\d/.test(text) && parseCurrency(text, hints) !== null;
}

/**
 * "55.99 GBP 55.99 GBP" read as one chunk where the unit price and amount columns stand tight: two or more figures,
 * each with its currency code on the same side, whose parts stand under different figure columns, are cells of
 * their own.
 */
function splitFigures(chunk: Chunk, columns: readonly Column[], hints: LocaleHints): Chunk[] {
  const words = chunk.words;
  if (words.length < 3 || !words.every((w) => currencyMark(w.text, hints) || /^[-+(]?[\d.,']+\)?$/.test(w.text))) {
    return [chunk];
  }
  const codeAfter = /\d/.test(words[0]?.text ?? "");
  const parts: Word[][] = [];
  for (const word of words) {
    const isFigure = /\d/.test(word.text);
    const opens = codeAfter ? isFigure : !isFigure;
    const last = parts[parts.length - 1];
    if (opens || last === undefined) parts.push([word]);
    else last.push(word);
  }
  if (parts.length < 2 || parts.some((p) => p.filter((w) => /\d/.test(w.text)).length !== 1)) return [chunk];
  let at = 0;
  const out = parts.map((p) => {
    const piece = chunkOf(p, chunk.folded.slice(at, at + p.length));
    at += p.length;
    return piece;
  });
  if (out.some((p) => moneyCell(p.text, hints) === null)) return [chunk];
  const under = out.map((p) => columnOf(p, columns, hints));
  const distinct = new Set(under);
  return under.every((c) => c !== null && FIGURE_ROLES.has(c.role)) && distinct.size === out.length ? out : [chunk];
}
