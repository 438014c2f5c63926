import {
  decodePDFRawStream,
  PDFArray,
  PDFBool,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  type PDFObject,
  type PDFPage,
  PDFRawStream,
} from "pdf-lib";

/**
 * The normal scanned page: one JPEG drawn over the whole page and nothing else. Its raw DCTDecode bytes can be
 * decoded natively (libjpeg-turbo via sharp) instead of by pdf.js' JavaScript decoder, which costs about half of a
 * page render. Anything less plain (other filters, masks, colour tricks, extra drawing) is left to the renderer.
 */
export interface FullPageJpeg {
  /** The image XObject's raw stream: a complete JPEG file. */
  jpeg: Uint8Array;
  /** Mirror left-right / top-bottom as the page's matrix draws it (before rotation). */
  flipX: boolean;
  flipY: boolean;
  /** The page's /Rotate, clockwise degrees, as a viewer (and pdf.js' viewport) applies it. */
  rotate: 0 | 90 | 180 | 270;
  /** The visible page (crop box within media box) in PDF points, before rotation. */
  pageWidth: number;
  pageHeight: number;
}

/** How far (share of the page side) the image may miss the page edge and still count as covering it exactly. */
const EDGE_TOLERANCE = 0.002;
/** Content-stream operators a plain scan page uses; anything else (text, paths, graphics states) means render. */
const PLAIN_OPS = new Set(["q", "Q", "cm", "Do"]);
/** Colour spaces whose JPEG decodes to the same pixels in libjpeg and pdf.js (no CMYK/Adobe inversion subtleties). */
const PLAIN_COLOUR_SPACES = new Set(["DeviceGray", "DeviceRGB", "CalGray", "CalRGB"]);

type Matrix = [number, number, number, number, number, number];

/** m1 then m2 (PDF row-vector convention: the result maps a point through m1 first). */
function multiply(m1: Matrix, m2: Matrix): Matrix {
  const [a, b, c, d, e, f] = m1;
  const [A, B, C, D, E, F] = m2;
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** The PDF to read raw image streams from, or undefined when pdf-lib cannot (encrypted, damaged): then render. */
export async function loadScanSource(bytes: Uint8Array): Promise<PDFDocument | undefined> {
  try {
    return await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: true });
  } catch {
    return undefined;
  }
}

/** Tokens of a content stream, or undefined if it holds anything but numbers, names and operators. */
function tokens(content: string): string[] | undefined {
  const out: string[] = [];
  for (const m of content.matchAll(/\/[^\s/[\]()<>{}%]*|[-+]?(?:\d+\.?\d*|\.\d+)|[A-Za-z]+|\S/g)) {
    const t = m[0];
    if (!/^(?:\/|[-+.\d]|[A-Za-z])/.test(t)) return undefined;
    out.push(t);
  }
  return out;
}

/** The one image XObject name drawn and the matrix it is drawn with, if the page does nothing else. */
function singleDraw(content: string): { name: string; ctm: Matrix } | undefined {
  const toks = tokens(content);
  if (!toks) return undefined;
  let ctm = IDENTITY;
  const stack: Matrix[] = [];
  const operands: string[] = [];
  let drawn: { name: string; ctm: Matrix } | undefined;
  for (const t of toks) {
    if (/^[/+\-.\d]/.test(t)) {
      operands.push(t);
      continue;
    }
    if (!PLAIN_OPS.has(t)) return undefined;
    if (t === "q") stack.push(ctm);
    else if (t === "Q") ctm = stack.pop() ?? ctm;
    else if (t === "cm") {
      const m = operands.slice(-6).map(Number);
      if (operands.length !== 6 || m.some((v) => !Number.isFinite(v))) return undefined;
      ctm = multiply(m as Matrix, ctm);
    } else {
      const name = operands[0];
      if (drawn || operands.length !== 1 || !name?.startsWith("/")) return undefined;
      drawn = { name: name.slice(1), ctm };
    }
    operands.length = 0;
  }
  return operands.length === 0 ? drawn : undefined;
}

