/**
 * Which attachment of a PDF is its e-invoice, and what it states. Factur-X / ZUGFeRD name the file (factur-x.xml,
 * zugferd-invoice.xml, ZUGFeRD-invoice.xml, xrechnung.xml); other XML attachments are read too, in case they are a
 * CII or UBL invoice under another name, but only a file named as an e-invoice is reported invalid when it cannot
 * be read: an unrelated XML attachment (a delivery note, a signature) is no broken invoice.
 */
import { isCii, readCii } from "./cii.js";
import type { EInvoice } from "./model.js";
import { readUbl, UBL_ROOTS } from "./ubl.js";
import { InvalidXml, parseXml } from "./xml.js";

/** An embedded file as ingest finds it (src/ingest/pdf-attachments.ts). */
export interface AttachedFile {
  name: string;
  mimeType: string | null;
  bytes: Uint8Array;
}

export type EInvoiceReading =
  | { kind: "none" }
  | { kind: "invoice"; file: string; invoice: EInvoice }
  | { kind: "invalid"; file: string; reason: string };

const INVOICE_NAMES = new Set(["factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml"]);

const isNamedInvoice = (file: AttachedFile): boolean => INVOICE_NAMES.has(file.name.trim().toLowerCase());
const isXml = (file: AttachedFile): boolean =>
  /\.xml$/i.test(file.name.trim()) || /[/+]xml$/i.test(file.mimeType ?? "");

/** The e-invoice an XML text holds; InvalidXml when it is not one or states no invoice fact. */
export function readInvoiceXml(xml: string): EInvoice {
  const root = parseXml(xml);
  const invoice = isCii(root) ? readCii(root) : UBL_ROOTS.has(root.name) ? readUbl(root) : null;
  if (!invoice) throw new InvalidXml(`the XML's document element <${root.name}> is neither a CII nor a UBL invoice`);
  if (!invoice.fields.has("invoice.number") && !invoice.fields.has("invoice.total"))
    throw new InvalidXml("the XML states neither an invoice number nor a total");
  return invoice;
}

export function readEInvoice(attachments: readonly AttachedFile[]): EInvoiceReading {
  const candidates = attachments
    .filter((a) => isNamedInvoice(a) || isXml(a))
    .sort((a, b) => Number(isNamedInvoice(b)) - Number(isNamedInvoice(a)));
  let invalid: EInvoiceReading | undefined;
  for (const file of candidates) {
    try {
      const text = new TextDecoder("utf-8", { ignoreBOM: false }).decode(file.bytes);
      return { kind: "invoice", file: file.name, invoice: readInvoiceXml(text) };
    } catch (err) {
      // Whatever goes wrong reading an attachment, the file still gets its page reading.
      const reason = err instanceof InvalidXml ? err.message : `it could not be read: ${String(err)}`;
      if (isNamedInvoice(file)) invalid ??= { kind: "invalid", file: file.name, reason };
    }
  }
  return invalid ?? { kind: "none" };
}
