/**
 * One document's `docsift extract` answer, made in-process along the path src/cli/extract.ts takes (ingest ->
 * extract -> the PDF's attachments -> applyEInvoice, errors as a FAILED entry), without what changes from run to run:
 * no fileId, no timestamp, no timings, and `file` relative to the corpus folder. Serialised with sorted keys.
 */
import type { FieldDef } from "../../src/catalog/catalog.js";
import type { Document } from "../../src/document/model.js";
import { toErrorBody } from "../../src/domain/errors.js";
import { applyEInvoice } from "../../src/einvoice/index.js";
import { extractResult } from "../../src/extract/index.js";
import { ingest } from "../../src/ingest/index.js";
import { readPdfAttachments } from "../../src/ingest/pdf-attachments.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface Answer {
  /** The CLI's entry for the file, made stable (see stableAnswer). */
  answer: JsonObject;
  /** Whether a page was read by OCR (the answer then depends on the tesseract build). */
  ocr: boolean;
}

/** The CLI's answer for one file's bytes; `file` is the name to report it under. */
export async function extractAnswer(
  file: string,
  bytes: Uint8Array,
  fields: readonly FieldDef[],
  options: { locale?: string; pageConcurrency: number },
): Promise<Answer> {
  let document: Document | undefined;
  try {
    document = await ingest(bytes, { concurrency: options.pageConcurrency });
    const extracted = extractResult(document, fields, { locale: options.locale });
    const attachments = document.type === "pdf" ? await readPdfAttachments(bytes) : [];
    const { fields: result, warnings } = applyEInvoice(document, attachments, extracted, { locale: options.locale });
    const entry = {
      file,
      status: "FINALISED",
      results: { fields: result, ...(warnings.length > 0 ? { warnings } : {}) },
    };
    return { answer: toJsonObject(entry), ocr: document.pages.some((p) => p.source === "ocr") };
  } catch (err) {
    return {
      answer: toJsonObject({ file, status: "FAILED", error: toErrorBody(err) }),
      ocr: document?.pages.some((p) => p.source === "ocr") ?? false,
    };
  }
}

/**
 * A `docsift extract` JSON entry without its run-to-run parts: fileId, results.timestamp and timings dropped, `file`
 * replaced by `file` given (the CLI prints the path it was given).
 */
export function stableAnswer(entry: JsonObject, file: string): JsonObject {
  const { fileId: _id, timings: _timings, results, ...rest } = entry;
  const stable: JsonObject = { ...rest, file };
  if (isObject(results)) {
    const { timestamp: _timestamp, ...kept } = results;
    stable.results = kept;
  }
  return stable;
}

export function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function toJsonObject(value: object): JsonObject {
  const json: Json = JSON.parse(JSON.stringify(value));
  if (!isObject(json)) throw new Error("an answer is a JSON object");
  return json;
}

/** Pretty-printed JSON with object keys sorted at every depth (arrays keep their order), ending in a newline. */
export function goldenJson(value: Json): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isObject(value)) return value;
  const sorted: JsonObject = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys(value[key] ?? null);
  return sorted;
}
