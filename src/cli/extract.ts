import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import type { FieldDef } from "../catalog/catalog.js";
import { resolveFields } from "../catalog/lookup.js";
import { DocsiftError, type ErrorBody, toErrorBody } from "../domain/errors.js";
import { canonicalLocale } from "../domain/locale.js";
import type { ExtractedField, ResultWarning } from "../domain/result.js";
import { applyEInvoice } from "../einvoice/index.js";
import { boxesAsUploaded } from "../extract/boxes-as-uploaded.js";
import { extractResult } from "../extract/index.js";
import { ingest, type OcrEngine, readAttachments } from "../ingest/index.js";
import { createDefaultOcrEngine } from "../ingest/ocr/factory.js";
import { ocrConfig } from "../runtime/config.js";
import { choiceOption, commandLineOrHelp, UsageError } from "./args.js";

const HELP = `Usage: docsift extract [--product ID]... [--field-set ID]... [--locale TAG] [--format json|jsonl] [--timings] FILE...

Extracts the fields of the selected products or field sets from each FILE (PDF, PNG or JPG), locally.
A PDF embedding a Factur-X / ZUGFeRD / XRechnung (CII) or UBL invoice gives the fields its XML states.

Options:
  --product ID       product to extract (invoices, receipts, documents); repeatable
  --field-set ID     field set to extract (invoice, parties, payment, receipt, document); repeatable
  --locale TAG       BCP 47 locale deciding ambiguous dates and number formats (en-AU, en-US, de-DE or de_DE, ...);
                     without it, inferred from each document
  --format FORMAT    json (default: a pretty-printed array) or jsonl (one line per file, in input order)
  --timings          add {"pages", "ingestMs", "extractMs", "einvoiceMs"} to each result
  -h, --help         show this help

Files run in parallel up to the core count. A file that cannot be read gives a FAILED entry with
{"error": code, "message"}, and the command then exits 1.
`;

interface Timings {
  pages: number;
  ingestMs: number;
  extractMs: number;
  /** Reading the PDF's attachments and merging an embedded e-invoice. */
  einvoiceMs: number;
}

type Outcome =
  | {
      file: string;
      fileId: string;
      status: "FINALISED";
      results: { timestamp: string; fields: ExtractedField[]; warnings?: ResultWarning[] };
      timings?: Timings;
    }
  | { file: string; status: "FAILED"; error: ErrorBody };

async function process1(
  file: string,
  fields: readonly FieldDef[],
  locale: string | undefined,
  pageConcurrency: number,
  ocr: OcrEngine,
) {
  const started = performance.now();
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new DocsiftError("not_found", `Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const document = await ingest(new Uint8Array(bytes), { ocr, concurrency: pageConcurrency });
  const ingested = performance.now();
  const extracted = extractResult(document, fields, { locale });
  const done = performance.now();
  const attachments = await readAttachments(new Uint8Array(bytes));
  const outcome = applyEInvoice(document, attachments, extracted, { locale });
  const timings: Timings = {
    pages: document.pages.length,
    ingestMs: Math.round(ingested - started),
    extractMs: Math.round((done - ingested) * 100) / 100,
    einvoiceMs: Math.round((performance.now() - done) * 100) / 100,
  };
  // Extraction reads turned pages upright; the result's boxes are on the pages as uploaded.
  return {
    fields: boxesAsUploaded(document, outcome.fields),
    warnings: [...(document.warnings ?? []), ...outcome.warnings],
    timings,
  };
}

function progress(done: number, total: number): void {
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stderr.write(`\r[${"#".repeat(filled)}${" ".repeat(width - filled)}] ${done}/${total}`);
  if (done === total) process.stderr.write("\n");
}

export async function run(argv: string[]): Promise<number> {
  const line = commandLineOrHelp(argv, HELP, {
    product: { type: "string", multiple: true },
    "field-set": { type: "string", multiple: true },
    locale: { type: "string" },
    format: { type: "string" },
    timings: { type: "boolean", default: false },
  });
  if (line === null) return 0;
  const { values, positionals } = line;
  const format = choiceOption("--format", values.format, ["json", "jsonl"]) ?? "json";
  if (positionals.length === 0) throw new UsageError("name at least one FILE");
  const locale = values.locale === undefined ? undefined : canonicalLocale(values.locale);
  if (locale === null) throw new UsageError(`--locale "${values.locale}" is not a BCP 47 language tag (e.g. de-DE)`);
  let fields: FieldDef[];
  try {
    fields = resolveFields({ products: values.product ?? [], fieldSets: values["field-set"] ?? [] });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }

  const files = positionals;
  const cores = availableParallelism();
  const parallel = Math.max(1, Math.min(cores, files.length));
  const pageConcurrency = Math.max(1, Math.floor(cores / parallel));
  const outcomes: Array<Outcome | undefined> = new Array(files.length);
  const showProgress = process.stderr.isTTY === true;
  let finished = 0;
  let flushed = 0;
  // jsonl lines go out in input order as soon as every earlier file is done.
  const flush = () => {
    while (flushed < files.length && outcomes[flushed] !== undefined) {
      if (format === "jsonl") process.stdout.write(`${JSON.stringify(outcomes[flushed])}\n`);
      flushed++;
    }
  };
  let next = 0;
  const ocr = createDefaultOcrEngine(ocrConfig());
  const workers = Array.from({ length: parallel }, async () => {
    while (next < files.length) {
      const index = next++;
      const file = files[index] as string;
      try {
        const { fields: result, warnings, timings } = await process1(file, fields, locale, pageConcurrency, ocr);
        outcomes[index] = {
          file,
          fileId: randomUUID(),
          status: "FINALISED",
          results: {
            timestamp: new Date().toISOString(),
            fields: result,
            ...(warnings.length > 0 ? { warnings } : {}),
          },
          ...(values.timings ? { timings } : {}),
        };
      } catch (err) {
        if (!(err instanceof DocsiftError))
          process.stderr.write(`${file}: ${err instanceof Error ? err.stack : String(err)}\n`);
        outcomes[index] = { file, status: "FAILED", error: toErrorBody(err) };
      }
      finished++;
      if (showProgress) progress(finished, files.length);
      flush();
    }
  });
  try {
    await Promise.all(workers);
  } finally {
    // tesseract.js worker threads would otherwise keep the process alive until they idle out.
    await ocr.close?.();
  }
  if (format === "json") process.stdout.write(`${JSON.stringify(outcomes, null, 2)}\n`);
  return outcomes.some((o) => o?.status === "FAILED") ? 1 : 0;
}
