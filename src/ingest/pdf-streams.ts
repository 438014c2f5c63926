/**
 * Decompression bombs in a PDF's streams, found before pdf.js sees the file. pdf.js decodes a content stream, form,
 * font or object stream whole into memory, and Flate reaches about 1000:1 (LZW 2700:1, chained filters multiply):
 * a 1 MB stream of deflated zeros is a 1 GB buffer per read, several reads per page.
 *
 * Every stream counts, whatever its dictionary claims: pdf.js reads an object stream or a content stream whole even
 * when its dictionary says `/Subtype /Image`. Only an image codec's own output (DCT, JPX, JBIG2, CCITT) is left to
 * the pixel limit, which pdf.js applies to what images declare (openPdf's maxImageSize); the bytes of the filters
 * before such a codec still count, and a JPEG or JPEG 2000 header declaring more pixels than the limit counts its
 * pixels.
 *
 * The file is scanned as bytes (`stream` ... `endstream`), not parsed, so a broken xref or a damaged object cannot
 * hide a stream. A stream's filters are read from every `/Filter` between the previous stream and it (names
 * unescaped, indirect filter arrays resolved), so a key, a string or the word `obj` in a dictionary cannot hide
 * them; each chain found is counted, and so is the chain the data itself shows (a zlib header, hex or ASCII85 text,
 * stage after stage), for a dictionary this scan misreads. Nothing is held in memory: each chain is decoded as a
 * stream and only the sizes of its stages' outputs are counted (pdf.js keeps each stage's buffer), up to what the
 * limit leaves. JBIG2 and CCITT output is not bounded here beyond the pixel limit pdf.js applies to images.
 */
import { DocsiftError } from "../domain/errors.js";
import { LIMITS } from "./limits.js";
import { ascii85, asciiHex, brotli, type Decoder, inflate, lzw, runLength } from "./pdf-decoders.js";

interface RawStream {
  /** The file's text from the end of the previous stream up to this one's `stream` keyword. */
  region: string;
  data: Uint8Array;
}

/**
 * Every `stream` ... `endstream` body with the text before it, back to the previous stream's end. The body runs to
 * the first `endstream` or as far as the largest `/Length` before it says, whichever is longer: pdf.js believes a
 * correct /Length, so the word `endstream` inside the data must not cut what is counted.
 */
function* rawStreams(bytes: Uint8Array, text: string, objects: ObjectIndex): Generator<RawStream> {
  const keyword = /(?<![A-Za-z])stream(?:\r\n|\n|\r)/g;
  let previousEnd = 0;
  for (let match = keyword.exec(text); match; match = keyword.exec(text)) {
    const start = match.index + match[0].length;
    const end = text.indexOf("endstream", start);
    const region = text.slice(previousEnd, match.index);
    const declared = integersOf(region, "Length", objects).reduce((a, b) => Math.max(a, b), 0);
    const dataEnd = Math.min(bytes.length, Math.max(end < 0 ? bytes.length : end, start + declared));
    yield { region, data: bytes.subarray(start, dataEnd) };
    if (end < 0) return;
    previousEnd = end + "endstream".length;
    keyword.lastIndex = previousEnd;
  }
}

/** Full names of the abbreviations pdf.js accepts, so one chain written two ways is counted once. */
const FULL_NAME: Record<string, string> = {
  Fl: "FlateDecode",
  LZW: "LZWDecode",
  A85: "ASCII85Decode",
  AHx: "ASCIIHexDecode",
  RL: "RunLengthDecode",
  DCT: "DCTDecode",
  JPX: "JPXDecode",
  CCF: "CCITTFaxDecode",
};

const IMAGE_CODECS = new Set(["DCTDecode", "JPXDecode", "JBIG2Decode", "CCITTFaxDecode"]);

function decoderFor(name: string, earlyChange: number): Decoder | undefined {
  switch (name) {
    case "FlateDecode":
      return inflate;
    case "LZWDecode":
      return lzw(earlyChange);
    case "ASCII85Decode":
      return ascii85;
    case "ASCIIHexDecode":
      return asciiHex;
    case "RunLengthDecode":
      return runLength;
    case "BrotliDecode":
      return brotli;
    default:
      // pdf.js passes the data of a filter it does not know through unchanged.
      return undefined;
  }
}

