/**
 * Decompression bombs in a PDF's streams, found before pdf.js sees the file. pdf.js decodes a content stream, form,
 * font or object stream whole into memory, and Flate reaches about 1000:1: a 1 MB stream of deflated zeros is a
 * 1 GB buffer per read, several reads per page. Image streams are left out: pdf.js reads only the bytes their
 * declared size needs, and the declared size is bounded by the pixel limit (see openPdf's maxImageSize).
 *
 * The file is scanned as bytes (`stream` ... `endstream`), not parsed, so a broken xref or a damaged object cannot
 * hide a stream, and nothing is held in memory: each stream is inflated as a stream and only its size is counted.
 */
import { createInflate } from "node:zlib";
import { DocsiftError } from "../domain/errors.js";
import { LIMITS } from "./limits.js";

/** How far before `stream` its dictionary is looked for (dictionaries of real streams are a few hundred bytes). */
const DICT_WINDOW = 4096;
const INFLATE_CHUNK = 1024 * 1024;

interface RawStream {
  dict: string;
  data: Uint8Array;
}

/** Every `stream` ... `endstream` body with the dictionary text before it (back to the previous `obj`). */
function* rawStreams(bytes: Uint8Array): Generator<RawStream> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const keyword = /(?<![A-Za-z])stream(?:\r\n|\n|\r)/g;
  for (let match = keyword.exec(text); match; match = keyword.exec(text)) {
    const start = match.index + match[0].length;
    const end = text.indexOf("endstream", start);
    const head = text.slice(Math.max(0, match.index - DICT_WINDOW), match.index);
    const objAt = head.lastIndexOf("obj");
    yield { dict: objAt >= 0 ? head.slice(objAt) : head, data: bytes.subarray(start, end < 0 ? undefined : end) };
    if (end < 0) return;
    keyword.lastIndex = end + "endstream".length;
  }
}

/** The stream's filter names in order, e.g. ["FlateDecode", "FlateDecode"]; abbreviations as written. */
export function streamFilters(dict: string): string[] {
  const filter = /\/Filter\s*(\[[^\]]*\]|\/[^\s/<>[\]()]+)/.exec(dict)?.[1] ?? "";
  return [...filter.matchAll(/\/([^\s/<>[\]()]+)/g)].map((m) => m[1] ?? "");
}

function isImage(dict: string): boolean {
  return /\/Subtype\s*\/Image\b/.test(dict);
}

const FLATE = new Set(["FlateDecode", "Fl"]);
const RUN_LENGTH = new Set(["RunLengthDecode", "RL"]);

/** Decoded size of RunLength data, counted from its length bytes without decoding. */
export function runLengthSize(data: Uint8Array): number {
  let size = 0;
  let i = 0;
  while (i < data.length) {
    const n = data[i] ?? 128;
    if (n === 128) break; // end of data
    if (n < 128) {
      size += n + 1;
      i += n + 2;
    } else {
      size += 257 - n;
      i += 2;
    }
  }
  return size;
}

/**
 * Bytes that `stages` chained inflates make of `data`, counting at most `cap + 1` (then it stops early). Damaged
 * deflate data counts what inflated before the damage, as pdf.js also reads up to it.
 */
function inflatedSize(data: Uint8Array, stages: number, cap: number): Promise<number> {
  return new Promise((resolve) => {
    const inflates = Array.from({ length: stages }, () => createInflate({ chunkSize: INFLATE_CHUNK }));
    for (let i = 0; i + 1 < inflates.length; i++) inflates[i]?.pipe(inflates[i + 1] as NodeJS.WritableStream);
    const first = inflates[0];
    const last = inflates[inflates.length - 1];
    if (!first || !last) return resolve(0);
    let size = 0;
    const finish = (): void => {
      for (const inflate of inflates) inflate.destroy();
      resolve(size);
    };
    last.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) finish();
    });
    last.once("end", finish);
    for (const inflate of inflates) inflate.once("error", finish);
    first.end(data);
  });
}

/**
 * Whether data starts with a zlib header (deflate, window <= 32K, check bits), which pdf.js's Flate decoder
 * requires. Deciding by the data as well as by the dictionary means a dictionary this scan misreads cannot hide a
 * Flate stream.
 */
export function hasZlibHeader(data: Uint8Array): boolean {
  const cmf = data[0] ?? 0;
  const flg = data[1] ?? 0;
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0;
}

/** What the leading Flate or RunLength filters of a non-image stream decode to (0 for streams left to pdf.js). */
async function expandedSize(stream: RawStream, cap: number): Promise<number> {
  if (isImage(stream.dict)) return 0;
  const filters = streamFilters(stream.dict);
  if (RUN_LENGTH.has(filters[0] ?? "")) return runLengthSize(stream.data);
  let flates = 0;
  while (FLATE.has(filters[flates] ?? "")) flates++;
  if (flates === 0 && !hasZlibHeader(stream.data)) return 0;
  return inflatedSize(stream.data, Math.max(1, flates), cap);
}

/**
 * Refuses a PDF whose non-image streams decode to more than LIMITS.maxExpandedBytes in all: no legitimate invoice or
 * receipt comes near it, while a bomb of a few MB goes far past it.
 */
export async function checkStreamExpansion(bytes: Uint8Array): Promise<void> {
  let total = 0;
  for (const stream of rawStreams(bytes)) {
    total += await expandedSize(stream, LIMITS.maxExpandedBytes - total);
    if (total > LIMITS.maxExpandedBytes)
      throw new DocsiftError(
        "file_too_large",
        `The PDF's compressed content expands to more than ${LIMITS.maxExpandedBytes / 1024 / 1024} MiB (a decompression bomb); it is not read.`,
      );
  }
}
