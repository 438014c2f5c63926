/**
 * A thin drawing surface over pdf-lib with a top-left origin (like the Document model) and page handling,
 * so layouts read top to bottom and stay free of PDF coordinate arithmetic.
 */
import { grayscale, type PDFDocument, type PDFFont, type PDFPage, StandardFonts } from "pdf-lib";

export type FontFamily = "Helvetica" | "Times" | "Courier";

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

const FAMILY_FONTS: Record<FontFamily, readonly [StandardFonts, StandardFonts]> = {
  Helvetica: [StandardFonts.Helvetica, StandardFonts.HelveticaBold],
  Times: [StandardFonts.TimesRoman, StandardFonts.TimesRomanBold],
  Courier: [StandardFonts.Courier, StandardFonts.CourierBold],
};

export async function embedFamily(doc: PDFDocument, family: FontFamily): Promise<Fonts> {
  const [regular, bold] = FAMILY_FONTS[family];
  return { regular: await doc.embedFont(regular), bold: await doc.embedFont(bold) };
}

export interface TextStyle {
  size: number;
  bold?: boolean;
  align?: "left" | "right" | "center";
  /** Grey level 0 (black) .. 1 (white). */
  grey?: number;
}

export class Sheet {
  readonly pages: PDFPage[] = [];

  constructor(
    private readonly doc: PDFDocument,
    readonly width: number,
    readonly height: number,
    readonly fonts: Fonts,
  ) {
    this.addPage();
  }

  get page(): PDFPage {
    return this.pages[this.pages.length - 1]!;
  }

  addPage(): PDFPage {
    const page = this.doc.addPage([this.width, this.height]);
    this.pages.push(page);
    return page;
  }

  measure(text: string, style: TextStyle): number {
    return (style.bold ? this.fonts.bold : this.fonts.regular).widthOfTextAtSize(text, style.size);
  }

  /** Draws one line of text whose top is at `top` points from the page top; x is the anchor given by align. */
  text(text: string, x: number, top: number, style: TextStyle, page: PDFPage = this.page): void {
    if (text === "") return;
    const width = this.measure(text, style);
    const left = style.align === "right" ? x - width : style.align === "center" ? x - width / 2 : x;
    page.drawText(text, {
      x: left,
      y: this.height - top - style.size * 0.8,
      size: style.size,
      font: style.bold ? this.fonts.bold : this.fonts.regular,
      color: grayscale(style.grey ?? 0),
    });
  }

  rule(x1: number, x2: number, top: number, thickness = 0.6, grey = 0.3, page: PDFPage = this.page): void {
    page.drawLine({
      start: { x: x1, y: this.height - top },
      end: { x: x2, y: this.height - top },
      thickness,
      color: grayscale(grey),
    });
  }

  box(x: number, top: number, w: number, h: number, fill: number | null, border: boolean): void {
    this.page.drawRectangle({
      x,
      y: this.height - top - h,
      width: w,
      height: h,
      ...(fill === null ? {} : { color: grayscale(fill) }),
      ...(border ? { borderColor: grayscale(0.3), borderWidth: 0.6 } : {}),
    });
  }

  /** Largest size <= wanted at which text fits in maxWidth. */
  fit(text: string, wanted: number, maxWidth: number, bold: boolean): number {
    let size = wanted;
    while (size > 6 && this.measure(text, { size, bold }) > maxWidth) size -= 0.5;
    return size;
  }
}
