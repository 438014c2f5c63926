/**
 * Scoring of line items (issue #18), shared by bench:line-items and bench:accuracy: rows matched per document (a row
 * counts when its description matches after folding and its amount numerically), row precision/recall/F1, cell
 * accuracy per column over matched rows, and the same per group (k-fold by source: a group is a PDF producer, the unit
 * no tuning may see across; see bench/kfold-data.ts) beside the pooled, in-sample figure.
 */
import { PDFDocument } from "pdf-lib";

import { LINE_ITEM_CELLS, type LineItemCellName } from "../src/domain/line-items.js";
import type { XmlAdjustment, XmlWordings } from "./xml-wordings.js";

/** A row as labelled or as predicted: cells by column; a column the label does not give is not scored. */
export type ItemRow = Partial<Record<LineItemCellName, string | null>>;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A row of a label or of a field value (`{description, amount, ...}`); unknown keys are ignored. */
export function itemRow(v: unknown): ItemRow {
  const row: ItemRow = {};
  if (!isRecord(v)) return row;
  for (const c of LINE_ITEM_CELLS) {
    const cell = v[c];
    if (cell === null) row[c] = null;
    else if (typeof cell === "string") row[c] = cell;
    else if (typeof cell === "number") row[c] = String(cell);
  }
  return row;
}

/**
 * A labelled row, with the other wordings of its description an e-invoice's XML gives (its item's name, description,
 * or both: bench/xml-wordings.ts); a read description that folds to any of them matches.
 */
export type LabelRow = ItemRow & { wordings?: readonly string[] };

/**
 * Labelled rows with their XML's wordings: a row takes those of the XML item whose name or description is its
 * description and whose amount is its amount (a credit note's labels are negative, its XML positive).
 */
export function withWordings(rows: readonly ItemRow[], xml: XmlWordings | null): LabelRow[] {
  if (xml === null) return [...rows];
  const used = new Set<number>();
  return rows.map((row) => {
    const i = xml.items.findIndex(
      (item, j) =>
        !used.has(j) &&
        [item.name, item.description].some(
          (w) => w !== null && foldDescription(w) === foldDescription(row.description),
        ) &&
        sameNumber(unsigned(item.amount), unsigned(row.amount ?? null)),
    );
    const item = xml.items[i];
    if (item === undefined) return row;
    used.add(i);
    const wordings = [item.name, item.description, [item.name, item.description].filter((w) => w !== null).join(" ")];
    return { ...row, wordings: wordings.filter((w): w is string => w !== null && w !== "") };
  });
}

function unsigned(amount: string | null): string | null {
  return amount?.replace(/^-/, "") ?? null;
}

/** Whether a read description is the label's, in its own or one of its XML wordings. */
function describes(truth: LabelRow, got: string | null | undefined): boolean {
  const read = foldDescription(got);
  return [truth.description, ...(truth.wordings ?? [])].some((w) => foldDescription(w) === read);
}

/**
 * Whether a read row is a document-level allowance or charge: its amount (on a credit note of either sign, as pages
 * and labels print them either way), and its reason among its words.
 */
function isAdjustment(adjustment: XmlAdjustment, row: ItemRow, credit: boolean): boolean {
  const amounts = credit ? [adjustment.amount, -adjustment.amount] : [adjustment.amount];
  return (
    amounts.some((a) => sameNumber(a.toFixed(2), row.amount)) &&
    (adjustment.reason === null || foldDescription(row.description).includes(foldDescription(adjustment.reason)))
  );
}

/** The line-item field of a product: `invoice.lineItems` or `receipt.lineItems`. */
export function lineItemField(product: string): string {
  return product === "receipts" ? "receipt.lineItems" : "invoice.lineItems";
}

/** Lower case, no accents, letters and digits only. */
export function foldDescription(text: string | null | undefined): string {
  return (text ?? "")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");
}

function sameNumber(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  const x = Number(a);
  const y = Number(b);
  return Number.isFinite(x) && Number.isFinite(y) ? Math.abs(x - y) < 0.005 : a === b;
}

export function cellMatches(column: LineItemCellName, truth: string | null, got: string | null | undefined): boolean {
  if (column === "description") return foldDescription(truth) === foldDescription(got);
  if (column === "quantity" || column === "unitPrice" || column === "amount" || column === "taxRate") {
    return sameNumber(truth, got);
  }
  return (truth ?? "").trim().toLowerCase() === (got ?? "").trim().toLowerCase();
}

/** A matched row's cell against its label's (a description in any of the label's wordings). */
function cellRight(truth: LabelRow, column: LineItemCellName, got: ItemRow): boolean {
  return column === "description"
    ? describes(truth, got.description)
    : cellMatches(column, truth[column] ?? null, got[column]);
}

