/**
 * Hostile inputs for the hardening tests and bench/hostile.ts: PDFs, PNGs and JPGs built byte by byte (or with
 * pdf-lib and sharp) that attack a parser, a decoder or the memory and time of a job, and the mutations (truncation,
 * bit flips, splices) a fuzzer applies to real files. Everything is generated: no binary fixture is committed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createDeflate, deflateSync } from "node:zlib";
import fc from "fast-check";
import sharp from "sharp";
import { pngDeclaring } from "./pdf-fixtures.js";

/** One PDF object body (what goes between `N 0 obj` and `endobj`); a Buffer for binary stream data. */
type PdfObject = string | Buffer;

/** A stream object with its dictionary entries (`/Length` is added) and raw data. */
function stream(dict: string, data: Buffer | string): Buffer {
  const bytes = typeof data === "string" ? Buffer.from(data, "latin1") : data;
  return Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${bytes.length} >>\nstream\n`, "latin1"),
    bytes,
    Buffer.from("\nendstream", "latin1"),
  ]);
}

/**
 * A PDF whose objects are numbered 1..n in order, with a correct xref table and trailer (`/Root 1 0 R`), unless
 * `xref` says how to break it.
 */
export function rawPdf(
  objects: readonly PdfObject[],
  options: { xref?: "ok" | "wrong-offsets" | "none" } = {},
): Buffer {
  const parts: Buffer[] = [Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  let length = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const part = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, "latin1"),
      typeof body === "string" ? Buffer.from(body, "latin1") : body,
      Buffer.from("\nendobj\n", "latin1"),
    ]);
    parts.push(part);
    length += part.length;
  });
  const mode = options.xref ?? "ok";
  const trailer = `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\n`;
  if (mode === "none") {
    parts.push(Buffer.from(`${trailer}startxref\n${length + 999_999}\n%%EOF\n`, "latin1"));
    return Buffer.concat(parts);
  }
  const shift = mode === "wrong-offsets" ? 7 : 0;
  const rows = offsets.map((o) => `${String(o + shift).padStart(10, "0")} 00000 n \n`).join("");
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${rows}`;
  parts.push(Buffer.from(`${xref}${trailer}startxref\n${length}\n%%EOF\n`, "latin1"));
  return Buffer.concat(parts);
}

const HELVETICA = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";
const TEXT = "BT /F1 14 Tf 60 760 Td (Invoice INV-77 Total 12.50 EUR) Tj ET";

/** Catalog, page tree and one page (objects 1-3) with the given page dictionary extras, contents and resources. */
function onePage(pageExtras: string, contents: PdfObject, more: readonly PdfObject[] = []): Buffer {
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R ${pageExtras} >>`,
    contents,
    HELVETICA,
    ...more,
  ]);
}

/** A page with the given MediaBox (e.g. enormous, zero-size or inverted) and a line of text. */
export function pdfWithMediaBox(box: readonly number[]): Buffer {
  return onePage(`/MediaBox [${box.join(" ")}]`, stream("", TEXT));
}

/** A page tree whose /Count claims `count` pages while holding one: the page limit must read the claim. */
export function pdfDeclaringPages(count: number): Buffer {
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [3 0 R] /Count ${count} >>`,
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    stream("", TEXT),
    HELVETICA,
  ]);
}

/** `count` real (empty) pages in a flat page tree: small on disk, far over the page limit. */
export function pdfWithManyPages(count: number): Buffer {
  const kids = Array.from({ length: count }, (_, i) => `${i + 3} 0 R`).join(" ");
  const pages = Array.from({ length: count }, () => "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>");
  return rawPdf(["<< /Type /Catalog /Pages 2 0 R >>", `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`, ...pages]);
}

/** A page tree that contains itself: a reader following /Kids naively never ends. */
export function pdfWithPageTreeCycle(): Buffer {
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
  ]);
}

/** An array nested `depth` deep inside the page dictionary (recursive parsers overflow their stack). */
export function pdfWithNestedArrays(depth: number): Buffer {
  return onePage(`/MediaBox [0 0 595 842] /Junk ${"[".repeat(depth)}${"]".repeat(depth)}`, stream("", TEXT));
}

