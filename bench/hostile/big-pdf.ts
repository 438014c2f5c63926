/**
 * An honest large upload: a one-page PDF with a line of text (so no OCR) over a photo of noise, which does not
 * compress, so the file is about as large as the photo. It carries the copy, transfer and storage costs of the
 * largest uploads without any hostile structure, the anchor the hostile files' figures are read against.
 */
import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";

/** About `megabytes` MB (a square noise JPEG at quality 100 takes about 1.3 bytes a pixel). */
export async function photoPdf(megabytes: number): Promise<Uint8Array> {
  const side = Math.round(Math.sqrt((megabytes * 1024 * 1024) / 1.3));
  const photo = await sharp({
    create: { width: side, height: side, channels: 3, background: "#808080", noise: { type: "gaussian", sigma: 60 } },
  })
    .jpeg({ quality: 100 })
    .toBuffer();
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawImage(await doc.embedJpg(photo), { x: 40, y: 100, width: 515, height: 515 });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText("Invoice INV-PHOTO Total 99.00 EUR", { x: 50, y: 780, size: 14, font });
  return doc.save();
}
