/**
 * Fixture makers for ingest tests (and anyone else's): born-digital PDFs with words at known places, "scanned" PDFs
 * and images made by rasterising them with ingest's own renderPage, and deliberately bad files.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFRef, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import type { Box, Document } from "../../src/document/model.js";
import { ingest, renderPage } from "../../src/ingest/index.js";

/** A4 in points. */
export const A4 = { width: 595.28, height: 841.89 };

/** Helvetica's AFM metrics (per 1000 em): the glyph box of a word spans baseline + ascender to baseline + descender. */
const HELVETICA_ASCENDER = 718;
const HELVETICA_DESCENDER = -207;

export interface TextLine {
  text: string;
  /** Left end of the baseline, PDF points from the bottom-left corner. */
  x: number;
  y: number;
  size: number;
}

export interface ExpectedWord {
  text: string;
  /** Page ratios, origin top-left. */
  box: Box;
}

/** A receipt/invoice-like page whose words OCR reliably (plain words, 13-16 pt), for the text and OCR tests. */
export const SAMPLE_LINES: TextLine[] = [
  { text: "ACME Supplies Limited", x: 60, y: 780, size: 16 },
  { text: "Invoice Number INV-2024-0042", x: 60, y: 740, size: 13 },
  { text: "Invoice Date 15 March 2024", x: 60, y: 715, size: 13 },
  { text: "Customer Northwind Traders", x: 60, y: 690, size: 13 },
  { text: "Description", x: 60, y: 630, size: 13 },
  { text: "Amount", x: 430, y: 630, size: 13 },
  { text: "Office chairs", x: 60, y: 605, size: 13 },
  { text: "840.00", x: 430, y: 605, size: 13 },
  { text: "Standing desk", x: 60, y: 580, size: 13 },
  { text: "394.56", x: 430, y: 580, size: 13 },
  { text: "Total Amount Due", x: 60, y: 540, size: 14 },
  { text: "1234.56 EUR", x: 430, y: 540, size: 14 },
  { text: "Payment within thirty days to our bank account", x: 60, y: 480, size: 13 },
];

/** A PDF with one page per entry of `pages`, each line drawn in Helvetica; returns the words' exact boxes too. */
export async function makeTextPdf(
  pages: TextLine[][],
  size = A4,
): Promise<{ bytes: Uint8Array; expected: ExpectedWord[][] }> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const expected = pages.map((lines) => {
    const page = doc.addPage([size.width, size.height]);
    return lines.flatMap((line) => {
      page.drawText(line.text, { x: line.x, y: line.y, size: line.size, font });
      const top = line.y + (HELVETICA_ASCENDER / 1000) * line.size;
      const bottom = line.y + (HELVETICA_DESCENDER / 1000) * line.size;
      return [...line.text.matchAll(/\S+/g)].map((m) => {
        const x0 = line.x + font.widthOfTextAtSize(line.text.slice(0, m.index), line.size);
        const x1 = x0 + font.widthOfTextAtSize(m[0], line.size);
        return {
          text: m[0],
          box: { x0: x0 / size.width, x1: x1 / size.width, y0: 1 - top / size.height, y1: 1 - bottom / size.height },
        };
      });
    });
  });
  return { bytes: await doc.save(), expected };
}

/** A line placed from the page's top: [text, x, points from the top, size], on an A4 page. */
export type PlacedLine = readonly [string, number, number, number];

/** An A4 text-layer PDF of `lines` in Helvetica, ingested as an upload would be. */
export async function placedTextDocument(lines: readonly PlacedLine[]): Promise<Document> {
  const { bytes } = await makeTextPdf([lines.map(([text, x, top, size]) => ({ text, x, y: A4.height - top, size }))]);
  return ingest(bytes, { concurrency: 1 });
}

/** Draws `lines` in Helvetica on page 1 of an existing PDF (a stamp on a scan, text over a background image). */
export async function drawLines(bytes: Uint8Array, lines: TextLine[]): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.getPage(0);
  for (const line of lines) page.drawText(line.text, { x: line.x, y: line.y, size: line.size, font });
  return doc.save();
}

/** An empty multi-page PDF (page-limit tests). */
export async function makeBlankPdf(pageCount: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pageCount; i++) doc.addPage([A4.width, A4.height]);
  return doc.save();
}

