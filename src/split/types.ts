import type { WordSource } from "../document/model.js";
import type { PageMarker } from "./markers.js";

/** What split detection returns: one entry per sub-document found in an upload. */
export interface PageRange {
  /** 1-based page numbers of this sub-document, in order; blank separator pages are in no range. */
  pages: number[];
  /** 0..1: how sure detection is of this range's two ends (the weakest of its boundary decisions). */
  confidence: number;
}

/** What one page shows about where it sits in a document (see page-features.ts). */
export interface PageFeatures {
  pageNum: number;
  blank: boolean;
  marker: PageMarker | null;
  /** A document title (Invoice, Rechnung, Facture, Receipt, Credit note...) in the top part of the page. */
  title: boolean;
  /** A date in the top part of the page. */
  topDate: boolean;
  /** A totals label (Total, Summe, Zahlbetrag, Montant TTC...) below the top part of the page. */
  closing: boolean;
  /** "Continued on next page", "Übertrag", "Suite au verso"...: the document goes on. */
  continues: boolean;
  /** Document number, supplier name, tax id and IBAN as extraction reads them on this page alone (null if none). */
  number: string | null;
  /** The document number sits in the top part of the page, where first pages print it. */
  numberAtTop: boolean;
  supplier: string | null;
  taxId: string | null;
  iban: string | null;
  source: WordSource;
  /** Page width / height. */
  aspect: number;
  width: number;
  height: number;
  /** Folded text of the first lines, for "same header" comparisons. */
  header: string;
  /** Median word height as a page ratio: a proxy for the font size of the body. */
  bodySize: number;
}