const SPACE = "\\0\\t\\n\\f\\r ";
const GAP = new RegExp(`(?:[${SPACE}]|%[^\\r\\n]*)*`, "y");
const NAME = new RegExp(`/([^${SPACE}/<>\\[\\]{}()%]*)`, "y");
const REF = new RegExp(`(\\d+)[${SPACE}]+(\\d+)[${SPACE}]+R(?![A-Za-z])`, "y");
const FILTER_KEY = new RegExp(`/([^${SPACE}/<>\\[\\]{}()%]*)`, "g");

function skipGap(text: string, at: number): number {
  GAP.lastIndex = at;
  GAP.exec(text);
  return GAP.lastIndex;
}

/** A name as pdf.js reads it: `#xx` escapes decoded, abbreviations expanded. */
function nameAt(text: string, at: number): { name: string; end: number } | undefined {
  NAME.lastIndex = at;
  const match = NAME.exec(text);
  if (!match) return undefined;
  const name = (match[1] ?? "").replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
  return { name: FULL_NAME[name] ?? name, end: NAME.lastIndex };
}

function refAt(text: string, at: number): { ref: string; end: number } | undefined {
  REF.lastIndex = at;
  const match = REF.exec(text);
  return match ? { ref: `${match[1]} ${match[2]}`, end: REF.lastIndex } : undefined;
}

/** Where each `N G obj` of the file starts its value, built once and only for files with indirect filters. */
const MAX_DEFINITIONS = 8;

interface ObjectIndex {
  (ref: string): number[];
  /** The text the positions are in. */
  text: string;
}

function objectIndex(text: string): ObjectIndex {
  let index: Map<string, number[]> | undefined;
  const find = (ref: string): number[] => {
    if (!index) {
      index = new Map();
      const header = new RegExp(`(?<!\\d)(\\d+)[${SPACE}]+(\\d+)[${SPACE}]+obj(?![A-Za-z])`, "g");
      for (const m of text.matchAll(header)) {
        const key = `${m[1]} ${m[2]}`;
        index.set(key, [...(index.get(key) ?? []), m.index + m[0].length]);
      }
    }
    // The last definitions only: an incremental update's is the one read, and a file defining one object
    // thousands of times must not make each reference cost thousands of parses.
    return (index.get(ref) ?? []).slice(-MAX_DEFINITIONS);
  };
  return Object.assign(find, { text });
}

/** The filter names of a value: a name, an array of names and references, or (when `resolve`) a reference. */
function filterValues(text: string, at: number, objects: ObjectIndex, resolve: boolean): string[][] {
  const start = skipGap(text, at);
  const name = nameAt(text, start);
  if (name) return [[name.name]];
  const ref = refAt(text, start);
  if (ref) {
    if (!resolve) return [];
    return objects(ref.ref).flatMap((position) => filterValues(objects.text, position, objects, false));
  }
  if (text[start] !== "[") return [];
  const chain: string[] = [];
  for (let i = skipGap(text, start + 1); i < text.length && text[i] !== "]"; i = skipGap(text, i)) {
    const item = nameAt(text, i);
    const itemRef = item ? undefined : refAt(text, i);
    if (item) {
      chain.push(item.name);
      i = item.end;
    } else if (itemRef) {
      // An indirect element: its last definition, as an incremental update leaves it.
      const resolved = objects(itemRef.ref).flatMap((position) => filterValues(objects.text, position, objects, false));
      chain.push(...(resolved[resolved.length - 1] ?? []));
      i = itemRef.end;
    } else break;
  }
  return [chain];
}

/** Every integer a `/<key>` in `region` gives, directly or by reference. */
function integersOf(region: string, key: string, objects: ObjectIndex): number[] {
  const values: number[] = [];
  const integerAt = (text: string, at: number): number | undefined => {
    const digits = /\d+/y;
    digits.lastIndex = skipGap(text, at);
    const match = digits.exec(text);
    return match ? Number(match[0]) : undefined;
  };
  for (const match of region.matchAll(FILTER_KEY)) {
    const name = nameAt(region, match.index);
    if (name?.name !== key) continue;
    const ref = refAt(region, skipGap(region, name.end));
    if (!ref) values.push(integerAt(region, name.end) ?? 0);
    else for (const position of objects(ref.ref)) values.push(integerAt(objects.text, position) ?? 0);
  }
  return values;
}

/** Whether `region` names `name` anywhere (escapes decoded), e.g. an object stream's `/Type /ObjStm`. */
function namesIn(region: string, name: string): boolean {
  for (const match of region.matchAll(FILTER_KEY)) if (nameAt(region, match.index)?.name === name) return true;
  return false;
}

