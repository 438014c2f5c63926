/**
 * PDF stream filters as lazy, chunked decoders, for measuring what a stream expands to without holding it: each
 * takes and gives an async iterable of chunks, so a consumer that stops reading (at a size bound) stops the whole
 * chain, and no stage ever holds more than one chunk's output. They decode as pdf.js does (lenient: invalid bytes
 * are skipped, damaged data ends the stream), because pdf.js's reading is what they stand for.
 *
 * Hand-written rather than from npm: the packages found (ascii85, lzw-*) decode whole buffers and none implements
 * PDF's LZW (MSB-first codes, EarlyChange), while a bound needs decoders that stop mid-stream.
 */
import { Readable, type Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { constants, createBrotliDecompress, createInflate } from "node:zlib";

export type Decoder = (source: AsyncIterable<Uint8Array>) => AsyncIterable<Uint8Array>;

const OUT_CHUNK = 1024 * 1024;
/** Input slice of the expanding byte decoders: RunLength gives at most 64x, LZW about 2700x (11 MB) per 4 KB. */
const IN_SLICE = 4096;

async function* slices(source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  for await (const chunk of source)
    for (let at = 0; at < chunk.length; at += IN_SLICE) yield chunk.subarray(at, at + IN_SLICE);
}

/** A zlib transform over the source; a consumer that stops early destroys it, and damage ends it (as in pdf.js). */
function viaZlib(make: () => Transform): Decoder {
  return async function* (source) {
    const transform = make();
    const feeding = pipeline(Readable.from(source, { objectMode: false }), transform).catch(() => undefined);
    try {
      for await (const chunk of transform) yield chunk as Uint8Array;
    } catch {
      // Damaged data: what inflated before the damage is what pdf.js reads too.
    } finally {
      transform.destroy();
      await feeding;
    }
  };
}

export const inflate: Decoder = viaZlib(() => createInflate({ chunkSize: 64 * 1024 }));

export const brotli: Decoder = viaZlib(() =>
  createBrotliDecompress({ chunkSize: 64 * 1024, params: { [constants.BROTLI_DECODER_PARAM_LARGE_WINDOW]: 1 } }),
);

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

/** ASCIIHexDecode: hex digit pairs, anything else skipped, `>` ends; an odd last digit is followed by 0. */
export async function* asciiHex(source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  let high = -1;
  for await (const chunk of source) {
    const out = new Uint8Array((chunk.length >> 1) + 1);
    let n = 0;
    for (const c of chunk) {
      if (c === 0x3e) {
        if (high >= 0) out[n++] = high << 4;
        yield out.subarray(0, n);
        return;
      }
      const digit = hexValue(c);
      if (digit < 0) continue;
      if (high < 0) high = digit;
      else {
        out[n++] = (high << 4) | digit;
        high = -1;
      }
    }
    if (n > 0) yield out.subarray(0, n);
  }
  if (high >= 0) yield Uint8Array.of(high << 4);
}

/** The `count - 1` bytes of a base-85 group of `count` digits (padded with `u`, as the format says). */
function ascii85Group(digits: readonly number[], count: number): number[] {
  let value = 0;
  for (let i = 0; i < 5; i++) value = value * 85 + (i < count ? (digits[i] ?? 0) : 84);
  const bytes = [Math.floor(value / 2 ** 24) % 256, Math.floor(value / 2 ** 16) % 256, Math.floor(value / 256) % 256];
  bytes.push(value % 256);
  return bytes.slice(0, count - 1);
}

/** ASCII85Decode: groups of five digits `!`..`u` to four bytes, `z` for four zeros, `~` ends, the rest skipped. */
export async function* ascii85(source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  const digits: number[] = [];
  for await (const chunk of source) {
    const out = new Uint8Array(chunk.length * 4);
    let n = 0;
    for (const c of chunk) {
      if (c === 0x7e) {
        yield Uint8Array.from([
          ...out.subarray(0, n),
          ...(digits.length > 1 ? ascii85Group(digits, digits.length) : []),
        ]);
        return;
      }
      if (c === 0x7a && digits.length === 0) {
        n += 4; // four zero bytes: `out` is zero-filled
        continue;
      }
      if (c < 0x21 || c > 0x75) continue;
      digits.push(c - 0x21);
      if (digits.length === 5) {
        out.set(ascii85Group(digits, 5), n);
        n += 4;
        digits.length = 0;
      }
    }
    if (n > 0) yield out.subarray(0, n);
  }
  if (digits.length > 1) yield Uint8Array.from(ascii85Group(digits, digits.length));
}

/** RunLengthDecode: a length byte n < 128 copies n + 1 bytes, n > 128 repeats the next byte 257 - n times, 128 ends. */
export async function* runLength(source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  let literal = 0;
  let repeat = 0;
  for await (const chunk of slices(source)) {
    const out = new Uint8Array(chunk.length * 128);
    let n = 0;
    for (const b of chunk) {
      if (literal > 0) {
        out[n++] = b;
        literal--;
      } else if (repeat > 0) {
        out.fill(b, n, n + repeat);
        n += repeat;
        repeat = 0;
      } else if (b === 128) {
        yield out.subarray(0, n);
        return;
      } else if (b < 128) literal = b + 1;
      else repeat = 257 - b;
    }
    if (n > 0) yield out.subarray(0, n);
  }
}

const LZW_CLEAR = 256;
const LZW_END = 257;
const LZW_TABLE = 4096;

/**
 * LZWDecode as PDF defines it: codes of 9 to 12 bits, most significant bit first, 256 clears the table, 257 ends;
 * with EarlyChange 1 (the default) the code width grows one code early. An invalid code ends the stream.
 */
export function lzw(earlyChange: number): Decoder {
  return async function* (source) {
    const prefix = new Int32Array(LZW_TABLE);
    const suffix = new Uint8Array(LZW_TABLE);
    const first = new Uint8Array(LZW_TABLE);
    const length = new Uint32Array(LZW_TABLE);
    for (let i = 0; i < 256; i++) {
      prefix[i] = -1;
      suffix[i] = i;
      first[i] = i;
      length[i] = 1;
    }
    let next = 258;
    let width = 9;
    let previous = -1;
    let bits = 0;
    let bitCount = 0;
    let out = new Uint8Array(OUT_CHUNK);
    let n = 0;
    const write = (code: number): void => {
      const len = length[code] ?? 0;
      if (n + len > out.length) {
        const grown = new Uint8Array(Math.max(out.length * 2, n + len));
        grown.set(out.subarray(0, n));
        out = grown;
      }
      let at = n + len - 1;
      for (let c = code; c >= 0; c = prefix[c] ?? -1) out[at--] = suffix[c] ?? 0;
      n += len;
    };
    const add = (code: number, byte: number): void => {
      if (next >= LZW_TABLE) return;
      prefix[next] = code;
      suffix[next] = byte;
      first[next] = first[code] ?? 0;
      length[next] = (length[code] ?? 0) + 1;
      next++;
      if (next + earlyChange >= 1 << width && width < 12) width++;
    };
    /** Adds previous + its first byte and returns its code (the last one once the table is full). */
    const addKwKwK = (code: number): number => {
      add(code, first[code] ?? 0);
      return Math.min(next - 1, LZW_TABLE - 1);
    };
    for await (const chunk of slices(source)) {
      for (const b of chunk) {
        bits = ((bits << 8) | b) & 0xffffff;
        bitCount += 8;
        while (bitCount >= width) {
          let code = (bits >> (bitCount - width)) & ((1 << width) - 1);
          bitCount -= width;
          if (code === LZW_CLEAR) {
            next = 258;
            width = 9;
            previous = -1;
            continue;
          }
          if (code === LZW_END || (code >= next && previous < 0)) {
            yield out.slice(0, n);
            return;
          }
          // A code not yet in the table is read as pdf.js does: the previous string plus its own first byte.
          if (code >= next) code = addKwKwK(previous);
          else if (previous >= 0) add(previous, first[code] ?? 0);
          write(code);
          previous = code;
        }
      }
      if (n > 0) yield out.slice(0, n);
      n = 0;
    }
  };
}
