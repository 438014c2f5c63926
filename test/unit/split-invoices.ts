/**
 * Generated invoices for the split tests (unit and service): born-digital PDFs made with pdf-lib through the shared
 * fixture maker, each with its own supplier, number, date and items, of any page count, with or without
 * "Page i of n" markers. Not a test file itself.
 */
import { makeTextPdf, type TextLine } from "../helpers/pdf-fixtures.js";

export interface InvoiceSpec {
  supplier: string;
  number: string;
  /** dd.mm.yyyy */
  date: string;
  pages: number;
  markers: boolean;
}

export const THREE_INVOICES: InvoiceSpec[] = [
  { supplier: "Acme Supplies Limited", number: "INV-2024-0042", date: "15.03.2024", pages: 2, markers: true },
  { supplier: "Northwind Traders", number: "NW-77310", date: "02.04.2024", pages: 1, markers: false },
  { supplier: "Globex Corporation", number: "GX-5521-B", date: "28.02.2024", pages: 3, markers: true },
];

const ITEMS_PER_PAGE = 14;

/** The text lines of each page of one invoice. */
export function invoicePages(spec: InvoiceSpec): TextLine[][] {
  const pages: TextLine[][] = [];
  let item = 1;
  for (let p = 1; p <= spec.pages; p++) {
    const lines: TextLine[] = [];
    let y = 780;
    if (p === 1) {
      lines.push({ text: spec.supplier, x: 60, y, size: 16 });
      lines.push({ text: "12 Market Street, London", x: 60, y: y - 20, size: 11 });
      lines.push({ text: "INVOICE", x: 60, y: y - 70, size: 20 });
      lines.push({ text: `Invoice Number ${spec.number}`, x: 60, y: y - 100, size: 12 });
      lines.push({ text: `Invoice Date ${spec.date}`, x: 60, y: y - 120, size: 12 });
      lines.push({ text: "Bill to Contoso Retail", x: 60, y: y - 140, size: 12 });
      y -= 190;
      lines.push({ text: "Description", x: 60, y, size: 12 }, { text: "Amount", x: 460, y, size: 12 });
      y -= 24;
    }
    const rows = p === 1 ? ITEMS_PER_PAGE - 6 : ITEMS_PER_PAGE;
    for (let r = 0; r < rows; r++) {
      lines.push({ text: `Consulting service item ${item}`, x: 60, y, size: 12 });
      lines.push({ text: `${(item * 7.5).toFixed(2)}`, x: 460, y, size: 12 });
      item += 1;
      y -= 22;
    }
    if (p === spec.pages) {
      y -= 10;
      lines.push({ text: "Total Amount Due", x: 60, y, size: 13 }, { text: "1234.56 GBP", x: 440, y, size: 13 });
    }
    if (spec.markers) lines.push({ text: `Page ${p} of ${spec.pages}`, x: 480, y: 40, size: 10 });
    pages.push(lines);
  }
  return pages;
}

/** One PDF holding the given invoices one after another, optionally with a blank page after some of them. */
export async function invoiceBundle(
  specs: readonly InvoiceSpec[],
  blankAfter: readonly number[] = [],
): Promise<Uint8Array> {
  const pages: TextLine[][] = [];
  specs.forEach((spec, i) => {
    pages.push(...invoicePages(spec));
    if (blankAfter.includes(i)) pages.push([]);
  });
  return (await makeTextPdf(pages)).bytes;
}