/** Every filter chain a `/Filter` key in `region` names (`/Fil#74er` too); abbreviations as full names. */
export function declaredChains(region: string, objects: ObjectIndex = objectIndex(region)): string[][] {
  const chains: string[][] = [];
  for (const match of region.matchAll(FILTER_KEY)) {
    const key = nameAt(region, match.index);
    if (key?.name === "Filter") chains.push(...filterValues(region, key.end, objects, true));
  }
  return chains;
}

/**
 * Whether data starts with a zlib header (deflate, window <= 32K, check bits), which pdf.js's Flate decoder
 * requires.
 */
export function hasZlibHeader(data: Uint8Array): boolean {
  const cmf = data[0] ?? 0;
  const flg = data[1] ?? 0;
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0;
}

const SNIFF_BYTES = 64;
/** Bytes of each stage decoded while sniffing the next. */
const SNIFF_INPUT = 64 * 1024;
const SNIFF_STAGES = 8;

/** The filter the first bytes of data look encoded with: zlib, hex text or ASCII85 text; undefined for none. */
function sniffFilter(head: Uint8Array): string | undefined {
  if (hasZlibHeader(head)) return "FlateDecode";
  const text = Buffer.from(head)
    .toString("latin1")
    .replace(/[\0\t\n\f\r ]+/g, "");
  if (text.length < 8) return undefined;
  if (/^[0-9A-Fa-f]+>?$/.test(text.replace(/>.*$/s, ">"))) return "ASCIIHexDecode";
  if (/^[!-uz]+(~>?)?$/.test(text.replace(/~.*$/s, "~"))) return "ASCII85Decode";
  return undefined;
}

async function* once(data: Uint8Array): AsyncIterable<Uint8Array> {
  yield data;
}

/** The first `count` bytes a source gives (fewer if it ends first); reading stops there. */
async function headOf(source: AsyncIterable<Uint8Array>, count: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of source) {
    parts.push(chunk);
    size += chunk.length;
    if (size >= count) break;
  }
  return Buffer.concat(parts).subarray(0, count);
}

/**
 * The chain the data shows, stage after stage: each stage's first bytes decoded to pick the next. Only a bounded
 * head of each stage is decoded, so sniffing costs little whatever the data expands to.
 */
export async function sniffedChain(data: Uint8Array): Promise<string[]> {
  const chain: string[] = [];
  let head = data.subarray(0, SNIFF_INPUT);
  while (chain.length < SNIFF_STAGES) {
    const filter = sniffFilter(head.subarray(0, SNIFF_BYTES));
    const decoder = filter && decoderFor(filter, 1);
    if (!(filter && decoder)) break;
    chain.push(filter);
    head = await headOf(decoder(once(head)), SNIFF_INPUT);
  }
  // Text that merely looks like hex or ASCII85 (an uncompressed content stream does) counts only when a zlib stream
  // follows it: otherwise pdf.js would not decode it.
  while (chain.length > 0 && chain[chain.length - 1] !== "FlateDecode") chain.pop();
  return chain;
}

function be(bytes: Uint8Array, at: number, size: number): number {
  let value = 0;
  for (let i = 0; i < size; i++) value = value * 256 + (bytes[at + i] ?? 0);
  return value;
}

/** Pixels and components a JPEG declares in its frame header (SOFn), if `head` holds one. */
function jpegFrame(head: Uint8Array): { pixels: number; components: number } | undefined {
  for (let at = 2; at + 9 < head.length; at += 2 + be(head, at + 2, 2)) {
    if (head[at] !== 0xff) return undefined;
    const marker = head[at + 1] ?? 0;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { pixels: be(head, at + 5, 2) * be(head, at + 7, 2), components: head[at + 9] ?? 1 };
    if (marker === 0xda) return undefined;
  }
  return undefined;
}

/** Pixels and components a JPEG 2000 codestream declares in its SIZ marker, if `head` holds one. */
function jpxSize(head: Uint8Array): { pixels: number; components: number } | undefined {
  const at = Buffer.from(head).indexOf(Buffer.from([0xff, 0x51]));
  if (at < 0 || at + 40 > head.length) return undefined;
  const width = be(head, at + 6, 4) - be(head, at + 14, 4);
  const height = be(head, at + 10, 4) - be(head, at + 18, 4);
  return { pixels: Math.max(0, width) * Math.max(0, height), components: be(head, at + 38, 2) };
}

