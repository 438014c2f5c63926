/**
 * Validation of the upload parameters, shared by the multipart and the JSON upload. Pure: raw values in, a checked
 * request out, or a bad_request naming the problem, before anything is stored.
 */
import { resolveFieldSets, type Selection } from "../catalog/lookup.js";
import { DocsiftError } from "../domain/errors.js";
import { canonicalLocale } from "../domain/locale.js";
import { encodeTags } from "../domain/tags.js";
import type { WorkflowPlan } from "../domain/workflow-plan.js";
import { buildWorkflowPlan } from "../workflows/upload-plan.js";

/** Every value a parameter was given, in order (a form may repeat a field). */
export type RawParams = Record<string, string[]>;

export interface UploadParams {
  selection: Selection;
  /** The workflow with its checked options: built here once, stored as it is, never checked again. */
  plan: WorkflowPlan;
  locale: string | null;
  /** Stored form of the tags (domain/tags.ts). */
  tags: string | null;
  parentDocId: string | null;
}

export const MAX_TAGS_LENGTH = 256;
/** Longest parentDocId kept (a reference, not content). */
export const MAX_PARENT_DOC_ID_LENGTH = 255;

/**
 * Longest value of one upload parameter, in bytes. The spec's options need little (a condition of each type on every
 * field of the largest field set is 2.5 KB), but nothing bounds how many conditions a client lists, nor how it
 * indents them: 1 MiB keeps a 100 KB options object a plain case and stays well under the file's own bound. A longer
 * value is refused naming the parameter, never cut: a cut JSON text would only be reported as "not valid JSON".
 */
export const MAX_FORM_FIELD_BYTES = 1024 * 1024;

/** 413, naming the parameter past MAX_FORM_FIELD_BYTES. */
export function fieldTooLarge(name: string): DocsiftError {
  return new DocsiftError(
    "file_too_large",
    `${name} is larger than the ${MAX_FORM_FIELD_BYTES / 1024} KiB an upload parameter may hold.`,
  );
}

function bad(message: string): DocsiftError {
  return new DocsiftError("bad_request", message);
}

/** A list parameter: a JSON array text, a comma list, or repeated fields (each of which may itself be either). */
export function parseList(name: string, values: readonly string[]): string[] {
  return values.flatMap((raw) => {
    const text = raw.trim();
    if (text.startsWith("[")) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw bad(`${name} starts with "[" but is not a valid JSON array.`);
      }
      if (!Array.isArray(parsed) || !parsed.every((v): v is string => typeof v === "string")) {
        throw bad(`${name} must be a JSON array of strings.`);
      }
      return parsed.map((v) => v.trim()).filter((v) => v.length > 0);
    }
    return text
      .split(",")
      .map((v) => v.trim())
      .filter((v) => v.length > 0);
  });
}

/**
 * Tags: each given value is one tag (free text, commas included), or a JSON array text of tags; repeated fields add
 * up. Clients send a list as repeated `tags` fields. Duplicates and empty tags are dropped.
 */
export function parseTags(values: readonly string[]): string[] {
  const tags = values.flatMap((raw) => {
    const text = raw.trim();
    if (!text.startsWith("[")) return [text];
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw bad('tags starts with "[" but is not a valid JSON array.');
    }
    if (!Array.isArray(parsed) || !parsed.every((v): v is string => typeof v === "string")) {
      throw bad("tags must be text or a JSON array of strings.");
    }
    return parsed.map((v) => v.trim());
  });
  const kept = [...new Set(tags.filter((t) => t.length > 0))];
  const long = kept.find((t) => t.length > MAX_TAGS_LENGTH);
  if (long !== undefined) throw bad(`A tag is ${long.length} characters long; the limit is ${MAX_TAGS_LENGTH}.`);
  return kept;
}

function single(params: RawParams, name: string): string | undefined {
  const values = params[name];
  if (values === undefined || values.length === 0) return undefined;
  if (values.length > 1) throw bad(`${name} was given ${values.length} times; give it once.`);
  return values[0];
}

function parseSelection(params: RawParams): Selection {
  const given = (["products", "fieldSets", "fieldSet"] as const).filter((name) => params[name] !== undefined);
  if (given.length !== 1) {
    throw bad(
      given.length === 0
        ? "Choose what to extract: give exactly one of products, fieldSets or fieldSet."
        : `Give exactly one of products, fieldSets or fieldSet, not ${given.join(" and ")}.`,
    );
  }
  const selection: Selection =
    given[0] === "products"
      ? { products: parseList("products", params.products ?? []) }
      : given[0] === "fieldSets"
        ? { fieldSets: parseList("fieldSets", params.fieldSets ?? []) }
        : { fieldSets: [single(params, "fieldSet")?.trim() ?? ""].filter((v) => v.length > 0) };
  // Throws bad_request naming unknown ids, or asking for at least one.
  resolveFieldSets(selection);
  return selection;
}

/** BCP 47 (`de_DE` read as `de-DE`), stored in canonical case (`de-DE`, not `de-de`): domain/locale.ts. */
export function parseLocale(value: string | undefined): string | null {
  if (value === undefined || value.trim() === "") return null;
  const canonical = canonicalLocale(value);
  if (canonical !== null) return canonical;
  throw bad(`locale "${value}" is not a BCP 47 language tag (for example de-DE or fr).`);
}

export function parseUploadParams(params: RawParams): UploadParams {
  const selection = parseSelection(params);
  const plan = buildWorkflowPlan(
    {
      workflowId: single(params, "workflowId"),
      workflowOptions: single(params, "workflowOptions"),
      childWorkflowId: single(params, "childWorkflowId"),
      childWorkflowOptions: single(params, "childWorkflowOptions"),
    },
    selection,
  );
  const locale = parseLocale(single(params, "locale"));
  const tags = encodeTags(parseTags(params.tags ?? []));
  const parentDocId = single(params, "parentDocId")?.trim() || null;
  if (parentDocId !== null && parentDocId.length > MAX_PARENT_DOC_ID_LENGTH) {
    throw bad(`parentDocId is ${parentDocId.length} characters long; the limit is ${MAX_PARENT_DOC_ID_LENGTH}.`);
  }
  return { selection, plan, locale, tags, parentDocId };
}

/** Longest file name kept, in characters (code points). */
export const MAX_FILE_NAME_LENGTH = 255;

/**
 * The client's file name for display only (the type is judged by content, and storage is keyed by file id): without
 * any path, without control characters (which could forge log lines, CSV rows or terminal output), at most
 * MAX_FILE_NAME_LENGTH characters, never cutting a character in half.
 */
export function cleanFileName(name: string | undefined): string | null {
  if (!name) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const visible = name.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "");
  const base = visible.split(/[\\/]/).pop()?.trim() ?? "";
  if (base.length === 0 || base === "." || base === "..") return null;
  return Array.from(base).slice(0, MAX_FILE_NAME_LENGTH).join("");
}
