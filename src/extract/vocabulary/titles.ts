/**
 * Document titles ("Invoice", "Rechnung", "Facture d'avoir", "Resit"), per language: the one list that document.type,
 * split detection, the header reader and the label table take their title words from.
 *
 * Each title says what kind of document it names and which of those places use it. The places grew their lists
 * apart and each is tuned on its own corpus, so a title is not used everywhere it could be; a use is added only
 * with a measurement that shows it helps there:
 * - `type`: document.type scores the title by prominence (document-type.ts);
 * - `split`: a page carrying it near its top opens a document (split/page-features.ts; German compounds ending in
 *   "-rechnung" or "-gutschrift" open one by their suffix there, so they need no `split`);
 * - `header`: a header line saying only this is never the business's name (parties.ts);
 * - `label`: the title labels the document number printed after it ("Rechnung 2024-017"; labels.ts).
 */
import { DOCUMENT_TYPES } from "../../catalog/catalog.js";

export type DocumentKind = (typeof DOCUMENT_TYPES)[number];

/** The kinds document.type returns, and kinds of paper it does not (they still title a document). */
export type TitleKind = Exclude<DocumentKind, "other"> | "debit_note" | "delivery_order" | "quotation";

export type TitleUse = "type" | "split" | "header" | "label";

export interface Title {
  text: string;
  kind: TitleKind;
  uses: readonly TitleUse[];
}

/**
 * Titles by language (ISO 639-1) and by the kind of document they name, each as "title|uses"; a title shared by
 * several languages is listed once, under the first.
 */
const TITLES: Readonly<Record<string, Partial<Record<TitleKind, readonly string[]>>>> = {
  en: {
    invoice: [
      "invoice|type split header label",
      "tax invoice|type split header",
      "invoice no|type",
      "bill|type split header",
      "proforma invoice|type",
      "pro forma invoice|header",
      "proforma|header",
      "commercial invoice|type",
      "sales invoice|header",
      "cash invoice|header",
    ],
    credit_note: ["credit note|type split header label", "credit memo|type"],
    receipt: [
      "receipt|type split header label",
      "cash receipt|type header",
      "official receipt|type header",
      "sales receipt|type header",
      "tax receipt|header",
      "cash sales|type header",
      "cash sale|type header",
      "cash bill|type split header",
      "simplified tax invoice|type header",
    ],
    statement: ["statement|type header", "statement of account|type", "account statement|type", "bank statement|type"],
    debit_note: ["debit note|header"],
    delivery_order: ["delivery order|header"],
    quotation: ["quotation|header"],
  },
  de: {
    invoice: [
      "rechnung|type header label",
      "handelsrechnung|type label",
      "baurechnung|type label",
      "schlussrechnung|type label",
      "teilrechnung|type label",
      "abschlagsrechnung|type label",
    ],
    credit_note: [
      "gutschrift|type split header label",
      "rechnungskorrektur|type split label",
      "korrekturrechnung|type label",
      "stornorechnung|type split label",
      "storno|type",
    ],
    receipt: [
      "kassenbon|type split header",
      "quittung|type split header",
      "kassenbeleg|type",
      "beleg|header",
      "zahlungsbeleg|header",
      "zahlungsbestätigung|header",
    ],
    statement: ["kontoauszug|type"],
  },
  fr: {
    invoice: ["facture|type split header label"],
    credit_note: [
      "avoir|type split header label",
      // As "invoice no": the title with its number label, also when OCR glues them ("AVOIRN°").
      "avoir n°|type",
      "facture d'avoir|type label",
      "note de credit|type split",
    ],
    receipt: ["recu|type header", "ticket de caisse|type", "ticket|header label"],
    statement: ["releve|type", "releve de compte|type"],
  },
  nl: {
    invoice: ["factuur|type split header label"],
    credit_note: ["creditnota|type split label", "creditfactuur|type"],
    receipt: ["kassabon|type", "bon|type header"],
    statement: ["rekeningafschrift|type"],
  },
  es: {
    invoice: ["factura|type split header label"],
    credit_note: ["nota de credito|type split label", "abono|split"],
    receipt: ["recibo|type split header", "factura simplificada|label"],
    statement: ["extracto|type", "estado de cuenta|type"],
  },
  it: {
    invoice: ["fattura|type split label"],
    credit_note: ["nota di credito|type"],
    receipt: ["ricevuta|type"],
  },
  pt: {
    invoice: ["fatura|type"],
  },
  pl: {
    invoice: ["faktura|split"],
  },
  ms: {
    invoice: ["invois|type header", "invois cukai|header", "bil|header"],
    receipt: ["resit|type split header", "resit rasmi|header"],
    statement: ["penyata|type"],
  },
  id: {
    receipt: ["kwitansi|split"],
  },
};

const USES: readonly TitleUse[] = ["type", "split", "header", "label"];

function parseUse(word: string): TitleUse {
  const use = USES.find((u) => u === word);
  if (use === undefined) throw new Error(`unknown title use "${word}"`);
  return use;
}

const ALL: readonly Title[] = Object.values(TITLES).flatMap((kinds) =>
  (Object.entries(kinds) as Array<[TitleKind, readonly string[]]>).flatMap(([kind, rows]) =>
    rows.map((row) => {
      const [text = "", uses = ""] = row.split("|");
      return { text, kind, uses: uses.split(" ").map(parseUse) };
    }),
  ),
);

/** Every title with this use. */
export function titlesFor(use: TitleUse): Title[] {
  return ALL.filter((t) => t.uses.includes(use));
}

const DOCUMENT_KINDS: ReadonlySet<string> = new Set(DOCUMENT_TYPES);

/** A kind document.type can return (debit notes, delivery orders and quotations it does not tell apart). */
export function isDocumentKind(kind: TitleKind): kind is Exclude<DocumentKind, "other"> {
  return DOCUMENT_KINDS.has(kind);
}
