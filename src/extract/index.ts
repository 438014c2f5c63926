/**
 * extract(): Document + field list + locale -> one Field per requested field, in order. Pure and synchronous; the
 * worker and the CLI share it. Each family of fields is computed at most once and only when a requested field needs
 * it, so asking for receipts never pays for invoice parties.
 */
import type { FieldDef } from "../catalog/catalog.js";
import { guessLanguage } from "../document/language-guess.js";
import type { Document } from "../document/model.js";
import { LINE_ITEM_FIELDS, type LineItemCellBox } from "../domain/line-items.js";
import type { ExtractedField, Field, LineItemsField, ResultWarning } from "../domain/result.js";
import { accentedCopies, withAccentsFromCopies } from "./accent-copies.js";
import { type AmountRole, chooseAmounts } from "./amounts.js";
import { confidenceOf } from "./calibration.js";
import { amountCandidates, dateCandidates, outsideDates } from "./candidates.js";
import { creditSigned } from "./credit-sign.js";
import { chooseDates } from "./dates.js";
import { applyModel, type FieldDecision, toField } from "./decision.js";
import { guessDocumentType } from "./document-type.js";
import { headerRepairFor } from "./header-lexicon.js";
import {
  accountNumber,
  bic,
  bsb,
  currency,
  documentNumber,
  iban,
  paymentReference,
  purchaseOrder,
  supplierTaxId,
  time,
} from "./identifiers.js";
import { buildLayout, fullText } from "./layout.js";
import { type CellBox, extractLineItems, type LineItemTable } from "./line-items/index.js";
import { inferLocale } from "./locale-infer.js";
import type { RankerModel } from "./model/ranker.js";
import RANKERS from "./model/rankers.json" with { type: "json" };
import { localeHints } from "./normalise/locale.js";
import { withOrdinalSigns } from "./ordinal-signs.js";
import { customer, merchant, supplier } from "./parties.js";
import { withPostcodeSpaces } from "./postcode-spaces.js";
import { repairFromRepeats } from "./repeated-words.js";

export interface ExtractOptions {
  /** BCP 47 tag of the upload; decides ambiguous dates and number formats. */
  locale?: string;
  /**
   * Learned rankers (model/ranker.ts): the committed model/rankers.json by default; null keeps the hand-set scoring
   * (what `npm run train` and the out-of-sample bench start from).
   */
  model?: RankerModel | null;
}

/** The fields of a document and what a reader of them should know (line_items_sum_mismatch). */
export interface Extraction {
  fields: ExtractedField[];
  warnings: ResultWarning[];
}

/** The amounts a credit note printed positive gives negative. */
const CREDIT_SIGNED = ["invoice.subtotal", "invoice.tax", "invoice.total", "invoice.amountDue"] as const;

/** Confidence that a document carries no line-item table when none was read (no calibration curve yet). */
const NO_TABLE_CONFIDENCE = 0.5;

/** Currency a country's documents are in when nothing is printed; used only with an explicit locale. */
const COUNTRY_CURRENCY: Readonly<Record<string, string>> = {
  AT: "EUR",
  BE: "EUR",
  DE: "EUR",
  ES: "EUR",
  FI: "EUR",
  FR: "EUR",
  GR: "EUR",
  IE: "EUR",
  IT: "EUR",
  LU: "EUR",
  NL: "EUR",
  PT: "EUR",
  AU: "AUD",
  CA: "CAD",
  CH: "CHF",
  GB: "GBP",
  JP: "JPY",
  MY: "MYR",
  NZ: "NZD",
  SG: "SGD",
  US: "USD",
  IN: "INR",
  HK: "HKD",
  SE: "SEK",
  NO: "NOK",
  DK: "DKK",
  PL: "PLN",
};

function once<T>(compute: () => T): () => T {
  let done = false;
  let value: T | undefined;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value as T;
  };
}