/** Dictionaries nested `depth` deep inside the page dictionary. */
export function pdfWithNestedDicts(depth: number): Buffer {
  return onePage(`/MediaBox [0 0 595 842] /Junk ${"<< /A ".repeat(depth)}1${" >>".repeat(depth)}`, stream("", TEXT));
}

/** Form XObjects drawing each other `depth` deep in a chain that ends in a cycle (content recursion). */
export function pdfWithRecursiveForms(depth: number): Buffer {
  // Objects 6.. are the forms; form k draws form k+1, and the last draws the first again.
  const forms = Array.from({ length: depth }, (_, k) => {
    const next = k + 1 < depth ? k + 7 : 6;
    return stream(
      `/Type /XObject /Subtype /Form /BBox [0 0 595 842] /Resources << /XObject << /X ${next} 0 R >> >>`,
      "/X Do",
    );
  });
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /X 6 0 R >> /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    stream("", `${TEXT} /X Do`),
    HELVETICA,
    ...forms,
  ]);
}

/** A correct file whose xref offsets all point 7 bytes off, or with no xref at all: readers must reconstruct. */
export function pdfWithBrokenXref(mode: "wrong-offsets" | "none"): Buffer {
  return rawPdf(
    [
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
      stream("", TEXT),
      HELVETICA,
    ],
    { xref: mode },
  );
}

/** An /OpenAction and a page /AA running JavaScript: it must never run, and the text still reads. */
export function pdfWithJavaScript(): Buffer {
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R /OpenAction 6 0 R /Names << /JavaScript << /Names [(x) 6 0 R] >> >> >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R /AA << /O 6 0 R >> >>",
    stream("", TEXT),
    HELVETICA,
    "<< /S /JavaScript /JS (while(true){}; app.alert('x');) >>",
  ]);
}

/** Text in a font that names an embedded font program which is not there, and a font resource that is missing. */
export function pdfWithMissingFonts(): Buffer {
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    stream("", `${TEXT} BT /F9 12 Tf 60 700 Td (Missing font resource) Tj ET`),
    "<< /Type /Font /Subtype /TrueType /BaseFont /NoSuchFont-Bold /FirstChar 32 /LastChar 126 /FontDescriptor 6 0 R >>",
    "<< /Type /FontDescriptor /FontName /NoSuchFont-Bold /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 99 0 R >>",
  ]);
}

/** `mb` MiB of zeros deflated (about 1000:1). */
function zeros(mb: number): Buffer {
  return deflateSync(Buffer.alloc(mb * 1024 * 1024), { level: 9 });
}

/** A content stream that inflates to `mb` MiB of spaces-equivalent bytes (a decompression bomb in the page). */
export function pdfWithContentBomb(mb: number): Buffer {
  return onePage("/MediaBox [0 0 595 842]", stream("/Filter /FlateDecode", zeros(mb)));
}

