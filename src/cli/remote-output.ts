/**
 * What the remote commands print: one outcome per file, as a JSON array, JSON lines, or CSV (columns file, fileId,
 * status, then one per field name). Pure formatting; the commands do the I/O.
 *
 * CSV keeps one line per file (watch appends them under a fixed header): a line-items field's cell is the JSON text
 * of its rows' cells (`[{"description":...,"quantity":...,...}]`, without confidences and boxes), which a
 * spreadsheet shows as text and any JSON parser reads back.
 */

import type { DocsiftApiError, ErrorInfo, Results } from "../client/index.js";
import { LINE_ITEM_CELLS } from "../domain/line-items.js";

export type OutputFormat = "json" | "jsonl" | "csv";
export const OUTPUT_FORMATS: readonly OutputFormat[] = ["json", "jsonl", "csv"];

export interface Outcome {
  /** The local file, when the command uploaded one. */
  file?: string;
  fileId?: string;
  status: string;
  uploadedAt?: string;
  results?: Results;
  error?: ErrorInfo;
}

export function isOutputFormat(value: string): value is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(value);
}

export function failedOutcome(err: DocsiftApiError, base: Pick<Outcome, "file" | "fileId">): Outcome {
  return { ...base, status: "FAILED", error: err.toJSON() };
}

/** Field names over all outcomes, in first-seen order (files may differ when their products differ). */
export function fieldColumns(outcomes: readonly Outcome[]): string[] {
  const names = new Set<string>();
  for (const o of outcomes) for (const f of o.results?.fields ?? []) names.add(f.name);
  return [...names];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** A field's value as one CSV cell: text as is, child references as their ids, line items as JSON, null as empty. */
function cellValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value) && value.some((v) => isObject(v) && "amount" in v)) {
    const rows = value
      .filter(isObject)
      .map((row) => Object.fromEntries(LINE_ITEM_CELLS.map((c) => [c, row[c] ?? null])));
    return JSON.stringify(rows);
  }
  if (Array.isArray(value)) {
    return value
      .map((v) => (typeof v === "object" && v !== null && "file_id" in v ? String(v.file_id) : String(v)))
      .join(" ");
  }
  return String(value);
}

/** RFC 4180: quote a cell holding a comma, quote, CR or LF; double inner quotes. */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map((c) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(",")}\n`;
}

export function csvHeader(fields: readonly string[]): string {
  return csvLine(["file", "fileId", "status", ...fields]);
}

export function csvRow(outcome: Outcome, fields: readonly string[]): string {
  const values = new Map<string, unknown>((outcome.results?.fields ?? []).map((f) => [f.name, f.value]));
  return csvLine([
    outcome.file ?? "",
    outcome.fileId ?? "",
    outcome.status,
    ...fields.map((name) => cellValue(values.get(name))),
  ]);
}

/** The whole output of a finished command in `format`; `json-object` prints a single outcome unwrapped. */
export function formatOutcomes(outcomes: readonly Outcome[], format: OutputFormat | "json-object"): string {
  if (format === "json-object" && outcomes.length === 1) return `${JSON.stringify(outcomes[0], null, 2)}\n`;
  if (format === "json" || format === "json-object") return `${JSON.stringify(outcomes, null, 2)}\n`;
  if (format === "jsonl") return outcomes.map((o) => `${JSON.stringify(o)}\n`).join("");
  const fields = fieldColumns(outcomes);
  return csvHeader(fields) + outcomes.map((o) => csvRow(o, fields)).join("");
}

/** 0 when every file is done well, 1 when one failed, 3 when one is still being processed (its deadline passed). */
export function exitCodeOf(outcomes: readonly Outcome[], doneStatus: string): number {
  if (outcomes.some((o) => o.status === "FAILED")) return 1;
  return outcomes.every((o) => o.status === doneStatus) ? 0 : 3;
}

/**
 * Runs the tasks, at most `concurrency` at once, and prints their outcomes to stdout: jsonl lines in input order as
 * soon as every earlier task is done, the other formats once all are.
 */
export async function printOutcomes(
  tasks: ReadonlyArray<() => Promise<Outcome>>,
  concurrency: number,
  format: OutputFormat | "json-object",
): Promise<Outcome[]> {
  const outcomes: Array<Outcome | undefined> = new Array(tasks.length);
  let printed = 0;
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, tasks.length) }, async () => {
    while (next < tasks.length) {
      const index = next++;
      outcomes[index] = await (tasks[index] as () => Promise<Outcome>)();
      for (; format === "jsonl" && outcomes[printed] !== undefined; printed++) {
        process.stdout.write(formatOutcomes([outcomes[printed] as Outcome], "jsonl"));
      }
    }
  });
  await Promise.all(lanes);
  const done = outcomes as Outcome[];
  if (format !== "jsonl") process.stdout.write(formatOutcomes(done, format));
  return done;
}