/** JPEG of page `pageNum` of any input, rendered with ingest's own renderer: a clean "scan". */
export async function scanAsJpeg(bytes: Uint8Array, pageNum = 1, dpi = 200): Promise<Buffer> {
  return sharp(await renderPage(bytes, pageNum, { dpi }))
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A PDF whose pages are the given images (JPEG), each filling an A4 page: a scanned document without text layer. */
export async function makeImagePdf(jpegs: Buffer[], size = A4): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const jpeg of jpegs) {
    const image = await doc.embedJpg(jpeg);
    doc.addPage([size.width, size.height]).drawImage(image, { x: 0, y: 0, width: size.width, height: size.height });
  }
  return doc.save();
}

/** A ToUnicode CMap sending every printable ASCII code to the Private Use Area: what broken subset fonts look like. */
const PRIVATE_USE_CMAP = `/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Garbage-UCS def
/CMapType 2 def
1 begincodespacerange
<00> <FF>
endcodespacerange
1 beginbfrange
<20> <7E> <E000>
endbfrange
endcmap
CMapName currentdict /CMap defineresource pop
end
end`;

/**
 * Adds an invisible text layer to page 1 whose font maps every character to private-use code points, as PDFs
 * with subset fonts lacking a Unicode map do: the page looks unchanged but its text layer is garbage.
 */
export async function withGarbageTextLayer(bytes: Uint8Array, text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.getPage(0).drawText(text, { x: 60, y: 700, size: 12, font, opacity: 0 });
  // pdf-lib writes the font dictionary only when saving, so the CMap is attached after a round trip.
  const saved = await PDFDocument.load(await doc.save());
  const cmap = saved.context.register(saved.context.stream(PRIVATE_USE_CMAP));
  const fonts = saved.getPage(0).node.Resources()?.lookup(PDFName.of("Font"), PDFDict);
  for (const [, ref] of fonts?.entries() ?? []) saved.context.lookup(ref, PDFDict).set(PDFName.of("ToUnicode"), cmap);
  return saved.save();
}

/**
 * `bytes` with page `pageNum` (1-based) made unreadable: its page dictionary is gone and its entry in the page tree
 * points to a number instead, so pdf.js cannot load that page (nor find it again by scanning the file).
 */
export async function withBrokenPage(bytes: Uint8Array, pageNum: number): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes);
  const kids = doc.catalog.Pages().Kids();
  const page = kids.get(pageNum - 1);
  if (page instanceof PDFRef) doc.context.delete(page);
  kids.set(pageNum - 1, doc.context.register(PDFNumber.of(7)));
  return doc.save({ useObjectStreams: false });
}

/** Appends pages of `extra` to `base` (mixed text + scanned PDFs). */
export async function concatPdfs(...parts: Uint8Array[]): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  for (const part of parts) {
    const src = await PDFDocument.load(part);
    for (const page of await out.copyPages(src, src.getPageIndices())) out.addPage(page);
  }
  return out.save();
}

/**
 * The upright image stored rotated 90 degrees counter-clockwise with EXIF orientation 6 ("rotate 90 clockwise to
 * display"), as phone cameras write portrait photos.
 */
export async function exifOrientation6Jpeg(upright: Buffer): Promise<Buffer> {
  return sharp(await sharp(upright).rotate(270).toBuffer())
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Encrypts with qpdf (AES-256). An empty user password gives an owner-password-only PDF, which must still open. */
export function encryptPdf(bytes: Uint8Array, userPassword: string, ownerPassword = "owner-secret"): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), "docsift-qpdf-"));
  try {
    writeFileSync(join(dir, "in.pdf"), bytes);
    execFileSync("qpdf", [
      "--encrypt",
      userPassword,
      ownerPassword,
      "256",
      "--",
      join(dir, "in.pdf"),
      join(dir, "out.pdf"),
    ]);
    return new Uint8Array(readFileSync(join(dir, "out.pdf")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A tiny PNG that declares width x height pixels (a decompression bomb's header): valid signature, IHDR, IEND. */
export function pngDeclaring(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(0, 9); // greyscale
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk("IHDR", ihdr), pngChunk("IEND", Buffer.alloc(0))]);
}

/** Share of `expected` words found in `actual` (multiset match on exact text). */
export function wordRecall(expected: readonly string[], actual: readonly string[]): number {
  const pool = new Map<string, number>();
  for (const w of actual) pool.set(w, (pool.get(w) ?? 0) + 1);
  let found = 0;
  for (const w of expected) {
    const left = pool.get(w) ?? 0;
    if (left > 0) {
      found++;
      pool.set(w, left - 1);
    }
  }
  return expected.length === 0 ? 1 : found / expected.length;
}