export interface RowScore {
  truth: number;
  predicted: number;
  matched: [LabelRow, ItemRow][];
  /**
   * Labelled rows found with the right amount where the label's description is only the leading words of the one read
   * (or all of it): a looser count than `matched`, for labels that keep an item's name where the page prints its name
   * and description ("PRESTATION SUPPORT" printed "PRESTATION SUPPORT - Description").
   */
  located: number;
  /** Read rows that are the document's allowances or charges (bench/xml-wordings.ts): not counted in `predicted`. */
  excused: number;
}

/** The folded words of a description. */
function foldedWords(text: string | null | undefined): string[] {
  return (text ?? "")
    .split(/\s+/)
    .map((w) => foldDescription(w))
    .filter((w) => w !== "");
}

/** Whether the label's description words lead the predicted one's. */
function leads(truth: string | null | undefined, got: string | null | undefined): boolean {
  const want = foldedWords(truth);
  const read = foldedWords(got);
  return want.length > 0 && want.every((w, i) => read[i] === w);
}

/**
 * Matches a document's rows: each labelled row takes the first unused predicted row with its description and amount;
 * of the rows left, those that are one of the document's allowances or charges are excused.
 */
export function scoreRows(
  truth: readonly LabelRow[],
  predicted: readonly ItemRow[],
  adjustments: readonly XmlAdjustment[] = [],
  credit = false,
): RowScore {
  const used = new Set<number>();
  const matched: [LabelRow, ItemRow][] = [];
  for (const t of truth) {
    const i = predicted.findIndex(
      (p, j) => !used.has(j) && describes(t, p.description) && sameNumber(t.amount, p.amount),
    );
    if (i < 0) continue;
    used.add(i);
    const p = predicted[i];
    if (p !== undefined) matched.push([t, p]);
  }
  const taken = new Set<number>();
  let located = 0;
  for (const t of truth) {
    const i = predicted.findIndex(
      (p, j) => !taken.has(j) && leads(t.description, p.description) && sameNumber(t.amount, p.amount),
    );
    if (i < 0) continue;
    taken.add(i);
    located++;
  }
  const left = new Set(adjustments.keys());
  let excused = 0;
  for (const [j, p] of predicted.entries()) {
    if (used.has(j)) continue;
    const a = [...left].find((k) => {
      const adjustment = adjustments[k];
      return adjustment !== undefined && isAdjustment(adjustment, p, credit);
    });
    if (a === undefined) continue;
    left.delete(a);
    excused++;
  }
  return { truth: truth.length, predicted: predicted.length - excused, matched, located, excused };
}

export interface ScoredDocument {
  file: string;
  /** "invoices" or "receipts". */
  product: string;
  /** k-fold group (PDF producer), or null when unknown. */
  group: string | null;
  truth: readonly LabelRow[];
  predicted: readonly ItemRow[];
  score: RowScore;
}

export function scoreDocument(
  file: string,
  product: string,
  group: string | null,
  truth: readonly ItemRow[],
  predicted: readonly ItemRow[],
  xml: XmlWordings | null = null,
): ScoredDocument {
  const labelled = withWordings(truth, xml);
  return {
    file,
    product,
    group,
    truth: labelled,
    predicted,
    score: scoreRows(labelled, predicted, xml?.adjustments, xml?.credit),
  };
}

export interface Tally {
  documents: number;
  truth: number;
  predicted: number;
  matched: number;
  located: number;
  excused: number;
  precision: number;
  recall: number;
  f1: number;
  cells: Map<LineItemCellName, { n: number; ok: number }>;
}

export function tally(docs: readonly ScoredDocument[]): Tally {
  let truth = 0;
  let predicted = 0;
  let matched = 0;
  let located = 0;
  let excused = 0;
  const cells = new Map<LineItemCellName, { n: number; ok: number }>();
  for (const { score } of docs) {
    truth += score.truth;
    predicted += score.predicted;
    matched += score.matched.length;
    located += score.located;
    excused += score.excused;
    for (const [t, p] of score.matched) {
      for (const c of LINE_ITEM_CELLS) {
        const expected = t[c];
        if (expected === undefined) continue;
        const s = cells.get(c) ?? { n: 0, ok: 0 };
        cells.set(c, s);
        s.n++;
        if (cellRight(t, c, p)) s.ok++;
      }
    }
  }
  return {
    documents: docs.length,
    truth,
    predicted,
    matched,
    located,
    excused,
    precision: predicted === 0 ? 0 : matched / predicted,
    recall: truth === 0 ? 0 : matched / truth,
    f1: truth + predicted === 0 ? 0 : (2 * matched) / (truth + predicted),
    cells,
  };
}

/** Cell mismatches of matched rows, for --cells. */
export function cellErrors(doc: ScoredDocument): string[] {
  const out: string[] = [];
  for (const [t, p] of doc.score.matched) {
    for (const c of LINE_ITEM_CELLS) {
      const expected = t[c];
      if (expected === undefined || cellRight(t, c, p)) continue;
      out.push(`${doc.file} ${c}: want ${expected} got ${p[c] ?? null}`);
    }
  }
  return out;
}