/** An image XObject declaring `width` x `height` grey pixels over a small deflated stream, painted over the page. */
export function pdfWithImageBomb(width: number, height: number, mb = 1): Buffer {
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Im 5 0 R >> >> /Contents 4 0 R >>",
    stream("", "q 595 0 0 842 0 0 cm /Im Do Q"),
    stream(
      `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
      zeros(mb),
    ),
  ]);
}

/** `count` text-show operators on one page: an operator-count bomb that is small once deflated. */
export function pdfWithOperatorFlood(count: number): Buffer {
  const ops = "BT /F1 1 Tf 10 10 Td (x) Tj ET\n".repeat(count);
  return onePage("/MediaBox [0 0 595 842]", stream("/Filter /FlateDecode", deflateSync(Buffer.from(ops))));
}

/** A /Length that refers to itself, and a page whose /Contents is a reference to a missing object. */
export function pdfWithSelfReferences(): Buffer {
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents [4 0 R 77 0 R] >>",
    Buffer.concat([
      Buffer.from("<< /Length 4 0 R >>\nstream\n", "latin1"),
      Buffer.from(TEXT),
      Buffer.from("\nendstream"),
    ]),
  ]);
}

const paddedDeflates = new Map<string, Promise<Buffer>>();

/**
 * `prefix` followed by `mb` MiB of spaces, deflated as a stream (1 GiB of spaces is about 1 MB; nothing of that
 * size is held). Memoised: the hostile family shares its payloads.
 */
export function deflatedPadding(prefix: string, mb: number): Promise<Buffer> {
  const key = `${mb}:${prefix}`;
  const cached = paddedDeflates.get(key);
  if (cached) return cached;
  const made = (async () => {
    const deflate = createDeflate({ level: 9 });
    const out: Buffer[] = [];
    deflate.on("data", (chunk: Buffer) => out.push(chunk));
    const ended = new Promise((resolve) => deflate.once("end", resolve));
    deflate.write(Buffer.from(prefix, "latin1"));
    const spaces = Buffer.alloc(1024 * 1024, 0x20);
    for (let i = 0; i < mb; i++) {
      if (!deflate.write(spaces)) await new Promise((resolve) => deflate.once("drain", resolve));
    }
    deflate.end();
    await ended;
    return Buffer.concat(out);
  })();
  paddedDeflates.set(key, made);
  return made;
}

/**
 * A PDF 1.5 whose Catalog lives in a Flate object stream padded with `mb` MiB of spaces, the object stream's
 * dictionary also saying `claim` (e.g. `/Subtype /Image`, a key pdf.js ignores there), found through an xref stream.
 */
export async function pdfWithCatalogInObjectStream(mb: number, claim: string): Promise<Buffer> {
  const header = "1 0 ";
  const data = await deflatedPadding(`${header}<< /Type /Catalog /Pages 2 0 R >>\n`, mb);
  return withObjectStream(`/Type /ObjStm /N 1 /First ${header.length} /Filter /FlateDecode ${claim}`, data);
}

/**
 * A PDF 1.5 whose Catalog is the first of `count` objects of one Flate object stream (the rest are `0`): a few MB
 * that decode to far less than the expansion bound, but pdf.js parses every object of the stream to fetch the
 * Catalog, a parser attack on time and heap that no size check sees.
 */
export function pdfWithHugeObjectStream(count: number): Buffer {
  const catalog = "<< /Type /Catalog /Pages 2 0 R >> ";
  const numbers = [`1 0`];
  for (let i = 1; i < count; i++) numbers.push(`${i + 5} ${catalog.length + (i - 1) * 2}`);
  const header = `${numbers.join(" ")}\n`;
  const body = `${catalog}${"0 ".repeat(count - 1)}`;
  const data = deflateSync(Buffer.from(header + body, "latin1"), { level: 9 });
  return withObjectStream(`/Type /ObjStm /N ${count} /First ${header.length} /Filter /FlateDecode`, data);
}

/** Pages (2), a page (3), the object stream `objStm` (4) holding object 1 (the Catalog), and an xref stream (5). */
function withObjectStream(objStmDict: string, objStmData: Buffer): Buffer {
  const bodies = [
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
    stream(objStmDict, objStmData),
  ];
  const parts: Buffer[] = [Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  const offsets: number[] = [];
  let length = parts[0]?.length ?? 0;
  bodies.forEach((body, i) => {
    offsets.push(length);
    const part = Buffer.concat([
      Buffer.from(`${i + 2} 0 obj\n`, "latin1"),
      Buffer.from(body),
      Buffer.from("\nendobj\n"),
    ]);
    parts.push(part);
    length += part.length;
  });
  // Rows of /W [1 4 2]: type, offset (or object stream number), generation (or index in the object stream).
  const row = (type: number, field: number, index: number): Buffer => {
    const bytes = Buffer.alloc(7);
    bytes.writeUInt8(type, 0);
    bytes.writeUInt32BE(field, 1);
    bytes.writeUInt16BE(index, 5);
    return bytes;
  };
  const rows = Buffer.concat([
    row(0, 0, 65535),
    row(2, 4, 0),
    ...offsets.map((offset) => row(1, offset, 0)),
    row(1, length, 0),
  ]);
  parts.push(Buffer.from("5 0 obj\n", "latin1"));
  parts.push(stream("/Type /XRef /Size 6 /W [1 4 2] /Root 1 0 R", rows));
  parts.push(Buffer.from(`\nendobj\nstartxref\n${length}\n%%EOF\n`, "latin1"));
  return Buffer.concat(parts);
}

/** ASCII85 of `data`, with its `~>` end. */
export function ascii85(data: Uint8Array): string {
  let out = "";
  for (let at = 0; at < data.length; at += 4) {
    const group = data.subarray(at, at + 4);
    const value = [0, 1, 2, 3].reduce((v, i) => v * 256 + (group[i] ?? 0), 0);
    if (value === 0 && group.length === 4) {
      out += "z";
      continue;
    }
    const digits = [4, 3, 2, 1, 0].map((p) => String.fromCharCode(33 + (Math.floor(value / 85 ** p) % 85)));
    out += digits.slice(0, group.length + 1).join("");
  }
  return `${out}~>`;
}

/**
 * LZW (PDF's, EarlyChange 1) of `bytes` zero bytes: the codes for ever longer runs of zeros until the table is
 * full, then its longest run (3,839 zeros in 12 bits) again and again, about 2,500:1.
 */
export function lzwZeros(bytes: number): Buffer {
  const codes = [256, 0];
  let next = 258;
  let produced = 1;
  while (produced < bytes) {
    const code = Math.min(next, 4095);
    produced += code - 256;
    codes.push(code);
    if (next < 4096) next++;
  }
  codes.push(257);
  // Width as the decoder sees it: it grows once the table, one code early, reaches the next power of two.
  const bits: number[] = [];
  let width = 9;
  let table = 258;
  codes.forEach((code, i) => {
    for (let b = width - 1; b >= 0; b--) bits.push((code >> b) & 1);
    if (code === 256) {
      width = 9;
      table = 258;
    } else if (i > 1 && table < 4096) {
      table++;
      if (table + 1 >= 1 << width && width < 12) width++;
    }
  });
  const out = Buffer.alloc(Math.ceil(bits.length / 8));
  bits.forEach((bit, i) => {
    if (bit) out[i >> 3] = (out[i >> 3] ?? 0) | (0x80 >> (i & 7));
  });
  return out;
}

/** RunLength data repeating a space `bytes` times: 2 bytes per 128, the format's best (64:1). */
export function runLengthSpaces(bytes: number): Buffer {
  const runs = Math.ceil(bytes / 128);
  const out = Buffer.alloc(runs * 2 + 1);
  for (let i = 0; i < runs; i++) {
    out[i * 2] = 129;
    out[i * 2 + 1] = 0x20;
  }
  out[runs * 2] = 128;
  return out;
}

/** Ways of hiding a content-stream bomb from a scan of the dictionaries, each named for its trick. */
export type ContentBombKind =
  | "flate-subtype-image"
  | "hex-flate"
  | "a85-flate"
  | "lzw"
  | "runlength"
  | "hex-flate-obj-in-dict"
  | "hex-flate-escaped-key"
  | "hex-flate-indirect-filter";

/** A page whose content stream expands to about `mb` MiB through the filters `kind` names. */
export async function pdfWithHiddenContentBomb(kind: ContentBombKind, mb: number): Promise<Buffer> {
  const flate = (): Promise<Buffer> => deflatedPadding("BT /F1 12 Tf 60 760 Td (padded) Tj ET\n", mb);
  const hex = async (): Promise<string> => `${(await flate()).toString("hex")}>`;
  const page = (dict: string, data: Buffer | string, more: readonly PdfObject[] = []): Buffer =>
    onePage("/MediaBox [0 0 595 842]", stream(dict, data), more);
  switch (kind) {
    case "flate-subtype-image":
      return page("/Filter /FlateDecode /Subtype /Image", await flate());
    case "hex-flate":
      return page("/Filter [/ASCIIHexDecode /FlateDecode]", await hex());
    case "a85-flate":
      return page("/Filter [/ASCII85Decode /FlateDecode]", ascii85(await flate()));
    case "lzw":
      return page("/Filter /LZWDecode", lzwZeros(mb * 1024 * 1024));
    case "runlength":
      return page("/Filter /RunLengthDecode", runLengthSpaces(mb * 1024 * 1024));
    case "hex-flate-obj-in-dict":
      return page("/Filter [/AHx /Fl] /Note (see 9 0 obj) /Subtype /Image", await hex());
    case "hex-flate-escaped-key":
      return page("/Fil#74er [/ASCIIHexDecode /Fl#61teDecode] /Subtype /Image", await hex());
    case "hex-flate-indirect-filter":
      return page("/Filter 6 0 R", await hex(), ["[/ASCIIHexDecode /FlateDecode]"]);
  }
}

/** A JPEG header (SOF0) declaring `width` x `height` with no scan data behind it. */
export function jpegDeclaring(width: number, height: number): Buffer {
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x0b,
    0x08,
    (height >> 8) & 0xff,
    height & 0xff,
    (width >> 8) & 0xff,
    width & 0xff,
    0x01,
    0x01,
    0x11,
    0x00,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), sof, Buffer.from([0xff, 0xd9])]);
}

/** A real PNG of `width` x `height` white pixels: tiny when compressed, `width * height` bytes when decoded. */
export function whitePng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#ffffff" } })
    .greyscale()
    .png({ compressionLevel: 9 })
    .toBuffer();
}

export interface HostileFile {
  name: string;
  bytes: Uint8Array;
  /**
   * What a safe service does: refuse at upload with this 4xx code, or accept and end the job (FINALISED or FAILED
   * are both acceptable for a document that is odd but harmless).
   */
  expect: { refused: string } | "accepted";
}

/** The catalogue of hostile files, each named for its attack. */
export async function hostileFiles(): Promise<HostileFile[]> {
  return [
    { name: "png-declaring-50000x50000", bytes: pngDeclaring(50_000, 50_000), expect: { refused: "image_too_large" } },
    { name: "png-declaring-0x0", bytes: pngDeclaring(0, 0), expect: { refused: "corrupt_file" } },
    {
      name: "jpeg-declaring-65000x65000",
      bytes: jpegDeclaring(65_000, 65_000),
      expect: { refused: "corrupt_file" },
    },
    { name: "png-11000x11000-white", bytes: await whitePng(11_000, 11_000), expect: { refused: "image_too_large" } },
    { name: "pdf-declaring-100000-pages", bytes: pdfDeclaringPages(100_000), expect: "accepted" },
    { name: "pdf-with-5000-pages", bytes: pdfWithManyPages(5000), expect: { refused: "too_many_pages" } },
    { name: "pdf-page-tree-cycle", bytes: pdfWithPageTreeCycle(), expect: { refused: "corrupt_file" } },
    { name: "pdf-mediabox-enormous", bytes: pdfWithMediaBox([0, 0, 1e9, 1e9]), expect: "accepted" },
    { name: "pdf-mediabox-14400", bytes: pdfWithMediaBox([0, 0, 14_400, 14_400]), expect: "accepted" },
    { name: "pdf-mediabox-zero", bytes: pdfWithMediaBox([0, 0, 0, 0]), expect: "accepted" },
    { name: "pdf-mediabox-sliver", bytes: pdfWithMediaBox([0, 0, 1, 1e9]), expect: "accepted" },
    { name: "pdf-mediabox-inverted", bytes: pdfWithMediaBox([595, 842, 0, 0]), expect: "accepted" },
    { name: "pdf-nested-arrays-100000", bytes: pdfWithNestedArrays(100_000), expect: { refused: "corrupt_file" } },
    { name: "pdf-nested-dicts-100000", bytes: pdfWithNestedDicts(100_000), expect: { refused: "corrupt_file" } },
    { name: "pdf-recursive-forms", bytes: pdfWithRecursiveForms(50), expect: "accepted" },
    { name: "pdf-xref-wrong-offsets", bytes: pdfWithBrokenXref("wrong-offsets"), expect: "accepted" },
    { name: "pdf-xref-missing", bytes: pdfWithBrokenXref("none"), expect: "accepted" },
    { name: "pdf-javascript", bytes: pdfWithJavaScript(), expect: "accepted" },
    { name: "pdf-missing-fonts", bytes: pdfWithMissingFonts(), expect: "accepted" },
    { name: "pdf-self-references", bytes: pdfWithSelfReferences(), expect: "accepted" },
    { name: "pdf-content-bomb-1gib", bytes: pdfWithContentBomb(1024), expect: { refused: "file_too_large" } },
    { name: "pdf-image-bomb-100000x100000", bytes: pdfWithImageBomb(100_000, 100_000), expect: "accepted" },
    { name: "pdf-operator-flood-200k", bytes: pdfWithOperatorFlood(200_000), expect: "accepted" },
    {
      name: "pdf-objstm-3m-objects",
      bytes: pdfWithHugeObjectStream(3_000_000),
      expect: { refused: "file_too_large" },
    },
    ...(await streamBombFamily()),
  ];
}

/**
 * The family of issue #22: 1 GiB (RunLength, at its 64:1, 384 MiB) behind a dictionary that misleads a scan, each
 * refused at upload as a decompression bomb.
 */
export async function streamBombFamily(): Promise<HostileFile[]> {
  const refused = { refused: "file_too_large" };
  const kinds: ContentBombKind[] = [
    "flate-subtype-image",
    "hex-flate",
    "a85-flate",
    "lzw",
    "hex-flate-obj-in-dict",
    "hex-flate-escaped-key",
    "hex-flate-indirect-filter",
  ];
  return [
    {
      name: "pdf-objstm-catalog-subtype-image-1gib",
      bytes: await pdfWithCatalogInObjectStream(1024, "/Subtype /Image"),
      expect: refused,
    },
    ...(await Promise.all(
      kinds.map(async (kind) => ({
        name: `pdf-content-${kind}-1gib`,
        bytes: await pdfWithHiddenContentBomb(kind, 1024),
        expect: refused,
      })),
    )),
    { name: "pdf-content-runlength-384mib", bytes: await pdfWithHiddenContentBomb("runlength", 384), expect: refused },
  ];
}

/** A seeded mutation of a file, as the fuzz property and the bench draw them. */
export type Mutation =
  | { kind: "truncate"; at: number }
  | { kind: "flip"; bits: number[] }
  | { kind: "splice"; from: number; to: number; length: number }
  | { kind: "overwrite"; at: number; bytes: number[] };

/** Applies a mutation; positions are shares of the file (0..1) so one mutation fits files of any size. */
export function mutate(bytes: Uint8Array, mutation: Mutation): Uint8Array {
  const n = bytes.byteLength;
  const pos = (share: number): number => Math.min(n - 1, Math.max(0, Math.floor(share * n)));
  switch (mutation.kind) {
    case "truncate":
      return bytes.slice(0, Math.max(1, pos(mutation.at)));
    case "flip": {
      const out = bytes.slice();
      for (const bit of mutation.bits) {
        const i = pos(bit);
        out[i] = (out[i] ?? 0) ^ (1 << Math.floor((bit * n * 8) % 8));
      }
      return out;
    }
    case "splice": {
      // A block copied from one place of the file over another: structure-shaped garbage.
      const out = bytes.slice();
      const from = pos(mutation.from);
      const to = pos(mutation.to);
      out.set(bytes.subarray(from, Math.min(n, from + mutation.length, from + n - to)), to);
      return out;
    }
    case "overwrite": {
      const out = bytes.slice();
      out.set(mutation.bytes.slice(0, n - pos(mutation.at)), pos(mutation.at));
      return out;
    }
  }
}

/** Mutations as fast-check draws them: positions anywhere in the file, small blocks, a few dozen bits. */
export function mutationArbitrary(): fc.Arbitrary<Mutation> {
  // Uniform positions: fast-check's default bias toward bounds would mostly hit the first byte (the type check).
  const share = fc.noBias(fc.integer({ min: 0, max: 999_999 })).map((n) => n / 1_000_000);
  return fc.oneof(
    fc.record({ kind: fc.constant("truncate" as const), at: share }),
    fc.record({ kind: fc.constant("flip" as const), bits: fc.array(share, { minLength: 1, maxLength: 64 }) }),
    fc.record({
      kind: fc.constant("splice" as const),
      from: share,
      to: share,
      length: fc.integer({ min: 1, max: 4096 }),
    }),
    fc.record({
      kind: fc.constant("overwrite" as const),
      at: share,
      bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 32 }),
    }),
  );
}

/** Dev-corpus files to mutate: the `count` smallest of `dir` ending in `ext` (small files keep a fuzz run fast). */
export function smallestFiles(dir: string, ext: string, count: number): Uint8Array[] {
  return readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith(ext))
    .map((f) => new Uint8Array(readFileSync(join(dir, f))))
    .sort((a, b) => a.byteLength - b.byteLength)
    .slice(0, count);
}