/** Head of a codec's input kept to read its declared size (a JPEG's frame header follows its APP segments). */
const CODEC_HEAD = 1024 * 1024;

/** What an image codec's output counts: nothing within the pixel limit, its declared bytes past it. */
function codecExpansion(codec: string, head: Uint8Array): number {
  const size = codec === "DCTDecode" ? jpegFrame(head) : codec === "JPXDecode" ? jpxSize(head) : undefined;
  if (!size || size.pixels <= LIMITS.maxPixels) return 0;
  return size.pixels * Math.max(1, size.components);
}

/** Passes chunks on, adding their sizes to `tally`; ends the stream once the tally passes `cap`. */
async function* counted(
  source: AsyncIterable<Uint8Array>,
  tally: { bytes: number },
  cap: number,
): AsyncIterable<Uint8Array> {
  for await (const chunk of source) {
    tally.bytes += chunk.length;
    yield chunk;
    if (tally.bytes > cap) return;
  }
}

/**
 * Bytes the chain's decoding filters make of `data`, every stage's output counted (pdf.js keeps each stage's
 * decoded buffer), at most about `cap` (then it stops early), plus what an image codec ending the chain counts. A
 * chain of no decoding filter counts nothing: the raw bytes are the file's.
 */
async function chainExpansion(data: Uint8Array, chain: string[], earlyChange: number, cap: number): Promise<number> {
  const codecAt = chain.findIndex((name) => IMAGE_CODECS.has(name));
  const decoders = (codecAt < 0 ? chain : chain.slice(0, codecAt)).flatMap((name) => {
    const decoder = decoderFor(name, earlyChange);
    return decoder ? [decoder] : [];
  });
  const codec = chain[codecAt];
  if (decoders.length === 0) return codec ? codecExpansion(codec, data.subarray(0, CODEC_HEAD)) : 0;
  const tally = { bytes: 0 };
  const source = decoders.reduce((s, decode) => counted(decode(s), tally, cap), once(data));
  const head: Uint8Array[] = [];
  let headSize = 0;
  for await (const chunk of source) {
    if (codec && headSize < CODEC_HEAD) {
      head.push(chunk.subarray(0, CODEC_HEAD - headSize));
      headSize += chunk.length;
    }
    if (tally.bytes > cap) return tally.bytes;
  }
  return tally.bytes + (codec ? codecExpansion(codec, Buffer.concat(head)) : 0);
}

function bombError(): DocsiftError {
  return new DocsiftError(
    "file_too_large",
    `The PDF's compressed content expands to more than ${LIMITS.maxExpandedBytes / 1024 / 1024} MiB (a decompression bomb); it is not read.`,
  );
}

/**
 * Refuses a PDF whose streams decode to more than LIMITS.maxExpandedBytes in all: no legitimate invoice or receipt
 * comes near it, while a bomb of a few MB goes far past it. Also refuses object streams declaring more than
 * LIMITS.maxPackedObjects objects: pdf.js parses every object of an object stream to fetch one, so millions of tiny
 * objects (a few MB, well under the expansion bound) cost seconds and a gigabyte of heap per fetch.
 */
export async function checkStreamExpansion(bytes: Uint8Array): Promise<void> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const objects = objectIndex(text);
  let total = 0;
  let packed = 0;
  for (const stream of rawStreams(bytes, text, objects)) {
    if (namesIn(stream.region, "ObjStm")) packed += integersOf(stream.region, "N", objects).reduce((a, b) => a + b, 0);
    if (packed > LIMITS.maxPackedObjects)
      throw new DocsiftError(
        "file_too_large",
        `The PDF's object streams declare more than ${LIMITS.maxPackedObjects.toLocaleString("en")} objects; it is not read.`,
      );
    const chains = new Map<string, string[]>();
    for (const chain of [...declaredChains(stream.region, objects), await sniffedChain(stream.data)])
      chains.set(chain.join(" "), chain);
    const earlyChange = /\/EarlyChange[\0\t\n\f\r ]*0(?![\d.])/.test(stream.region) ? 0 : 1;
    for (const chain of chains.values()) {
      total += await chainExpansion(stream.data, chain, earlyChange, LIMITS.maxExpandedBytes - total);
      if (total > LIMITS.maxExpandedBytes) throw bombError();
    }
  }
}