function contentText(page: PDFPage): string | undefined {
  const contents = page.node.Contents();
  const refs: PDFObject[] = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
  const parts: string[] = [];
  for (const ref of refs) {
    const stream = page.doc.context.lookup(ref);
    if (!(stream instanceof PDFRawStream)) return undefined;
    parts.push(Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1"));
  }
  return parts.join("\n");
}

function nameOf(value: PDFObject | undefined): string | undefined {
  return value instanceof PDFName ? value.decodeText() : undefined;
}

/** The image's raw bytes if it is a plain 8-bit JPEG with nothing (mask, decode array, odd colours) to apply. */
function plainJpeg(page: PDFPage, name: string): Uint8Array | undefined {
  const xobjects = page.node.Resources()?.lookupMaybe(PDFName.of("XObject"), PDFDict);
  const image = xobjects?.lookup(PDFName.of(name));
  if (!(image instanceof PDFRawStream)) return undefined;
  const dict = image.dict;
  const lookup = (key: string) => dict.lookup(PDFName.of(key));
  if (nameOf(lookup("Subtype")) !== "Image") return undefined;
  let filter = lookup("Filter");
  if (filter instanceof PDFArray && filter.size() === 1) filter = filter.lookup(0);
  if (nameOf(filter) !== "DCTDecode") return undefined;
  if (["SMask", "Mask", "Decode", "SMaskInData"].some((k) => dict.has(PDFName.of(k)))) return undefined;
  const mask = lookup("ImageMask");
  if (mask instanceof PDFBool && mask.asBoolean()) return undefined;
  const bits = lookup("BitsPerComponent");
  if (bits instanceof PDFNumber && bits.asNumber() !== 8) return undefined;
  if (!plainColourSpace(lookup("ColorSpace"))) return undefined;
  return image.contents;
}

function plainColourSpace(space: PDFObject | undefined): boolean {
  const plain = nameOf(space);
  if (plain) return PLAIN_COLOUR_SPACES.has(plain);
  if (!(space instanceof PDFArray) || space.size() < 1) return false;
  const family = nameOf(space.lookup(0));
  if (family === "CalGray" || family === "CalRGB") return true;
  if (family !== "ICCBased") return false;
  // An ICC profile of 1 or 3 components: pdf.js and libjpeg both give its plain grey or RGB samples.
  const profile: PDFObject | undefined = space.lookup(1);
  const n = profile instanceof PDFRawStream ? profile.dict.lookup(PDFName.of("N")) : undefined;
  return n instanceof PDFNumber && (n.asNumber() === 1 || n.asNumber() === 3);
}

/** The page's rotation as pdf.js normalises it: multiples of 90 only, else 0. */
function pageRotation(page: PDFPage): 0 | 90 | 180 | 270 {
  const angle = page.getRotation().angle;
  if (!Number.isFinite(angle) || angle % 90 !== 0) return 0;
  return (((angle % 360) + 360) % 360) as 0 | 90 | 180 | 270;
}

const near = (a: number, b: number, side: number): boolean => Math.abs(a - b) <= EDGE_TOLERANCE * side;

/**
 * The page's full-page JPEG (page `pageNum`, 1-based), or undefined when the page is anything but one plain JPEG
 * drawn axis-aligned over exactly the visible page (then the caller renders the page as before).
 */
export function fullPageJpeg(source: PDFDocument, pageNum: number): FullPageJpeg | undefined {
  try {
    const page = source.getPage(pageNum - 1);
    const media = page.getMediaBox();
    const crop = page.getCropBox();
    // pdf.js shows the crop box clipped to the media box.
    const x0 = Math.max(media.x, crop.x);
    const y0 = Math.max(media.y, crop.y);
    const x1 = Math.min(media.x + media.width, crop.x + crop.width);
    const y1 = Math.min(media.y + media.height, crop.y + crop.height);
    const pageWidth = x1 - x0;
    const pageHeight = y1 - y0;
    if (!(pageWidth > 0 && pageHeight > 0)) return undefined;
    const content = contentText(page);
    const draw = content === undefined ? undefined : singleDraw(content);
    if (!draw) return undefined;
    const [a, b, c, d, e, f] = draw.ctm;
    // Only axis-aligned placements: the unit square spans e..e+a horizontally and f..f+d vertically.
    if (b !== 0 || c !== 0) return undefined;
    const [left, right] = [Math.min(e, e + a), Math.max(e, e + a)];
    const [bottom, top] = [Math.min(f, f + d), Math.max(f, f + d)];
    const covers =
      near(left, x0, pageWidth) &&
      near(right, x1, pageWidth) &&
      near(bottom, y0, pageHeight) &&
      near(top, y1, pageHeight);
    if (!covers) return undefined;
    const jpeg = plainJpeg(page, draw.name);
    if (!jpeg) return undefined;
    // Image row 0 is the unit square's top (y = 1): upright when d > 0, mirrored when a or d is negative.
    return { jpeg, flipX: a < 0, flipY: d < 0, rotate: pageRotation(page), pageWidth, pageHeight };
  } catch {
    // A damaged object anywhere on the way: the renderer copes (or reports) as it always has.
    return undefined;
  }
}
