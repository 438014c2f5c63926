/**
 * Files embedded in a PDF: the catalog's EmbeddedFiles name tree, its AF (associated files) array, as PDF/A-3 and
 * Factur-X use it, and the file-attachment annotations of each page. Read with pdf-lib, which parses objects lazily
 * and decodes nothing by itself: each file's stream is inflated here with an output bound, the share of
 * LIMITS.maxExpandedBytes the document's attachments have left, so an attachment counts against the same bound as
 * every other stream (ingest has already refused a file whose streams expand past it; this bound stands on its own).
 * A PDF pdf-lib cannot read has no attachments: the page reading stands.
 */
import { inflateSync } from "node:zlib";
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  type PDFObject,
  PDFRawStream,
  PDFRef,
  PDFString,
} from "pdf-lib";
import { LIMITS } from "./limits.js";

export interface PdfAttachment {
  name: string;
  /** The embedded file's /Subtype ("text/xml"), when it states one. */
  mimeType: string | null;
  /** PDF/A-3's /AFRelationship (Alternative, Data, Source, ...), when stated. */
  relationship: string | null;
  /** Pages whose file-attachment annotation carries it; null for a file of the whole document. */
  pages: number[] | null;
  bytes: Uint8Array;
}

/** Name trees and annotation arrays deeper or longer than this are not an invoice's: the walk stops there. */
const MAX_TREE_DEPTH = 16;
const MAX_FILES = 64;

const key = (name: string) => PDFName.of(name);

function textOf(value: PDFObject | undefined): string | null {
  if (value instanceof PDFString || value instanceof PDFHexString) return value.decodeText();
  if (value instanceof PDFName) return value.decodeText();
  return null;
}

function dictAt(dict: PDFDict | undefined, name: string): PDFDict | undefined {
  const value = dict?.lookup(key(name));
  return value instanceof PDFDict ? value : undefined;
}

function arrayAt(dict: PDFDict | undefined, name: string): PDFArray | undefined {
  const value = dict?.lookup(key(name));
  return value instanceof PDFArray ? value : undefined;
}

function items(array: PDFArray | undefined): PDFObject[] {
  if (!array) return [];
  return Array.from({ length: Math.min(array.size(), MAX_FILES * 2) }, (_, i) => array.lookup(i)).filter(
    (v): v is PDFObject => v !== undefined,
  );
}

/** The file specifications in an EmbeddedFiles name tree (Names pairs, Kids below), cycles and depth bounded. */
function nameTreeValues(node: PDFDict | undefined, depth: number, seen: Set<PDFDict>): PDFDict[] {
  if (!node || depth > MAX_TREE_DEPTH || seen.has(node)) return [];
  seen.add(node);
  const own = items(arrayAt(node, "Names")).filter((_, i) => i % 2 === 1);
  const kids = items(arrayAt(node, "Kids")).flatMap((kid) =>
    kid instanceof PDFDict ? nameTreeValues(kid, depth + 1, seen) : [],
  );
  return [...own.filter((v): v is PDFDict => v instanceof PDFDict), ...kids];
}

/** A stream's data with its filters undone: none, or Flate (what embedded files use); anything else is skipped. */
function decodeStream(stream: PDFRawStream, budget: number): Uint8Array | null {
  const filter = stream.dict.lookup(key("Filter"));
  const filters = filter instanceof PDFArray ? items(filter) : filter ? [filter] : [];
  const names = filters.map(textOf);
  if (names.length === 0) return stream.contents;
  if (names.length !== 1 || (names[0] !== "FlateDecode" && names[0] !== "Fl")) return null;
  try {
    return inflateSync(stream.contents, { maxOutputLength: Math.max(1, budget) });
  } catch {
    // Damaged data or past the bound: no attachment, and the page reading stands.
    return null;
  }
}

interface Found {
  spec: PDFDict;
  pages: number[] | null;
}

function attachmentOf(found: Found, stream: PDFRawStream, bytes: Uint8Array): PdfAttachment {
  const { spec } = found;
  const subtype = stream.dict.lookup(key("Subtype"));
  return {
    name: textOf(spec.lookup(key("UF"))) ?? textOf(spec.lookup(key("F"))) ?? "",
    mimeType: subtype instanceof PDFName ? subtype.decodeText() : null,
    relationship: textOf(spec.lookup(key("AFRelationship"))),
    pages: found.pages,
    bytes,
  };
}

/** Every file specification the document carries, with the pages of those attached by annotation. */
function fileSpecs(pdf: PDFDocument): Found[] {
  const catalog = pdf.catalog;
  const tree = nameTreeValues(dictAt(dictAt(catalog, "Names"), "EmbeddedFiles"), 0, new Set());
  const associated = items(arrayAt(catalog, "AF")).filter((v): v is PDFDict => v instanceof PDFDict);
  const annotated = pdf.getPages().flatMap((page, index) =>
    items(page.node.Annots()).flatMap((annot): Found[] => {
      if (!(annot instanceof PDFDict) || textOf(annot.lookup(key("Subtype"))) !== "FileAttachment") return [];
      const spec = annot.lookup(key("FS"));
      return spec instanceof PDFDict ? [{ spec, pages: [index + 1] }] : [];
    }),
  );
  return [...[...tree, ...associated].map((spec) => ({ spec, pages: null })), ...annotated];
}

/**
 * The embedded files of a PDF, each once (the same stream reached from the name tree and the AF array counts once;
 * an annotation's file keeps its page). Never throws for a damaged PDF: it then has none.
 */
export async function readPdfAttachments(bytes: Uint8Array): Promise<PdfAttachment[]> {
  let pdf: PDFDocument;
  try {
    pdf = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
  } catch {
    return [];
  }
  const out: PdfAttachment[] = [];
  const streams = new Map<PDFRef | PDFRawStream, PdfAttachment>();
  let budget = LIMITS.maxExpandedBytes;
  try {
    for (const found of fileSpecs(pdf).slice(0, MAX_FILES)) {
      const files = dictAt(found.spec, "EF");
      const ref = files?.get(key("UF")) ?? files?.get(key("F"));
      const stream = ref ? pdf.context.lookup(ref) : undefined;
      if (!(stream instanceof PDFRawStream)) continue;
      const id = ref instanceof PDFRef ? ref : stream;
      const known = streams.get(id);
      if (known) {
        if (found.pages && known.pages) known.pages.push(...found.pages.filter((p) => !known.pages?.includes(p)));
        continue;
      }
      const data = decodeStream(stream, budget);
      if (!data) continue;
      budget -= data.byteLength;
      const attachment = attachmentOf(found, stream, data);
      streams.set(id, attachment);
      out.push(attachment);
    }
  } catch {
    // A damaged object met on the walk ends it: the files found so far stand.
  }
  return out;
}