/** Everything extract() computes lazily for one document: each field's decider and what the special fields need. */
function plan(document: Document, options: ExtractOptions) {
  const layout = buildLayout(document);
  const text = once(() => fullText(layout));
  const languageGuess = once(() => guessLanguage(text()));
  const language = once(() => languageGuess().language);
  const given = localeHints(options.locale);
  const locale = once(() => inferLocale(given, text(), language()));
  const dates = once(() => dateCandidates(layout, locale().hints));
  const amounts = once(() => outsideDates(amountCandidates(layout, locale().hints), dates()));
  const invoiceAmounts = once(() =>
    chooseAmounts(layout, amounts(), ["total", "subtotal", "tax", "amountDue"] satisfies AmountRole[], false),
  );
  const receiptAmounts = once(() => chooseAmounts(layout, amounts(), ["total", "tax"], true));
  const docType = once(() => {
    const total = invoiceAmounts().total.best;
    return guessDocumentType(layout, total !== null && Number(total.value) < 0);
  });
  const isReceipt = once(() => docType().value === "receipt");
  const invoiceDates = once(() => chooseDates(layout, dates(), locale().orderSource, false));
  const receiptDates = once(() => chooseDates(layout, dates(), locale().orderSource, true));
  const documentDates = once(() => (isReceipt() ? receiptDates() : invoiceDates()));
  const supplierParty = once(() =>
    supplier(layout, (customerBlock) => supplierTaxId(layout, customerBlock).best?.words ?? []),
  );
  const customerParty = once(() => {
    const { name, address, lettering } = supplierParty();
    return customer(layout, [...(name.best?.words ?? []), ...(address.best?.words ?? []), ...(lettering ?? [])]);
  });
  const merchantParty = once(() => {
    const lexicon = headerRepairFor(language());
    const repeats = repairFromRepeats([...layout.wordsById.values()]);
    return merchant(layout, (word) => repeats(lexicon(word)));
  });
  const ibanDecision = once(() => iban(layout));
  const accents = once(() => accentedCopies(layout));
  // An address OCR read: ordinal signs and postcode spaces it misread put back.
  const ocrAddress = (address: FieldDecision): FieldDecision =>
    withPostcodeSpaces(withOrdinalSigns(address, language()));
  const fallbackCurrency = given.country ? (COUNTRY_CURRENCY[given.country] ?? null) : null;
  const currencyDecision = once(() =>
    currency(
      layout,
      amounts().map((a) => ({ currency: a.currency, words: a.words })),
      locale().hints,
      fallbackCurrency,
    ),
  );

  const deciders: Record<string, () => FieldDecision> = {
    "invoice.number": () => documentNumber(layout, false),
    "invoice.date": () => invoiceDates().issue,
    "invoice.dueDate": () => invoiceDates().due,
    "invoice.purchaseOrderNo": () => purchaseOrder(layout),
    "invoice.currency": currencyDecision,
    "invoice.subtotal": () => invoiceAmounts().subtotal,
    "invoice.tax": () => invoiceAmounts().tax,
    "invoice.total": () => invoiceAmounts().total,
    "invoice.amountDue": () => invoiceAmounts().amountDue,
    "supplier.name": () => withAccentsFromCopies(supplierParty().name, accents),
    "supplier.address": () => ocrAddress(supplierParty().address),
    "supplier.taxId": () =>
      supplierTaxId(layout, [
        ...(customerParty().name.best?.words ?? []),
        ...(customerParty().address.best?.words ?? []),
      ]),
    "customer.name": () => withAccentsFromCopies(customerParty().name, accents),
    "customer.address": () => ocrAddress(customerParty().address),
    "payment.iban": ibanDecision,
    "payment.bic": () => bic(layout, ibanDecision().best?.words ?? []),
    "payment.bsb": () => bsb(layout),
    "payment.accountNo": () => accountNumber(layout),
    "payment.reference": () => paymentReference(layout),
    "receipt.merchantName": () => merchantParty().name,
    "receipt.merchantAddress": () => ocrAddress(merchantParty().address),
    "receipt.date": () => receiptDates().issue,
    "receipt.time": () => time(layout),
    "receipt.total": () => receiptAmounts().total,
    "receipt.tax": () => receiptAmounts().tax,
    "receipt.currency": currencyDecision,
    "document.date": () => documentDates().issue,
    "document.referenceNo": () => documentNumber(layout, isReceipt()),
  };

  // document.type is decided like any field; document.language is special-cased in extract().
  deciders["document.type"] = () => {
    const guess = docType();
    const words = guess.wordIds.map((id) => layout.wordsById.get(id)).filter((w) => w !== undefined);
    return { family: "documentType", best: { value: guess.value, score: guess.score, words } };
  };

  const model = options.model === undefined ? (RANKERS as RankerModel) : options.model;
  if (model) for (const [name, decide] of Object.entries(deciders)) deciders[name] = () => applyModel(decide(), model);

  // A credit note that prints its total positive: its totals are given negative, as the catalogue says credits are.
  // Its rows stay as printed (README), and so the rows' sum is checked against the totals as printed.
  const asPrinted = { ...deciders };
  const creditPrintedPositive = once(
    () => docType().value === "credit_note" && Number(asPrinted["invoice.total"]?.().best?.value ?? 0) > 0,
  );
  for (const name of CREDIT_SIGNED) {
    const decide = asPrinted[name];
    if (decide) deciders[name] = () => (creditPrintedPositive() ? creditSigned(decide()) : decide());
  }

  const pageOfWord = (id: number): number => {
    const place = layout.wordPlace.get(id);
    return (place && layout.segments[place.segment]?.pageNum) ?? 1;
  };
  // The sum is checked against the subtotal and total the result gives (withheld candidates are no printed amount).
  const printed = (name: string): string | null => {
    const decide = asPrinted[name];
    return decide ? toField(name, decide(), pageOfWord).value : null;
  };
  const invoiceTable = once(() =>
    extractLineItems(document, {
      locale: locale().hints,
      kind: "invoice",
      subtotal: printed("invoice.subtotal"),
      total: printed("invoice.total"),
      tax: printed("invoice.tax"),
    }),
  );
  // A receipt's items add up to its total (tax included) or, where it prints one, to its subtotal.
  const receiptTable = once(() =>
    extractLineItems(document, {
      locale: locale().hints,
      kind: "receipt",
      subtotal: printed("invoice.subtotal"),
      total: printed("receipt.total"),
    }),
  );
  const lineItems = (name: string, requested: ReadonlySet<string>): LineItemTable | null => {
    const isInvoiceField = name === LINE_ITEM_FIELDS.invoice;
    // Both requested (the lineItems field set): the table goes to the one of the document's kind, the other is null.
    const both = requested.has(LINE_ITEM_FIELDS.invoice) && requested.has(LINE_ITEM_FIELDS.receipt);
    if (both && isInvoiceField === isReceipt()) return null;
    return isInvoiceField ? invoiceTable() : receiptTable();
  };
  return { deciders, pageOfWord, language, languageGuess, given, lineItems };
}

