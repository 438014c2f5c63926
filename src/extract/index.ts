/**
 * extract(): Document + field list + locale -> one Field per requested field, in order. Pure and synchronous; the
 * worker and the CLI share it. Each family of fields is computed at most once and only when a requested field needs
 * it, so asking for receipts never pays for invoice parties.
 */
import type { FieldDef } from "../catalog/catalog.js";
import type { Document } from "../document/model.js";
import type { Field } from "../domain/result.js";
import { type AmountRole, chooseAmounts } from "./amounts.js";
import { confidenceOf } from "./calibration.js";
import { amountCandidates, dateCandidates } from "./candidates.js";
import { chooseDates } from "./dates.js";
import { type FieldDecision, toField } from "./decision.js";
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
import { guessLanguage } from "./language-guess.js";
import { buildLayout, fullText } from "./layout.js";
import { inferLocale } from "./locale-infer.js";
import { localeHints } from "./normalise/locale.js";
import { customer, merchant, supplier } from "./parties.js";

export interface ExtractOptions {
  /** BCP 47 tag of the upload; decides ambiguous dates and number formats. */
  locale?: string;
}

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
  const amounts = once(() => amountCandidates(layout, locale().hints));
  const dates = once(() => dateCandidates(layout, locale().hints));
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
  const supplierParty = once(() => supplier(layout));
  const customerParty = once(() => customer(layout, supplierParty().name.best?.words ?? []));
  const merchantParty = once(() => merchant(layout, headerRepairFor(language())));
  const ibanDecision = once(() => iban(layout));
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
    "supplier.name": () => supplierParty().name,
    "supplier.address": () => supplierParty().address,
    "supplier.taxId": () =>
      supplierTaxId(layout, [
        ...(customerParty().name.best?.words ?? []),
        ...(customerParty().address.best?.words ?? []),
      ]),
    "customer.name": () => customerParty().name,
    "customer.address": () => customerParty().address,
    "payment.iban": ibanDecision,
    "payment.bic": () => bic(layout, ibanDecision().best?.words ?? []),
    "payment.bsb": () => bsb(layout),
    "payment.accountNo": () => accountNumber(layout),
    "payment.reference": () => paymentReference(layout),
    "receipt.merchantName": () => merchantParty().name,
    "receipt.merchantAddress": () => merchantParty().address,
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

  const pageOfWord = (id: number): number => {
    const place = layout.wordPlace.get(id);
    return (place && layout.segments[place.segment]?.pageNum) ?? 1;
  };
  return { deciders, pageOfWord, language, languageGuess, given };
}

export function extract(document: Document, fields: readonly FieldDef[], options: ExtractOptions = {}): Field[] {
  const { deciders, pageOfWord, language, languageGuess, given } = plan(document, options);
  return fields.map((def): Field => {
    if (def.name === "document.language") {
      const value = language() ?? given.language ?? null;
      const confidence = value ? confidenceOf("language", language() ? languageGuess().score : 0) : 0.5;
      return { name: def.name, value, confidence, boundingBox: null };
    }
    const decide = deciders[def.name];
    if (!decide) return { name: def.name, value: null, confidence: 0.5, boundingBox: null };
    return toField(def.name, decide(), pageOfWord);
  });
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