/** A document whose rows did not all match: wanted and read rows side by side, for --show. */
export function rowDiff(doc: ScoredDocument): string[] {
  const { score } = doc;
  if (score.matched.length === Math.max(score.truth, score.predicted)) return [];
  return [
    `${doc.file}: ${score.matched.length} of ${score.truth} rows (${score.predicted} read)`,
    ...doc.truth.map((t) => `  want ${JSON.stringify(t.description)} ${t.amount}`),
    ...doc.predicted.map((p) => `  got  ${JSON.stringify(p.description)} ${p.amount}`),
  ];
}

const f3 = (x: number): string => x.toFixed(3);

/**
 * The report: pooled figures (in-sample: every document, whatever was looked at while tuning), cell accuracy per
 * column, and with two or more groups the figure per group (k-fold by source: each group scored as the fold held
 * out) and their mean.
 */
export function formatLineItems(docs: readonly ScoredDocument[]): string {
  const all = tally(docs);
  const out = [
    `line items: ${all.documents} documents, ${all.truth} rows labelled, ${all.predicted} read, ${all.matched} matched${all.excused > 0 ? ` (${all.excused} more read that are the documents' allowances or charges: not counted)` : ""}`,
    `  row F1 ${f3(all.f1)} (precision ${f3(all.precision)}, recall ${f3(all.recall)}) [pooled, in-sample]`,
    `  rows located ${all.located} of ${all.truth} (amount right, the label's description the leading words of the one read; looser than the row F1's whole description)`,
    "  cell accuracy over matched rows:",
    ...LINE_ITEM_CELLS.filter((c) => all.cells.has(c)).map((c) => {
      const s = all.cells.get(c) ?? { n: 0, ok: 0 };
      return `    ${c.padEnd(12)} ${f3(s.ok / Math.max(1, s.n))} (${s.ok}/${s.n})`;
    }),
  ];
  const products = [...new Set(docs.map((d) => d.product))].sort();
  if (products.length > 1) {
    for (const product of products) {
      const t = tally(docs.filter((d) => d.product === product));
      out.push(
        `  ${product}: row F1 ${f3(t.f1)} (${t.matched} of ${t.truth} rows, ${t.predicted} read, ${t.documents} documents)`,
      );
    }
  }
  const groups = new Map<string, ScoredDocument[]>();
  for (const d of docs) {
    const key = d.group ?? "(unknown)";
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  if (groups.size >= 2) {
    out.push(
      `  by source (${groups.size}-fold by PDF producer; each group is out of sample when no tuning looked at it):`,
    );
    const f1s: number[] = [];
    for (const [group, members] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
      const t = tally(members);
      f1s.push(t.f1);
      out.push(
        `    ${group.slice(0, 48).padEnd(48)} ${String(members.length).padStart(3)} docs  row F1 ${f3(t.f1)} (${t.matched}/${t.truth}, ${t.predicted} read)`,
      );
    }
    out.push(`  mean row F1 over sources (macro) ${f3(f1s.reduce((s, x) => s + x, 0) / f1s.length)}`);
  }
  return `${out.join("\n")}\n`;
}

/** Producer of a PDF as a k-fold group: its Info dictionary's Producer (else Creator) without version numbers. */
export async function producerGroup(bytes: Uint8Array): Promise<string | null> {
  if (!(bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46)) return null;
  try {
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
    const name = (pdf.getProducer() ?? pdf.getCreator() ?? "")
      .replace(/\(.*?\)/g, "")
      .replace(/\bv?[\d.]+\w*/gi, "")
      .replace(/\s+/g, " ")
      .trim();
    return name === "" ? null : name;
  } catch {
    return null;
  }
}

/** What bench:accuracy knows of a document: its label and the pipeline's fields (null when it failed). */
export interface LineItemOutcome {
  label: { file: string; product: string; lists?: Record<string, unknown[]> };
  predicted: ReadonlyMap<string, { rows?: unknown[] }> | null;
}

/**
 * The pipeline's line items scored against the labels: documents whose label lists rows. Null when no document
 * returned the field at all (a catalogue without it): there is nothing to score, not zero rows found.
 */
export function scoreLineItemOutcomes(
  outcomes: readonly LineItemOutcome[],
  groupOf: (file: string) => string | null,
  xmlOf: (file: string) => XmlWordings | null = () => null,
): ScoredDocument[] | null {
  const labelled = outcomes.filter((o) => Array.isArray(o.label.lists?.[lineItemField(o.label.product)]));
  if (labelled.length === 0) return null;
  const returned = labelled.some((o) => o.predicted?.has(lineItemField(o.label.product)) === true);
  if (!returned) return null;
  return labelled.map(({ label, predicted }) => {
    const field = lineItemField(label.product);
    const truth = (label.lists?.[field] ?? []).map(itemRow);
    const rows = (predicted?.get(field)?.rows ?? []).map(itemRow);
    return scoreDocument(label.file, label.product, groupOf(label.file), truth, rows, xmlOf(label.file));
  });
}
