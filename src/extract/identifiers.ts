/**
 * Codes and numbers: invoice/receipt number, purchase order, payment reference, tax id, IBAN, BIC, BSB, account
 * number, time and currency. Free-form ids have no shape of their own, so they need a label (left or above); typed
 * ids (IBAN, VAT numbers) carry a checksum and are found by shape, with labels deciding whose they are.
 */
import type { Word } from "../document/model.js";
import { type Candidate, labelsOf, ngramCandidates, spanOf } from "./candidates.js";
import { columnHeadingOwner } from "./column-heading.js";
import { roleStrength } from "./context.js";
import type { FieldDecision, Scored } from "./decision.js";
import { LABELS, type LabelRole } from "./labels.js";
import type { Layout } from "./layout.js";
import type { Alternative } from "./model/ranker.js";
import { parseCurrency } from "./normalise/currency.js";
import { type ParsedTaxId, parseBic, parseBsb, parseIban, parseTaxId, withLostPrefixLetter } from "./normalise/ids.js";
import type { LocaleHints } from "./normalise/locale.js";
import { parseTime } from "./normalise/time.js";

const DATE_LIKE = /^\d{1,4}[./-]\d{1,2}[./-]\d{2,4}$/;
const AMOUNT_LIKE = /^[-(]?\d{1,3}([.,' ]\d{3})*[.,]\d{2}[-)]?$/;

/**
 * The hyphens and dashes a PDF may print inside an id ("R18‐31" with U+2010, a non-breaking U+2011, a minus sign), as
 * the "-" the id is written with everywhere else.
 */
const DASHES = /[\u2010-\u2015\u2212\uFE63\uFF0D]/g;

/**
 * A printed id as its normal form: dashes as "-", surrounding punctuation and a leading '#' or ':' removed, and a
 * bar OCR read from the rule of the box the id is printed in ("|INV-2025-38950").
 */
function cleanId(text: string): string {
  return text
    .replace(DASHES, "-")
    .replace(/^[#:;,.(|\s]+/, "")
    .replace(/[:;,.)|\s]+$/, "");
}

function idShaped(text: string): boolean {
  const clean = cleanId(text);
  if (clean.length < 2 || clean.length > 32) return false;
  if (!/\d/.test(clean)) return false;
  if (!/^[\p{L}\d][\p{L}\d\-/._#]*$/u.test(clean)) return false;
  return !DATE_LIKE.test(clean) && !AMOUNT_LIKE.test(clean);
}

/**
 * True when the word after position `i` is a bare "Nr." / "No." / "#" / "Nummer" label with a value after it: the value before it qualifies that label
 * ("Handelsrechnung (380) Nr. R18-31", a document-type code between the title and its number) and the label owns the
 * value after it, so the one before is not the id.
 */
function beforeNumberLabel(segment: Layout["segments"][number], i: number): boolean {
  const next = segment.folded[i + 1];
  if (next === undefined || next === "") return false;
  // "Ref" and a bare "N" are weaker: "Invoice No 12345 Ref 777" prints two values, the first the invoice's.
  const generic = LABELS.get(next)?.every((e) => e.role === "genericNumber" && e.weight >= 0.5) ?? false;
  return generic && segment.words[i + 2] !== undefined;
}

interface IdScored {
  candidate: Candidate;
  value: string;
  score: number;
}

/**
 * Id candidates labelled by `roles` (or, counted at 0.8, by `weaker` ones), less the strength of labels of `against`.
 */
function scoreIds(
  layout: Layout,
  roles: readonly LabelRole[],
  against: readonly LabelRole[],
  weaker: readonly LabelRole[] = [],
): IdScored[] {
  const found: IdScored[] = [];
  for (const segment of layout.segments) {
    segment.words.forEach((word, i) => {
      const end = splitId(layout, segment, i) ? i + 2 : i + 1;
      const text = segment.words
        .slice(i, end)
        .map((w) => w.text)
        .join("");
      if (!idShaped(text)) return;
      const candidate = spanOf(segment, i, end);
      const labels = labelsOf(layout, candidate);
      const own = Math.max(roleStrength(labels, roles), 0.8 * roleStrength(labels, weaker));
      if (own === 0) return;
      const other = roleStrength(labels, against);
      const value = cleanId(text);
      let score = 2.4 * own - 1.5 * other;
      const digits = (value.match(/\d/g) ?? []).length;
      if (digits >= 3) score += 0.2;
      if (value.length > 20) score -= 0.4;
      // "(380)" after a title is a document-type code, not the number.
      if (/^\(.*\)$/.test(text)) score -= 0.8;
      if (beforeNumberLabel(segment, end - 1)) score -= 1.5;
      // Ids sit in the header: the first page, upper half.
      const pageIndex = layout.pages.findIndex((p) => p.pageNum === segment.pageNum);
      score += pageIndex === 0 ? 0.3 * (1 - word.box.y0) : -0.2;
      found.push({ candidate, value, score });
    });
  }
  return found.sort((a, b) => b.score - a.score);
}

/**
 * A gap between two words narrower than this share of the line's height is no space the page prints: OCR's splits
 * inside an id leave 0.15-0.25 of it on the dev scans, printed spaces 0.3-0.55.
 */
const NO_SPACE = 0.28;

/**
 * Two OCR'd words closer than a printed space: one word OCR read in two. Boxes are ratios of the page's width and
 * height, so the gap is put in heights by the page's aspect.
 */
function splitByOcr(layout: Layout, pageNum: number, word: Word, next: Word): boolean {
  const aspect = layout.pages.find((p) => p.pageNum === pageNum)?.aspect ?? 1;
  return word.source === "ocr" && (next.box.x0 - word.box.x1) * aspect < NO_SPACE * (word.box.y1 - word.box.y0);
}

/**
 * True when OCR split one id in two: a short run of letters (OCR may read one of them as a digit, "1Q") that is no
 * label word, then, closer than a printed space, digits or a separator and digits ("INV" "-2021-11343", "WY"
 * "7884600").
 */
function splitId(layout: Layout, segment: Layout["segments"][number], i: number): boolean {
  const word = segment.words[i];
  const next = segment.words[i + 1];
  if (!word || !next || LABELS.has(segment.folded[i] ?? "")) return false;
  if (!/^(?=.*\p{L})[\p{L}\d]{1,4}$/u.test(word.text) || !/^[-/]?\d/u.test(next.text)) return false;
  return splitByOcr(layout, segment.pageNum, word, next);
}

function idDecision(found: IdScored[]): FieldDecision {
  const [best] = found;
  const toScored = (e: IdScored | undefined): Scored | null =>
    e ? { value: e.value, score: e.score, words: e.candidate.words } : null;
  return { family: "identifier", best: toScored(best) };
}

export function documentNumber(layout: Layout, receipt: boolean): FieldDecision {
  const roles: LabelRole[] = receipt
    ? ["receiptNumber", "invoiceNumber", "genericNumber"]
    : ["invoiceNumber", "creditNumber", "genericNumber"];
  const against: LabelRole[] = [
    "precedingInvoice",
    "purchaseOrder",
    "customerNumber",
    "taxId",
    "accountNo",
    "contact",
    "page",
    "companyReg",
    "partyNumber",
    "otherReference",
  ];
  // A payment receipt for an invoice ("Receipt number 1185-9132") numbers the document when no invoice number does.
  return idDecision(scoreIds(layout, roles, against, receipt ? [] : ["receiptNumber"]));
}

/** "PO", purchase order's abbreviation, read with a zero for its O: "P0201925478", "P0-4711". */
const PO_AS_P_ZERO = /^P0(?=[-\d])/;
/** An OCR reading at least this sure is kept as read (the line re-reader's own bar for a word, line-merge.ts). */
const SURE_READING = 0.93;

/**
 * The purchase-order number. One that OCR read doubtfully opening on "P0" opens on "PO", the abbreviation of what it
 * numbers: the O and the zero of many fonts differ by width alone (einvoices-dev's scans, 3-4 documents a seed read
 * "P0201925478" at 0.6). A surely read or printed "P0" stays.
 */
export function purchaseOrder(layout: Layout): FieldDecision {
  const decision = idDecision(
    scoreIds(layout, ["purchaseOrder"], ["invoiceNumber", "customerNumber", "taxId", "contact", "otherReference"]),
  );
  const best = decision.best;
  const first = best?.words[0];
  if (!best || !first || first.source !== "ocr" || first.confidence >= SURE_READING) return decision;
  if (!PO_AS_P_ZERO.test(best.value)) return decision;
  return { ...decision, best: { ...best, value: best.value.replace(PO_AS_P_ZERO, "PO") } };
}

export function paymentReference(layout: Layout): FieldDecision {
  return idDecision(scoreIds(layout, ["paymentReference"], ["purchaseOrder", "customerNumber", "taxId", "contact"]));
}

export function accountNumber(layout: Layout): FieldDecision {
  const found = scoreIds(
    layout,
    ["accountNo"],
    ["iban", "bic", "bsb", "bankCode", "customerNumber", "contact", "taxId"],
  ).filter((e) => /^\d[\d\s-]{4,18}\d$/.test(e.value));
  return { ...idDecision(found), family: "bank" };
}

interface TypedScored extends Scored {
  candidate: Candidate;
}

function typedDecision(found: TypedScored[], family: FieldDecision["family"]): FieldDecision {
  const sorted = [...found].sort((a, b) => b.score - a.score);
  return { family, best: sorted[0] ?? null };
}

/** True when the span sits inside or right under a block of words (the customer's name and address). */
function underBlock(span: Candidate, block: readonly Word[]): boolean {
  if (block.length === 0) return false;
  const x0 = Math.min(...block.map((w) => w.box.x0));
  const x1 = Math.max(...block.map((w) => w.box.x1));
  const y0 = Math.min(...block.map((w) => w.box.y0));
  const y1 = Math.max(...block.map((w) => w.box.y1));
  const lineHeight = Math.max(...block.map((w) => w.box.y1 - w.box.y0));
  return span.box.x0 >= x0 - 0.02 && span.box.x0 <= x1 && span.box.y0 >= y0 && span.box.y0 <= y1 + 2.5 * lineHeight;
}

interface TaxIdScored extends TypedScored {
  features: Record<string, number>;
}

/** A British VAT number as the UK prints it without its "GB" ("VAT Reg No 998 6619 33"): three, four, two digits. */
const BRITISH_VAT_GROUPS = /^\d{3} \d{4} \d{2}$/;

/** The printed groups read as a British VAT number when its check digits hold; else null. */
function britishVat(text: string): ParsedTaxId | null {
  if (!BRITISH_VAT_GROUPS.test(text.trim())) return null;
  const parsed = parseTaxId(`GB ${text.trim()}`);
  return parsed?.valid ? parsed : null;
}

function taxIds(layout: Layout, customerBlock: readonly Word[] = []): TaxIdScored[] {
  // "FR 11 123 456 782", "DE 123 456 789": grouped VAT ids run to six words.
  const found = ngramCandidates(
    layout,
    6,
    (text) => (text.match(/\d/g) ?? []).length >= 6 && text.length <= 30,
    (span) => {
      const read = span.words.some((w) => w.source === "ocr");
      const printed = parseTaxId(span.text) ?? (read ? withLostPrefixLetter(span.text) : null);
      const parsed = printed ?? britishVat(span.text);
      if (!parsed) return null;
      const labels = labelsOf(layout, span);
      const own = roleStrength(labels, ["taxId"]);
      // Digits alone are a VAT number only under a tax-id label.
      if (!printed && own === 0) return null;
      // "N° TVA : FR 05 ..." under "Vos identifiants": the heading of its column says it is the addressee's.
      if (columnHeadingOwner(layout, span.segment) === "addressee") return null;
      const customer = roleStrength(labels, ["customerTaxId", "customer"]);
      const wrong = roleStrength(labels, [
        "contact",
        "accountNo",
        "iban",
        "invoiceNumber",
        "customerNumber",
        "companyReg",
      ]);
      // VAT-style ids (country prefix) are what invoices are asked for; national tax numbers come second.
      const vatStyle = /^[A-Z]{2}/.test(parsed.value);
      const shape = vatStyle ? (parsed.valid ? 1.1 : 0.7) : parsed.valid ? 0.6 : 0.1;
      // The customer's VAT number is printed in the customer's address block.
      const inBlock = underBlock(span, customerBlock);
      const score = shape + 2 * own - 2.2 * customer - 1.5 * wrong - (inBlock ? 1.5 : 0);
      const pageIndex = layout.pages.findIndex((p) => p.pageNum === span.segment.pageNum);
      const features: Record<string, number> = {
        hand: score,
        own,
        customer,
        wrong,
        vatStyle: vatStyle ? 1 : 0,
        valid: parsed.valid ? 1 : 0,
        customerBlock: inBlock ? 1 : 0,
        labelLeft: labels.left ? 1 : 0,
        position: pageIndex === 0 ? span.box.y0 : 1,
        footer: span.box.y0 > 0.85 ? 1 : 0,
        right: span.box.x0 > 0.5 ? 1 : 0,
      };
      return { ...span, value: parsed.value, score, candidate: span, features };
    },
  );
  return found;
}

/**
 * Features that say how contested the choice among a field's candidates is, added to each candidate's own: its gap
 * to the best score, its rank, how many other values score within one point of it, and whether its value is printed
 * again (an id printed in two places) or also inside the customer's block.
 */
function contestFeatures(found: readonly TaxIdScored[]): Alternative[] {
  const sorted = [...found].sort((a, b) => b.score - a.score);
  const top = sorted[0]?.score ?? 0;
  const out: Alternative[] = [];
  const seen = new Set<string>();
  for (const [rank, c] of sorted.entries()) {
    if (seen.has(c.value) || out.length >= 5) continue;
    seen.add(c.value);
    const same = sorted.filter((o) => o.value === c.value);
    const rivals = new Set(sorted.filter((o) => o.value !== c.value && o.score > c.score - 1).map((o) => o.value));
    out.push({
      scored: { value: c.value, score: c.score, words: c.words },
      features: {
        ...c.features,
        handGap: c.score - top,
        rank: out.length,
        chosen: rank === 0 ? 1 : 0,
        rivals: Math.min(rivals.size, 3),
        repeats: Math.min(same.length - 1, 3),
        elsewhereCustomer: same.some((o) => o !== c && (o.features.customerBlock ?? 0) + (o.features.customer ?? 0) > 0)
          ? 1
          : 0,
      },
    });
  }
  return out;
}

export function supplierTaxId(layout: Layout, customerBlock: readonly Word[]): FieldDecision {
  const found = taxIds(layout, customerBlock);
  return { ...typedDecision(found, "taxId"), key: "supplier.taxId", alternatives: contestFeatures(found) };
}

/** Groups of an IBAN a narrow table cell wraps onto the next line: at most this many words. */
const WRAPPED_GROUPS = 4;

/**
 * The words that continue an IBAN cut short at the end of its segment on the segment right under it, starting under
 * the IBAN's first group ("DE67 1004 8392 7221" over "8882 72" in a footer's column); none when no such line is there.
 */
function wrappedTail(layout: Layout, span: Candidate): Word[] {
  if (span.end !== span.segment.words.length) return [];
  const page = layout.pages.find((p) => p.pageNum === span.segment.pageNum);
  const below = page?.rows[span.segment.row + 1]?.find(
    (s) =>
      Math.abs(s.box.x0 - span.box.x0) < s.height &&
      s.box.y0 - span.segment.box.y1 < span.segment.height &&
      s.box.x1 <= span.box.x1 + s.height,
  );
  if (below === undefined) return [];
  const groups = below.words.slice(0, WRAPPED_GROUPS);
  return groups.every((w) => /^[A-Z0-9]{1,4}$/.test(w.text)) ? groups : [];
}

export function iban(layout: Layout): FieldDecision {
  const found = ngramCandidates(
    layout,
    9,
    (text) => /^[A-Z]{2}\s?\d{2}/i.test(text) && text.length <= 42,
    (span) => {
      const whole = parseIban(span.text);
      const tail = whole ? [] : wrappedTail(layout, span);
      const wrapped = tail.length > 0 ? parseIban(`${span.text} ${tail.map((w) => w.text).join(" ")}`) : null;
      const value = whole ?? wrapped;
      if (!value) return null;
      const labels = labelsOf(layout, span);
      const score = 1 + 1.5 * roleStrength(labels, ["iban"]) - 1.5 * roleStrength(labels, ["customer"]);
      const words = wrapped ? [...span.words, ...tail] : span.words;
      return { ...span, words, value, score, candidate: span };
    },
  );
  return typedDecision(found, "bank");
}

/** "BIC:" or "SWIFT:" glued to the code it labels ("BIC:RJZJFRB8"). */
const GLUED_BIC_LABEL = /^(?:BIC|SWIFT)[:.]/i;

/** The code a run of words spells: its label, spaces and a last stray mark ("FRB8&", "DEFF.") taken off. */
function bicCode(text: string): string {
  return text
    .replace(GLUED_BIC_LABEL, "")
    .replace(/ /g, "")
    .replace(/[^A-Z0-9]$/, "");
}

export function bic(layout: Layout, ibanWords: readonly Word[]): FieldDecision {
  const ibanRow = ibanWords[0] ? layout.wordPlace.get(ibanWords[0].id) : undefined;
  const ibanSegment = ibanRow ? layout.segments[ibanRow.segment] : undefined;
  // The bank of an IBAN's account sits in the IBAN's country: a BIC known only by standing near it names that country.
  const ibanCountry = /^[A-Z]{2}/i.exec(ibanWords[0]?.text ?? "")?.[0].toUpperCase();
  const found = ngramCandidates(
    layout,
    4,
    (text) => /^[A-Z]{4}[A-Z0-9]{4}([A-Z0-9]{3})?$/.test(bicCode(text)),
    (span) => {
      const glued = GLUED_BIC_LABEL.test(span.text);
      const value = parseBic(bicCode(span.text));
      if (!value) return null;
      const labels = labelsOf(layout, span);
      const label = glued ? 1 : roleStrength(labels, ["bic"]);
      // Words are one code when OCR split it ("LOY" "DGBDM"), or when its label stands right before them: a BIC
      // printed in groups ("COBA DE FF XXX") or split by OCR wider than it was printed ("CEX" "UDEQF100").
      const besideLabel = labels.left?.gaps === 0 && labels.left.roles.some((r) => r.role === "bic");
      const split = span.words.every((w, i) => {
        const next = span.words[i + 1];
        return !next || splitByOcr(layout, span.segment.pageNum, w, next);
      });
      if (!split && !besideLabel) return null;
      const nearIban =
        ibanSegment !== undefined &&
        span.segment.pageNum === ibanSegment.pageNum &&
        Math.abs(span.segment.row - ibanSegment.row) <= 2 &&
        (label > 0 || value.slice(4, 6) === ibanCountry);
      // Eight capitals with a valid country code are common words too ("RECHNUNG"): a BIC needs its label or an IBAN.
      if (label === 0 && !nearIban) return null;
      const score = 2 * label + (nearIban ? 0.8 : 0) - 0.4;
      return { ...span, value, score, candidate: span };
    },
  );
  return typedDecision(found, "bank");
}

export function bsb(layout: Layout): FieldDecision {
  const found = ngramCandidates(
    layout,
    1,
    (text) => /^\d{3}-?\d{3}[.,;]?$/.test(text),
    (span) => {
      const value = parseBsb(span.text);
      if (!value) return null;
      // Six digits are everywhere (customer numbers, postcodes): only a "BSB" label makes them one.
      const label = roleStrength(labelsOf(layout, span), ["bsb"]);
      if (label === 0) return null;
      const score = 2.5 * label - 0.5;
      return { ...span, value, score, candidate: span };
    },
  );
  return typedDecision(found, "bank");
}

export function time(layout: Layout): FieldDecision {
  const found = ngramCandidates(
    layout,
    2,
    (text) => /\d{1,2}\s?[:h.]\s?\d{2}/i.test(text) && text.length <= 14,
    (span) => {
      const value = parseTime(span.text);
      if (!value) return null;
      const label = roleStrength(labelsOf(layout, span), ["time"]);
      const colon = /\d:\d\d/.test(span.text) ? 0.5 : 0;
      const score = 1.4 * label + colon + 0.3 * (1 - span.box.y0);
      return { ...span, value, score, candidate: span };
    },
  );
  return typedDecision(found, "time");
}

const ISO_CURRENCIES = new Set([
  "EUR",
  "USD",
  "GBP",
  "CHF",
  "AUD",
  "NZD",
  "CAD",
  "MYR",
  "SGD",
  "HKD",
  "JPY",
  "CNY",
  "SEK",
  "NOK",
  "DKK",
  "PLN",
  "CZK",
  "HUF",
  "INR",
  "IDR",
  "THB",
  "PHP",
  "ZAR",
  "BRL",
  "MXN",
  "TRY",
  "AED",
  "RON",
  "BGN",
]);

/**
 * Currency by vote: currencies attached to amounts, ISO codes and symbols printed as words, a "Currency:" label.
 * The located occurrence is the labelled one if any, else the first.
 */
export function currency(
  layout: Layout,
  amountCurrencies: ReadonlyArray<{ currency: string | null; words: Word[] }>,
  hints: LocaleHints,
  fallback: string | null,
): FieldDecision {
  const votes = new Map<string, { count: number; words: Word[]; labelled: boolean }>();
  const vote = (code: string, words: Word[], weight: number, labelled: boolean) => {
    const entry = votes.get(code) ?? { count: 0, words, labelled: false };
    entry.count += weight;
    if (labelled && !entry.labelled) {
      entry.labelled = true;
      entry.words = words;
    }
    votes.set(code, entry);
  };
  for (const a of amountCurrencies) if (a.currency) vote(a.currency, a.words, 1, false);
  for (const segment of layout.segments) {
    segment.words.forEach((word, i) => {
      const bare = word.text.replace(/[():,.]+$/g, "").replace(/^[(]+/, "");
      if (bare.length === 0 || bare.length > 4 || /\d/.test(bare)) return;
      const isCode = ISO_CURRENCIES.has(bare.toUpperCase()) && bare === bare.toUpperCase();
      const code = isCode ? bare.toUpperCase() : /^[€$£¥]$|^RM$|^CHF$/.test(bare) ? parseCurrency(bare, hints) : null;
      if (!code) return;
      const strength = roleStrength(labelsOf(layout, spanOf(segment, i, i + 1)), ["currency"]);
      vote(code, [word], 1 + 3 * strength, strength > 0);
    });
  }
  const ranked = [...votes.entries()].sort((a, b) => b[1].count - a[1].count);
  const [first, second] = ranked;
  if (!first) {
    return {
      family: "currency",
      best: fallback ? { value: fallback, score: -0.2, words: [] } : null,
    };
  }
  const margin = first[1].count - (second?.[1].count ?? 0);
  const score = Math.min(2, 0.3 * first[1].count + 0.3 * margin) + (first[1].labelled ? 0.8 : 0);
  return { family: "currency", best: { value: first[0], score, words: first[1].words } };
}