function cellBox(box: CellBox): LineItemCellBox {
  return {
    cell: box.cell,
    pageNum: box.page,
    topLeft: { x: box.box.x0, y: box.box.y0 },
    bottomRight: { x: box.box.x1, y: box.box.y1 },
    tokenIds: box.tokenIds,
  };
}

/**
 * A table as the catalogue's line-items field. Its confidence is the table's, raised halfway to 0.99 when every
 * row whose quantity, unit price and amount are all read closes and the sum closes too: the arithmetic then
 * vouches for the reading from two sides.
 */
export function lineItemsField(name: string, table: LineItemTable | null): Field | LineItemsField {
  if (table === null || table.rows.length === 0) {
    return { name, value: null, confidence: NO_TABLE_CONFIDENCE, boundingBox: null };
  }
  const { checks } = table;
  const arithmeticCloses = checks.sumCheck?.closes === true && checks.rowsOpen === 0 && checks.rowsClosing > 0;
  const confidence = arithmeticCloses ? table.confidence + (0.99 - table.confidence) / 2 : table.confidence;
  const tokenIds = table.rows
    .flatMap((r) => r.boundingBoxes.filter((b) => b.page === table.page))
    .flatMap((b) => b.tokenIds);
  return {
    name,
    value: table.rows.map(({ boundingBoxes, ...cells }) => ({ ...cells, boundingBoxes: boundingBoxes.map(cellBox) })),
    confidence: Math.round(confidence * 1000) / 1000,
    boundingBox: {
      pageNum: table.page,
      topLeft: { x: table.box.x0, y: table.box.y0 },
      bottomRight: { x: table.box.x1, y: table.box.y1 },
      tokenIds: [...new Set(tokenIds)],
    },
  };
}

/** The `line_items_sum_mismatch` warning of a table whose amounts do not add up to the printed amount, if any. */
export function lineItemsWarning(name: string, table: LineItemTable | null): ResultWarning | null {
  const check = table?.checks.sumCheck;
  if (!table || !check || check.closes) return null;
  return {
    code: "line_items_sum_mismatch",
    page: table.page,
    field: name,
    message: `${name}: the rows' amounts add up to ${check.found}, the ${check.against} printed is ${check.expected}; rows may be missing or misread.`,
  };
}

export function extract(
  document: Document,
  fields: readonly FieldDef[],
  options: ExtractOptions = {},
): ExtractedField[] {
  return extractResult(document, fields, options).fields;
}

/** extract() with the warnings a result carries about its fields. */
export function extractResult(
  document: Document,
  fields: readonly FieldDef[],
  options: ExtractOptions = {},
): Extraction {
  const { deciders, pageOfWord, language, languageGuess, given, lineItems } = plan(document, options);
  const requested = new Set(fields.map((f) => f.name));
  const warnings: ResultWarning[] = [];
  const out = fields.map((def): ExtractedField => {
    if (def.type === "lineItems") {
      const table = lineItems(def.name, requested);
      const warning = lineItemsWarning(def.name, table);
      if (warning) warnings.push(warning);
      return lineItemsField(def.name, table);
    }
    if (def.name === "document.language") {
      const value = language() ?? given.language ?? null;
      const confidence = value ? confidenceOf("language", language() ? languageGuess().score : 0) : 0.5;
      return { name: def.name, value, confidence, boundingBox: null };
    }
    const decide = deciders[def.name];
    if (!decide) return { name: def.name, value: null, confidence: 0.5, boundingBox: null };
    return toField(def.name, decide(), pageOfWord);
  });
  return { fields: out, warnings };
}

/**
 * The raw decisions (value, raw score, words, family) behind the named fields, before calibration turns them into
 * confidences: what bench/calibrate.ts fits the curves of calibration.ts on. Fields without a decider are left out.
 */
export function rawDecisions(
  document: Document,
  names: readonly string[],
  options: ExtractOptions = {},
): Map<string, FieldDecision> {
  const { deciders } = plan(document, options);
  const out = new Map<string, FieldDecision>();
  for (const name of names) {
    const decide = deciders[name];
    if (decide) out.set(name, decide());
  }
  return out;
}
