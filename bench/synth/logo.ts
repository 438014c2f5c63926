/**
 * A logo as a picture: the supplier's brand in large letters beside a drawn mark, embedded as an image, so a
 * born-digital page holds no text for it while a scan of the page shows OCR its lettering ("cronus" over the seller's
 * "CRONUS DE" block). Drawn with pdf-lib's standard fonts and rasterised by poppler (scan.ts), both deterministic.
 */
import { grayscale, PDFDocument, type PDFImage, StandardFonts } from "pdf-lib";
import type { Rng } from "./prng.js";
import { rasterise } from "./scan.js";

export interface Logo {
  image: PDFImage;
  /** Size on the page, in points. */
  width: number;
  height: number;
}

/** The brand a logo spells: the name's first word, or its first two when the first is shorter than four letters. */
export function brandOf(name: string): string {
  const words = name.split(/\s+/).filter((w) => w.length > 0);
  const first = words[0] ?? name;
  return first.replace(/[^\p{L}\p{N}]/gu, "").length >= 4 || words.length < 2 ? first : `${first} ${words[1]}`;
}

/** Draws the logo of `name` into `doc` as an image (one PNG at 200 dpi, a page's scan resolution). */
export async function letteredLogo(doc: PDFDocument, name: string, rng: Rng): Promise<Logo> {
  const brand = brandOf(name);
  const lettering = rng.pick([brand, brand.toUpperCase(), brand.toLowerCase()]);
  const size = rng.float(18, 28);
  const art = await PDFDocument.create({ updateMetadata: false });
  const font = await art.embedFont(
    rng.pick([StandardFonts.HelveticaBold, StandardFonts.TimesRomanBold, StandardFonts.HelveticaBoldOblique]),
  );
  const mark = size * 1.1;
  const width = mark + size * 0.5 + font.widthOfTextAtSize(lettering, size) + 4;
  const height = size * 1.5;
  const page = art.addPage([width, height]);
  const tone = grayscale(rng.float(0, 0.4));
  if (rng.chance(0.5)) page.drawCircle({ x: mark / 2, y: height / 2, size: mark / 2, color: tone });
  else page.drawRectangle({ x: 0, y: (height - mark) / 2, width: mark, height: mark, color: tone });
  page.drawText(lettering, { x: mark + size * 0.5, y: height / 2 - size * 0.35, size, font, color: tone });
  const [png] = await rasterise(await art.save());
  if (!png) throw new Error("poppler rendered no page of the logo");
  return { image: await doc.embedPng(png), width, height };
}
