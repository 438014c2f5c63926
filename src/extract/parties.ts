/**
 * Names and addresses. Three readings, scored against each other:
 * - a labelled block ("Bill to", "Verkäufer", "Client", ...) whose first lines (or a "Name:" row inside it) name the
 *   party and whose following lines up to a contact or id line are its address;
 * - for receipts and the supplier of an invoice, the header: the first prominent, non-generic line(s) at the top;
 * - for the customer of an invoice without labels, the address window: a left-aligned block in the upper third.
 * Address lines are joined with ", " (after trailing commas are dropped), names with a space.
 */
import type { Word } from "../document/model.js";
import { spanOf } from "./candidates.js";
import { spanLabels, wrappedLabel } from "./context.js";
import type { FieldDecision, Scored } from "./decision.js";
import { isTradeWord } from "./header-lexicon.js";
import { LABELS, type LabelRole, nearCustomerHeading } from "./labels.js";
import type { Layout, LineSegment, PageLayout } from "./layout.js";
import { joinBrokenWords, namesState, repairPostcode, splitRunTogether } from "./receipt-address.js";
import { repairGlyphConfusion, repairMixedGlyphs, repairPremisesWord } from "./receipt-repair.js";
import { collapseSpaces, digitCount, foldForMatching, letterCount, upperCount } from "./text.js";
import { narrowerThanText, printedHeight, sameTypeSize } from "./type-size.js";
import { titlesFor } from "./vocabulary/titles.js";

/** Lines that are printed on receipts and invoices but are never a business name: document titles and these. */
const GENERIC = new Set(
  [
    ...titlesFor("header").map((t) => t.text),
    "welcome",
    "welcome to",
    "thank you",
    "copy",
    "customer copy",
    "merchant copy",
    "duplicate",
    "reprint",
    "order",
    "original",
    "gst summary",
    "table",
    "dine in",
    "take away",
    "takeaway",
    "member",
    "cash",
    "credit",
    "sales",
    // The heading of a payment-method fact ("Payment method" over "Visa – 4242") is no party's name.
    "payment method",
    "payment type",
    "zahlungsart",
    "zahlungsmethode",
    "moyen de paiement",
    "mode de paiement",
    "forma de pago",
    "metodo de pago",
    "betaalmethode",
    "betaalwijze",
  ].map(foldForMatching),
);

/** Legal forms and trade words that mark a business name, folded ("S.A.R.L." -> "sarl", "Sdn. Bhd." -> "sdn" "bhd"). */
const BUSINESS_WORDS = new Set(
  [
    "gmbh",
    "ag",
    "kg",
    "ohg",
    "ug",
    "ek",
    "mbh",
    "kgaa",
    "gbr",
    "ltd",
    "limited",
    "llc",
    "llp",
    "lp",
    "inc",
    "corp",
    "co",
    "company",
    "pty",
    "plc",
    "plt",
    "sarl",
    "sas",
    "sasu",
    "sa",
    "eurl",
    "snc",
    "bv",
    "nv",
    "vof",
    "sl",
    "slu",
    "sau",
    "srl",
    "spa",
    "ab",
    "aps",
    "oy",
    "se",
    "sdn",
    "bhd",
    "sb",
    "ltda",
    "kft",
    "sro",
    "ag",
    "haftungsbeschrankt",
    "enterprise",
    "enterprises",
    "trading",
    "restaurant",
    "restoran",
    "cafe",
    "bakery",
    "mart",
    "store",
    "stores",
    "hardware",
    "stationery",
    "pharmacy",
    "hotel",
    "kedai",
    "perniagaan",
    "supermarket",
    "minimarket",
    "bistro",
    "pizzeria",
    "apotheke",
    "backerei",
    "boulangerie",
    "pharmacie",
    "tienda",
    "winkel",
  ].map(foldForMatching),
);

/** A postcode right after a legal form's word makes it a state's code in an address ("Adelaide SA 5000"). */
const POSTCODE_AFTER_FORM = /^\d{4}$/;

/** Whether the word after a legal form ending at `end` is a postcode: the "form" is then a state's code. */
function postcodeAfterForm(seg: LineSegment, end: number): boolean {
  return POSTCODE_AFTER_FORM.test(seg.words[end]?.text ?? "");
}

const COMPANY_SUFFIX = {
  test(text: string): boolean {
    const words = text
      .split(/[\s,]+/)
      .map(foldForMatching)
      .filter((w) => w !== "");
    return words.some(
      (w, i) =>
        (BUSINESS_WORDS.has(w) && !POSTCODE_AFTER_FORM.test(words[i + 1] ?? "")) ||
        (i > 0 && BUSINESS_WORDS.has(`${words[i - 1]}${w}`)),
    );
  },
};

/** A business word after at least one other word: "Acme Ltd", not "KG. BATU" (a village, "Kampung"), "Co. Reg". */
function hasLegalFormAfterName(text: string): boolean {
  const words = text
    .split(/[\s,]+/)
    .map(foldForMatching)
    .filter((w) => w !== "");
  return words.some((w, i) => i > 0 && BUSINESS_WORDS.has(w));
}

function rowSegments(page: PageLayout, row: number): LineSegment[] {
  return page.rows[row] ?? [];
}

function rowText(segments: readonly LineSegment[]): string {
  return collapseSpaces(segments.map((s) => s.text).join(" "));
}

/** Roles of labels a segment spells as a whole ("Tel:", "Bill To"). */
function wholeLabel(seg: LineSegment): LabelRole[] {
  const key = seg.folded.join("");
  const exact = LABELS.get(key);
  if (exact) return exact.map((e) => e.role);
  // A bill-to heading OCR misread by a character ("B IL TO"): a read line without figures, never a text layer's.
  if (/\d/.test(key) || !seg.words.every((w) => w.source === "ocr")) return [];
  return (nearCustomerHeading(key) ?? []).map((e) => e.role).filter((r) => r === "customer");
}

const STOP_ROLES: readonly LabelRole[] = [
  "contact",
  "taxId",
  "companyReg",
  "invoiceNumber",
  "receiptNumber",
  "invoiceDate",
  "genericDate",
  "dueDate",
  "iban",
  "bic",
  "accountNo",
  "customerNumber",
  "purchaseOrder",
  "time",
  "currency",
  "page",
  "total",
  "customer",
  "supplier",
  "tax",
  "bankCode",
];

const HARD_STOP_ROLES: readonly LabelRole[] = [
  "contact",
  "taxId",
  "companyReg",
  "iban",
  "bic",
  "bankCode",
  "invoiceNumber",
  "receiptNumber",
  "customerNumber",
  "page",
];

/** Country names printed as the last line of an address. */
const COUNTRIES = new Set(
  [
    "deutschland",
    "germany",
    "france",
    "espana",
    "spain",
    "nederland",
    "netherlands",
    "the netherlands",
    "schweiz",
    "suisse",
    "svizzera",
    "switzerland",
    "osterreich",
    "austria",
    "united kingdom",
    "uk",
    "great britain",
    "england",
    "scotland",
    "wales",
    "ireland",
    "usa",
    "united states",
    "united states of america",
    "australia",
    "new zealand",
    "canada",
    "belgique",
    "belgie",
    "belgium",
    "luxembourg",
    "italia",
    "italy",
    "portugal",
    "malaysia",
    "singapore",
    "danmark",
    "denmark",
    "sverige",
    "sweden",
    "norge",
    "norway",
    "polska",
    "poland",
    "deutschland germany",
  ].map(foldForMatching),
);

/** A line with a postcode (4+ digits, or a UK/Canadian/Dutch-style code): what follows it can only be a country. */
function hasPostcode(text: string): boolean {
  // "2764 5th Avenue" is a house number on a street line, "80333 München" a postcode.
  if (STREET.test(text)) return false;
  return (
    /\b\d{4,5}\b/.test(text) || /\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b/.test(text) || /\b\d{4}\s?[A-Z]{2}\b/.test(text)
  );
}

const STREET =
  /\b(street|st|avenue|ave|road|rd|lane|ln|drive|dr|boulevard|blvd|way|place|pl|court|ct|suite|unit|floor|strasse|straße|str|weg|gasse|platz|allee|ring|rue|avenue|chemin|boulevard|calle|avenida|plaza|paseo|straat|laan|plein|gracht|jalan|jln|lorong|lot|no)\b\.?/i;

function isCountry(text: string): boolean {
  return (
    COUNTRIES.has(foldForMatching(text)) || text.split(/\s*\/\s*/).every((part) => COUNTRIES.has(foldForMatching(part)))
  );
}

/** A line that ends an address block: phone, e-mail, tax id, a date, a document title... */
function isStopLine(segs: readonly LineSegment[]): boolean {
  const text = rowText(segs);
  // An e-mail address or web site; a lone "@" is OCR's reading of a digit ("5220@ Kuala Lumpur").
  if (/\S@\S+\.\w|www\.|https?:|\.com\b/i.test(text)) return true;
  // The one-line sender address above a letter's address window ("ACME GmbH · Street 1 · 12345 City").
  if (/\s[·●•|]\s/.test(text)) return true;
  if (GENERIC.has(foldForMatching(text))) return true;
  const first = segs[0];
  if (!first) return true;
  for (let end = 1; end <= Math.min(first.words.length, 4); end++) {
    const key = first.folded.slice(0, end).join("");
    const entries = LABELS.get(key) ?? [];
    const roles = entries.map((e) => e.role);
    if (!roles.some((r) => STOP_ROLES.includes(r))) continue;
    // Ids and contact labels never start an address line, whatever follows them ("Umsatzsteuer-ID DE 123 ...").
    if (entries.some((e) => HARD_STOP_ROLES.includes(e.role) && e.weight >= 0.8)) return true;
    // A label word only ends the block when used as a label ("Tel: ...", "GST 1234"), not inside a name
    // ("Lieferant GmbH").
    const next = first.words[end]?.text ?? "";
    const asLabel =
      end === first.words.length ||
      /[:#]$/.test(first.words[end - 1]?.text ?? "") ||
      /^[:#+(\d]/.test(next) ||
      /\d/.test(next) ||
      segs.length > 1;
    if (asLabel) return true;
  }
  // A line of mostly digits and separators (phone numbers, registration numbers) is not an address line.
  return letterCount(text) < 2 || /\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b/.test(text) || /\d{1,2}:\d{2}/.test(text);
}

/** Company registration numbers printed under a receipt's name: "(867388-U)", "Co. Reg. No. 1234". */
function isRegistrationLine(text: string): boolean {
  const t = text.trim();
  return (
    /^\(?[A-Z0-9]{0,4}[\s-]?\d{4,}[\s-]?[A-Z0-9]{0,3}\)?\.?$/i.test(t) || /^\(?(co\.?\s*reg|company\s*no|roc)/i.test(t)
  );
}

function meanConfidence(words: readonly Word[]): number {
  if (words.length === 0) return 0;
  return words.reduce((a, w) => a + w.confidence, 0) / words.length;
}

function nameLikeness(text: string, words: readonly Word[]): number {
  const letters = letterCount(text);
  const nonSpace = text.replace(/\s/g, "").length || 1;
  const alpha = letters / nonSpace;
  const upper = letters > 0 ? upperCount(text) / letters : 0;
  let score = 1.2 * alpha + 0.3 * upper + 0.8 * meanConfidence(words);
  if (COMPANY_SUFFIX.test(text)) score += 0.8;
  if (letters < 4) score -= 1.5;
  if (digitCount(text) > 4) score -= 0.8;
  return score;
}

function joinAddress(lines: readonly string[]): string {
  return lines
    .map((l) => collapseSpaces(l).replace(/[,;\s]+$/, ""))
    .filter((l) => l !== "")
    .join(", ");
}

export interface PartyDecision {
  name: FieldDecision;
  address: FieldDecision;
  /** A logo's lettering OCR read over the party's block and passed over as its name: no other party's either. */
  lettering?: readonly Word[];
}

function scoredOf(value: string, score: number, words: Word[]): Scored {
  return { value, score, words };
}

/** Edit distance, to recognise OCR-damaged generic headings ("TAX IHVOICE"). */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row.push(
        Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)),
      );
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

function isGeneric(text: string): boolean {
  const key = foldForMatching(text);
  const known = GENERIC_SEEN.get(key);
  if (known !== undefined) return known;
  const generic = isGenericKey(key);
  if (GENERIC_SEEN.size > 20_000) GENERIC_SEEN.clear();
  GENERIC_SEEN.set(key, generic);
  return generic;
}

/** isGeneric's answers by folded text: the fuzzy comparison is the costly part and lines repeat. */
const GENERIC_SEEN = new Map<string, boolean>();

function isGenericKey(key: string): boolean {
  if (GENERIC.has(key)) return true;
  if (key.length < 6 || key.length > 24) return false;
  for (const g of GENERIC)
    if (g.length >= 6 && Math.abs(g.length - key.length) <= 2 && editDistance(key, g) <= 2) return true;
  return false;
}

/** Registration and tax numbers printed under a business name are not part of its address. */
const REGISTRATION = /\b(reg|regn|gst|sst|co\.?\s*no|company\s*no|roc|br\s*no|business|id\s*no|tax\s*id)\b/i;

/** Noise OCR makes of specks and logos at a line's edges: short non-words read with low confidence. */
function trimNoise(words: readonly Word[]): Word[] {
  // Specks inside a line: a doubtful word far smaller than its neighbours is dirt or a logo edge, not text.
  const heights = words.map((w) => w.box.y1 - w.box.y0).sort((a, b) => a - b);
  const typical = heights[heights.length >> 1] ?? 0;
  const kept = words.filter((w) => !(w.confidence < 0.6 && w.box.y1 - w.box.y0 < 0.45 * typical));
  const meanOthers = (skip: Word) => {
    const rest = kept.filter((w) => w !== skip);
    return rest.length === 0 ? 0 : rest.reduce((a, w) => a + w.confidence, 0) / rest.length;
  };
  const noisy = (w: Word) =>
    letterCount(w.text) + digitCount(w.text) === 0 ||
    (w.confidence < 0.5 && w.text.length <= 2) ||
    (w.confidence < 0.4 && digitCount(w.text) === 0 && letterCount(w.text) < w.text.length / 2) ||
    // A logo or stamp fragment read as a word next to clearly printed text ("Bee PAGOH REST ..."): doubtful, and
    // of another size than the line's text.
    (w.confidence < 0.35 && meanOthers(w) >= 0.75 && Math.abs(w.box.y1 - w.box.y0 - typical) > 0.4 * typical);
  // "B & B", "M & S": letters joined to the next or previous word by "&" are a word of the name, however doubtfully
  // OCR read them.
  const joined = (i: number) =>
    /^\p{L}+$/u.test(kept[i]?.text ?? "") &&
    ((kept[i + 1]?.text.startsWith("&") ?? false) || (kept[i - 1]?.text.endsWith("&") ?? false));
  const trimmed = (i: number) => !joined(i) && noisy(kept[i] as Word);
  let start = 0;
  let end = kept.length;
  while (start < end && trimmed(start)) start++;
  while (end > start && trimmed(end - 1)) end--;
  return kept.slice(start, end);
}

/**
 * Legal forms as printed at the end of a business name, in canonical spelling. OCR misreads them a letter or two at a
 * time ("SON BHD", "SDN 3HD", "SDN BIED", "LTO", "GMBII"): a name's closing tokens close enough to a form are put
 * right (see nearLegalForm). Longest forms first.
 */
const LEGAL_FORMS: readonly (readonly string[])[] = [
  ["GMBH", "CO", "KG"],
  ["SDN", "BHD"],
  ["PTY", "LTD"],
  ["PTE", "LTD"],
  ["CO", "LTD"],
  ["GMBH"],
  ["LTD"],
  ["BHD"],
  ["LLC"],
  ["INC"],
  ["PLC"],
  ["CORP"],
  ["LIMITED"],
  ["SARL"],
];

/** Spelling of legal forms in mixed-case names where it is not "Capitalised". */
const MIXED_CASE: Readonly<Record<string, string>> = { GMBH: "GmbH", LLC: "LLC", PLC: "PLC", SARL: "SARL" };

/** OCR's interchangeable glyphs, folded to one key before comparing with a legal form ("0"/"O", "3"/"B"...). */
function glyphKey(text: string): string {
  return text
    .toUpperCase()
    .replace(/[^A-Z0-9$]/g, "")
    .replace(/0/g, "O")
    .replace(/[38]/g, "B")
    .replace(/[1|]/g, "I")
    .replace(/[5$]/g, "S");
}

/**
 * Whether closing tokens read as a legal form: for a one-word form, one edit with the first letter right, and for
 * forms of three letters or fewer only when OCR doubted the token ("LID" and "INK" are words too); for longer forms,
 * at most two edits in all, each token within two, and a token off by two only beside an intact one ("SDN BIED").
 */
function nearLegalForm(tokens: readonly Word[], form: readonly string[]): boolean {
  const distances = tokens.map((w, i) => {
    const key = glyphKey(w.text);
    const target = form[i] ?? "";
    return key.length === 0 || Math.abs(key.length - target.length) > 2 ? 9 : editDistance(key, target);
  });
  const total = distances.reduce((a, d) => a + d, 0);
  if (form.length === 1) {
    const token = tokens[0];
    const target = form[0] ?? "";
    if (!token || total > 1 || glyphKey(token.text)[0] !== target[0]) return false;
    return target.length > 3 || token.confidence < 0.6;
  }
  return total <= 2 && (distances.includes(0) || distances.every((d) => d <= 1));
}

/** Word texts of a name with its closing legal form spelt canonically (in the name's case style, dots kept). */
function repairLegalForm(words: readonly Word[]): string[] {
  const texts = words.map((w) => w.text);
  const upper = texts.join(" ") === texts.join(" ").toUpperCase();
  for (const form of LEGAL_FORMS) {
    if (words.length <= form.length) continue;
    const tail = words.slice(words.length - form.length);
    if (tail.every((w, i) => glyphKey(w.text) === form[i] && /^\p{L}/u.test(w.text))) break;
    if (!nearLegalForm(tail, form)) continue;
    const fixed = form.map((canonical, i) => {
      const cased = upper
        ? canonical
        : (MIXED_CASE[canonical] ?? canonical.charAt(0) + canonical.slice(1).toLowerCase());
      return `${cased}${/\.$/.test(tail[i]?.text ?? "") ? "." : ""}`;
    });
    return [...texts.slice(0, words.length - form.length), ...fixed];
  }
  return texts;
}

/** "S/B" (Sdn Bhd) closing a name as OCR reads it: "5/B", "S/D", "$/8". */
function shortLegalForm(name: string): string {
  return name.replace(/(?<=\s)[S5$][/|][BD83](\.?)$/u, "S/B$1");
}

/**
 * Currency signs OCR puts for letters inside words of a name: "$/B" is "S/B", "D.I.¥." is "D.I.Y."; a sign before
 * digits stays.
 */
/** "ENTERPRISE {SETIA ALAM) SDN BHD": a brace or square bracket OCR read for the bracket a ")" closes. */
function bracketsForBraces(text: string): string {
  return text.replace(/[{[](?=[^()[\]{}]*\))/g, "(");
}

function lettersForSigns(text: string): string {
  return text.replace(/\$(?=[\p{L}/])/gu, "S").replace(/(?<=[\p{L}.])¥|¥(?=[\p{L}.])/gu, "Y");
}

/**
 * A token that is a registration number rather than a word of the name: "862725-U", "S19S37-X)", "001451637-M";
 * mostly digits with a letter or a hyphen, so a bare number ("80202", a postcode) is not one.
 */
function isRegistrationToken(text: string): boolean {
  const digits = digitCount(text);
  const letters = letterCount(text);
  return digits >= 4 && (letters > 0 || text.includes("-")) && letters <= Math.max(2, digits / 2);
}

/**
 * Labels that introduce the company operating a shop ("Owned by: ACME Ltd", "Betreiber: Huber GmbH"), folded: the
 * legal entity behind the trading name printed above, not the shop.
 */
const OPERATOR_LABELS = new Set(
  [
    "owned by",
    "own by",
    "operated by",
    "managed by",
    "a division of",
    "a member of",
    "a subsidiary of",
    "betreiber",
    "betrieben von",
    "inhaber",
    "exploité par",
    "géré par",
    "propiedad de",
    "operado por",
    "dimiliki oleh",
  ].map(foldForMatching),
);

/** How many leading words are an operator label ("Owned : By :"), the signs after it included; 0 when none. */
function operatorLabelLength(words: readonly Word[]): number {
  for (let k = Math.min(5, words.length); k >= 1; k--) {
    if (!OPERATOR_LABELS.has(foldForMatching(wordsText(words.slice(0, k))))) continue;
    let end = k;
    while (end < words.length && foldForMatching((words[end] as Word).text) === "") end++;
    return end;
  }
  return 0;
}

/**
 * "OWN BY: CHEF LEE SDN BHD", "Firma: Muster GmbH": an operator label, or a name label before a colon, introduces the
 * legal name after it; the label goes when a name follows. A colon after any other word stays ("CAFE: THE CORNER",
 * "THE: TOAST" where OCR read a speck as a colon).
 */
function dropLeadingLabel(words: Word[]): Word[] {
  const operator = operatorLabelLength(words);
  const colon = words.findIndex((w, i) => i < 3 && /\p{L}:$/u.test(w.text));
  const isNameLabel =
    colon >= 0 &&
    (LABELS.get(foldForMatching(wordsText(words.slice(0, colon + 1)))) ?? []).some((e) => e.role === "name");
  const cut = operator > 0 ? operator : isNameLabel ? colon + 1 : 0;
  return cut > 0 && letterCount(wordsText(words.slice(cut))) >= 3 ? words.slice(cut) : words;
}

/**
 * Cuts the name before a registration number printed after it, bracketed "(139386 X)" or not "862725-U"; "(KL)" or
 * "(M)" stay part of the name, and so does a number that starts it ("7-Eleven", "99 Speed Mart").
 */
function dropTrailingRegistration(words: Word[]): Word[] {
  const end = words.findIndex((w, i) => {
    if (i === 0) return false;
    if (isRegistrationToken(w.text)) return true;
    if (!/^[([{]/.test(w.text)) return false;
    // The group ends at its closing bracket, or where the next one opens: "(MALAYSIA SDN BHD (8199K)" is a name
    // whose bracket OCR lost, then the number.
    const close = words.findIndex((x, j) => j >= i && (/[)\]}]/.test(x.text) || (j > i && /^[([{]/.test(x.text))));
    const opensNext = close > i && /^[([{]/.test(words[close]?.text ?? "");
    const group = words.slice(i, close < 0 ? words.length : opensNext ? close : close + 1).map((x) => x.text);
    return digitCount(group.join("")) >= 4;
  });
  return end > 0 ? words.slice(0, end) : words;
}

/**
 * A name ends on its legal form: short or doubtful tokens OCR read after it ("ACME MOTOR SDN BHD S CA Fal", a logo's
 * edge) are cut.
 */
function afterLegalForm(words: Word[]): Word[] {
  for (let end = words.length - 1; end >= 2; end--) {
    const head = words.slice(0, end);
    if (!LEGAL_FORMS.some((f) => f.length > 1 && nearLegalForm(head.slice(-f.length), f))) continue;
    const tail = words.slice(end);
    return tail.every((w) => w.confidence < 0.9 || letterCount(w.text) <= 3) && !/^\(/.test(tail[0]?.text ?? "")
      ? head
      : words;
  }
  return words;
}

/** A till or store number printed before the name ("#000002 ACME (M) SDN BHD") is no part of it. */
function dropLeadingNumber(words: Word[]): Word[] {
  let start = 0;
  while (start < words.length - 1 && /^#\d+$/.test(words[start]?.text ?? "")) start++;
  return start > 0 ? words.slice(start) : words;
}

/** Whether a name's closing tokens are a legal form ("SDN BHD", "Ltd"), as printed or near it as OCR reads it. */
function endsOnLegalForm(words: readonly Word[]): boolean {
  return LEGAL_FORMS.some((form) => {
    const tail = words.slice(-form.length);
    return tail.length === form.length && nearLegalForm(tail, form);
  });
}

/**
 * The rows a name without its legal form runs on to when it is printed over two or three lines ("AIK HUAT HARDWARE" +
 * "ENTERPRISE (SETIA" + "ALAM) SDN BHD"): the next row when it ends on a legal form (a registration number after it
 * aside), the next two when a bracket opened on the first (or a brace OCR read for it) closes on the second. Rows
 * with other digits, labels or contacts are no part of a name, nor is an operator's name ("Betrieben von: Huber
 * GmbH").
 */
function runOnToLegalForm(page: PageLayout, row: number, rowWords: (row: number) => Word[]): number[] {
  if (endsOnLegalForm(rowWords(row))) return [];
  const rows: number[] = [];
  const words: Word[] = [];
  for (let r = row + 1; r <= row + 2 && r < page.rows.length; r++) {
    const line = dropTrailingRegistration(rowWords(r));
    const text = wordsText(line);
    const operator = operatorLabelLength(line) > 0;
    if (isStopLine(rowSegments(page, r)) || REGISTRATION.test(text) || digitCount(text) > 0 || operator) return [];
    rows.push(r);
    words.push(...line);
    if (endsOnLegalForm(words)) return rows;
    if (!/[({[][^)}\]]*$/.test(text)) return [];
  }
  return [];
}

/**
 * A street, postcode or a line ending in a comma (an address continues on the next line): the shop's address,
 * printed under its name, not the name.
 */
function looksLikeAddress(text: string): boolean {
  return STREET.test(text) || hasPostcode(text) || /,\s*$/.test(text);
}

/**
 * The legal name of the operator printed between a shop's trading name and its address ("ACME Trading Ltd
 * (123456-X)"): a company suffix with a bracketed registration number or no digits at all is no address line.
 */
function isCompanyLine(text: string): boolean {
  return (
    hasLegalFormAfterName(text) &&
    (/\(\s*[A-Z]{0,3}\d{4,}/i.test(text) || (digitCount(text) === 0 && !/,\s*$/.test(text)))
  );
}

/** Short words that belong in names ("Taste of the World", "Café de la Gare", "Bäckerei am Markt"). */
const NAME_PARTICLES = new Set(
  [
    "of",
    "de",
    "la",
    "le",
    "el",
    "du",
    "da",
    "di",
    "am",
    "an",
    "im",
    "en",
    "et",
    "y",
    "e",
    "i",
    "o",
    "a",
    "b",
    "to",
    "at",
    "by",
  ].map(foldForMatching),
);

/**
 * Tokens of a name that OCR made of a logo or dirt: signs ("©", "}", "=") and one- or two-letter words that are no
 * particle or legal form ("C MRT", "TQ FOR ..."). Printed names rarely carry them, so each makes the name doubtful.
 */
function strayTokens(name: string): number {
  return name
    .split(/\s+/)
    .filter(
      (t) =>
        isGarbageToken(t) ||
        /^[^\p{L}\d&(]+$/u.test(t) ||
        (/^\p{L}{1,2}$/u.test(t) && !NAME_PARTICLES.has(foldForMatching(t)) && !BUSINESS_WORDS.has(foldForMatching(t))),
    ).length;
}

/** Quotes, bars and question marks OCR puts before or after a name ("“SWC ENTERPRISE", "BHPETROL PERMAS JAYA ?"). */
function withoutStraySigns(name: string): string {
  return name.replace(/^[\s“”"'‘’`|~*•·»«,.;:!?_—–-]+/u, "").replace(/[\s“”"‘`|~*•·»«,;:!?_—–-]+$/u, "");
}

/**
 * An upper-case name or address line with a short lower-case word before or after it ("PRINT EXPERT SDN BHD beg",
 * "i 40000 SHAH ALAM"): OCR read a speck or a logo edge as that word. Legal forms stay ("ACME Co"), and so does a
 * capitalised word ("Fy EAGLE"), more likely a misread initial; particles only ever stand inside ("TASTE of THE").
 */
function withoutCaseStrays(name: string): string {
  const words = name.split(" ");
  const upper = words.filter((w) => letterCount(w) >= 2 && w === w.toUpperCase()).length;
  if (upper < 2) return name;
  const stray = (w: string | undefined) =>
    w !== undefined &&
    w === w.toLowerCase() &&
    digitCount(w) === 0 &&
    letterCount(w) > 0 &&
    letterCount(w) <= 3 &&
    !BUSINESS_WORDS.has(foldForMatching(w));
  let start = 0;
  let end = words.length;
  while (start < end - 1 && stray(words[start])) start++;
  while (end > start + 1 && stray(words[end - 1])) end--;
  return words.slice(start, end).join(" ");
}

/**
 * A row scoring this much reads as a business name: a line OCR read fairly well, mostly letters, near the top. A
 * street line ("NO. 31G, MAPLE ROAD") stays below it.
 */
const PLAUSIBLE_NAME = 1.5;

/** Phrases of till-receipt chatter that are never the shop's name. */
const CHATTER =
  /\b(thank|thanks|welcome|visit|again|order number|your order|cashier|table|pax|member|customer copy)\b/i;

/**
 * Receipts: merchant name is the best name-like line among the first lines of the first page (larger text and
 * company suffixes win; generic headings and noise lose); the address is the run of address lines after it,
 * skipping registration numbers, dates and headings printed in between.
 */
export function merchant(layout: Layout, repair: (word: Word) => Word = (word) => word): PartyDecision {
  const page = layout.pages[0];
  const none: PartyDecision = { name: { family: "name", best: null }, address: { family: "address", best: null } };
  if (!page) return none;
  const rowWords = (r: number) =>
    trimNoise(withoutNoiseSegments(rowSegments(page, r)).flatMap((s) => s.words)).map((w, i, all) =>
      // Glyph confusions are OCR's: a text layer's words are what the producer wrote.
      repair(w.source === "ocr" ? repairPremisesWord(repairGlyphConfusion(repairMixedGlyphs(w)), all[i + 1]) : w),
    );
  let best: { row: number; score: number } | null = null;
  // Rows are counted by the text they hold: a logo OCR read as rows of specks above the header pushes the name down
  // a quarter row each, and uses up as little of the twelve rows the name is looked for in.
  let rank = 0;
  // Whether the last row with words was an operator label alone ("Owned By :"), naming the operator on the next row.
  let operatorNext = false;
  for (let r = 0; r < page.rows.length && rank < 12; r++) {
    const segs = rowSegments(page, r);
    if (r > 0) rank += isTextRow(rowSegments(page, r - 1)) ? 1 : 0.25;
    // Scored as the name it would give: a registration number after it is cut and costs nothing. Whether the line
    // reads as an address is judged on all of it (a postcode is no registration number).
    const all = rowWords(r);
    const labelled = operatorLabelLength(all);
    const operated = labelled > 0 || operatorNext;
    if (all.length > 0) operatorNext = labelled === all.length;
    if (operatorNext) continue;
    // The operator's legal name ("Owned by: ACME Ltd") loses to the shop's name printed above it.
    if (operated && best && best.score >= PLAUSIBLE_NAME) continue;
    const words = dropTrailingRegistration(dropLeadingNumber(all));
    const text = wordsText(words);
    const fullText = wordsText(all);
    if (isGeneric(text) || isStopLine(segs) || isRegistrationLine(text) || REGISTRATION.test(text)) continue;
    // "COMPANY NO(814198-X)": a registration label, whatever is left of it once the number is cut.
    if (/^(company|co\.?)\s*(no|reg)/i.test(fullText)) continue;
    const height = Math.max(...segs.map((s) => s.height)) / (page.medianHeight || 1);
    const score =
      nameLikeness(text, words) +
      0.4 * Math.min(height - 1, 1) -
      0.2 * rank -
      // A business name is printed large and clear: a row OCR could not read with confidence is rather a logo.
      (isTextRow(segs) ? 0 : 0.5) -
      (/^\d/.test(text) ? 0.6 : 0) -
      (CHATTER.test(text) ? 1.2 : 0) -
      (looksLikeAddress(fullText) ? 0.8 : 0);
    if (!best || score > best.score) best = { row: r, score };
  }
  if (!best) return none;
  const nameRows = [best.row];
  const current = wordsText(rowWords(best.row));
  const previous = best.row > 0 ? wordsText(rowWords(best.row - 1)) : "";
  const next = wordsText(rowWords(best.row + 1));
  const onlySuffix =
    (COMPANY_SUFFIX.test(current) && current.split(" ").length <= 4 && /^(sdn|bhd|co|s\/b|\(m\))/i.test(current)) ||
    onlyTradeAndForm(rowWords(best.row));
  const nextRow = rowWords(best.row + 1);
  // A name broken over two lines: "POPULAR BOOK" + "CO. (M) SDN BHD", or "NANDO'S ..." + "SDN BHD".
  if (onlySuffix && previous && letterCount(previous) >= 3 && digitCount(previous) === 0 && !isGeneric(previous)) {
    nameRows.unshift(best.row - 1);
  } else if (/&$/.test(rowText(rowSegments(page, best.row))) || /^&/.test(rowText(rowSegments(page, best.row + 1)))) {
    // "HOME MASTER HARDWARE &" + "ELECTRICAL": a name does not end on "&" nor a line start with it.
    const nextText = wordsText(nextRow);
    if (letterCount(nextText) >= 3 && digitCount(nextText) === 0 && !isStopLine(rowSegments(page, best.row + 1))) {
      nameRows.push(best.row + 1);
    }
  } else if (!COMPANY_SUFFIX.test(current) && COMPANY_SUFFIX.test(next) && digitCount(next) === 0) {
    // "OLD ASIA" + "OWN BY: CHEF LEE SDN BHD": an operator's name is another company's, not the rest of this one.
    const operator = operatorLabelLength(rowWords(best.row + 1)) > 0;
    if (!isStopLine(rowSegments(page, best.row + 1)) && !REGISTRATION.test(next) && !operator) {
      nameRows.push(best.row + 1);
    }
  } else {
    nameRows.push(...runOnToLegalForm(page, best.row, rowWords));
  }
  // "BEMED (SP) SDN." + "BHD.": a legal form alone on the next line completes the name.
  const after = rowWords((nameRows[nameRows.length - 1] ?? best.row) + 1);
  if (after.length > 0 && after.length <= 2 && after.every((w) => BUSINESS_WORDS.has(foldForMatching(w.text)))) {
    nameRows.push((nameRows[nameRows.length - 1] ?? best.row) + 1);
  }
  // An "&" that joins two rows of the name is no speck at a row's end.
  const joinedRows = nameRows.flatMap((r, i) => {
    const words = rowWords(r);
    const ampersand = rowSegments(page, r)
      .flatMap((seg) => seg.words)
      .filter((w) => w.text === "&");
    const last = ampersand[ampersand.length - 1];
    return i < nameRows.length - 1 &&
      last &&
      words[words.length - 1] !== last &&
      words.length > 0 &&
      /&$/.test(rowText(rowSegments(page, r)))
      ? [...words, last]
      : words;
  });
  // A registration number printed after the name, "(139386 X)", is not part of it.
  const nameWords = afterLegalForm(dropLeadingLabel(dropTrailingRegistration(dropLeadingNumber(joinedRows))));
  const nameText = withoutStraySigns(
    withoutCaseStrays(
      lettersForSigns(
        bracketsForBraces(shortLegalForm(joinBrokenWords(collapseSpaces(repairLegalForm(nameWords).join(" "))))),
      ),
    ),
  );
  const name = scoredOf(nameText, best.score - 0.8 * Math.min(strayTokens(nameText), 3), nameWords);

  const below = (nameRows[nameRows.length - 1] ?? best.row) + 1;
  // Some receipts print the address above the name they end up chosen for (a shop's address, then "Owned by: ...").
  const above = addressRuns(page, 0, nameRows[0] ?? best.row, rowWords).map((run) => ({ run, penalty: 0.5 }));
  const runs = [...addressRuns(page, below, below + 10, rowWords).map((run) => ({ run, penalty: 0 })), ...above];
  const address = runs.reduce<Scored | null>((top, { run, penalty }) => {
    const joined = joinAddress(run.lines);
    const read = run.lineWords.some((line) => line.some((w) => w.source === "ocr"));
    const value = joinBrokenWords(splitRunTogether(read ? repairPostcode(joined) : joined));
    const candidate = scoredOf(value, addressEvidence(run) - penalty, run.lineWords.flat());
    return !top || candidate.score > top.score ? candidate : top;
  }, null);
  return { name: { family: "name", best: name }, address: { family: "address", best: address } };
}

/**
 * A row that is only a kind of business and a legal form ("RESTAURANT SDN BHD"): the rest of the name is on the line
 * above.
 */
function onlyTradeAndForm(words: readonly Word[]): boolean {
  const form = LEGAL_FORMS.find((f) => words.length > f.length && nearLegalForm(words.slice(-f.length), f));
  if (!form) return false;
  const head = words.slice(0, words.length - form.length);
  return head.length <= 2 && head.every((w) => isTradeWord(w.text) || BUSINESS_WORDS.has(foldForMatching(w.text)));
}

/**
 * A row holding text rather than specks: some segment OCR read with fair confidence and a few letters or digits. A
 * logo or a stamp comes out as rows of doubtful two- and three-letter "words" ("ee", "Riese", "oA ae").
 */
function isTextRow(segs: readonly LineSegment[]): boolean {
  return segs.some((s) => meanConfidence(s.words) >= 0.65 && letterCount(s.text) + digitCount(s.text) >= 3);
}

/**
 * A row without the segments OCR made of a logo or dirt at its ends, beside printed text ("Bae | PAGOH REST AND
 * SERVICE AREA", "FY EAGLE ENTERPRISE | T | T | R | = | R"): read with low confidence, or lone characters read with
 * less than full confidence, where another segment of the row was read well. Doubtful segments between two printed
 * ones stay: they are part of the line, misread.
 */
function withoutNoiseSegments(segs: readonly LineSegment[]): LineSegment[] {
  if (!segs.some((s) => meanConfidence(s.words) >= 0.8)) return [...segs];
  // A lone letter joined by "&" to the next or previous segment ("B | & B RESTAURANT") is part of the line.
  const joined = (i: number) =>
    (segs[i + 1]?.text.startsWith("&") ?? false) || (segs[i - 1]?.text.trimEnd().endsWith("&") ?? false);
  const noise = (i: number) => {
    const s = segs[i] as LineSegment;
    const confidence = meanConfidence(s.words);
    const chars = letterCount(s.text) + digitCount(s.text);
    return confidence < 0.5 || (confidence < 0.8 && chars <= 1 && !(letterCount(s.text) === 1 && joined(i)));
  };
  let start = 0;
  let end = segs.length;
  while (start < end && noise(start)) start++;
  while (end > start && noise(end - 1)) end--;
  return segs.slice(start, withoutSpacedTail(segs.slice(0, end)));
}

/** Segments of a row's spaced-out tail that make it decoration, not text. */
const SPACED_TAIL = 3;

/**
 * The end of a row without a tail of lone letters and pairs beside its printed text ("FY EAGLE ENTERPRISE | F | T |
 * E | 3 | H O | R"): a stamp or a logo's letters, however surely OCR read each one, never continue a name or an
 * address line. A row that is all spaced letters ("T E S C O") keeps them.
 */
function withoutSpacedTail(segs: readonly LineSegment[]): number {
  let end = segs.length;
  while (end > 1 && letterCount(segs[end - 1]?.text ?? "") + digitCount(segs[end - 1]?.text ?? "") <= 2) end--;
  const head = segs.slice(0, end);
  const printed = head.some((s) => letterCount(s.text) >= 3 && meanConfidence(s.words) >= 0.8);
  return segs.length - end >= SPACED_TAIL && printed ? end : segs.length;
}

function wordsText(words: readonly Word[]): string {
  return collapseSpaces(words.map((w) => w.text).join(" "));
}

/** A run of consecutive address lines under a receipt's name. */
interface AddressRun {
  lines: string[];
  lineWords: Word[][];
  /** Rows between the name and the run: a shop's address is printed right under its name. */
  gap: number;
  /** Whether the run closes on the shop's outlet line (isOutletLine). */
  outlet?: boolean;
}

/**
 * The line under a chain store's address that names the outlet: a store number and its place ("1245-DESA SRI
 * HARTAMAS", "1317 TRILLIUM SG BESI") or a place in brackets ("(ACME TESCO TERBAU)"). Printed as the last line of
 * the address block, it is part of the address as printed.
 */
function isOutletLine(text: string): boolean {
  const t = text.trim();
  return /^\d{3,4}\s?-?\s?\p{L}{2,}[\p{L}\d ]*$/u.test(t) || /^\([\p{L} ]{4,}\)$/u.test(t);
}

/** The postcode line is the run's last line, or the last but a region line ("43300 SERI KEMBANGAN" + "SELANGOR"). */
function endsOnPostcodeLine(lines: readonly string[]): boolean {
  const last = lines.length - 1;
  const postcode = lines.findIndex((l) => /(^|[\s,.])\d{5}(?=[\s,.]|$)/.test(l));
  return postcode >= 0 && (postcode === last || (postcode === last - 1 && digitCount(lines[last] ?? "") === 0));
}

/**
 * Words of till chatter and document fields that never occur in an address ("PREPAY CHIT NUMBER", "Slip No", "Guest
 * Check", "Pay By: CASH").
 */
const NOT_ADDRESS =
  /\b(number|nummer|num[eé]ro|n[uú]mero|chit|slip|check|pay|counter|cashier|kasse|caisse|caja|kassa|receipt|invoice|rechnung|facture|factura|factuur)\b/i;

/** Branch and licence lines printed between a trading name and its address ("Damansara Utama Outlet"). */
const BRANCH =
  /\b(outlet|branch|licen[cs]ee|franchisee|filiale|niederlassung|zweigstelle|succursale|agence|sucursal|vestiging|filiaal|cawangan)\b/i;

/**
 * The first line of a run that names the shop rather than locating it: a branch or licensee line, a possessive
 * trading name without a street word ("Nando's 1 Mont Kiara"), or a trade name without a number ("PASARAYA BORONG
 * SUPER SEVEN": wholesale supermarket).
 */
function isTradingLine(text: string): boolean {
  if (STREET.test(text) && !BRANCH.test(text)) return false;
  const tradeName = digitCount(text) === 0 && text.split(/[\s,.]+/).some(isTradeWord);
  return BRANCH.test(text) || /\p{L}['’]s\b/iu.test(text) || tradeName;
}

/** "Site: 1046", "Store: 12": a short label with a bare number is no address line; "No: 12, Jalan ..." is one. */
function isLabelledNumber(text: string): boolean {
  const m = /^(\p{L}[\p{L} ]{0,15}?)\s?:\s*[A-Z]{0,2}\d+[A-Z]?$/iu.exec(text.trim());
  return m !== null && !STREET.test(m[1] ?? "");
}

/**
 * The words of a line before a contact label inside it ("91750 Johor Bahru, Johor. Tel No.: 07-387 3322"), when they
 * read as an address line; otherwise the whole line, which then ends the address as a contact line.
 */
function beforeContact(words: readonly Word[]): Word[] {
  const cut = words.findIndex((w, i) => {
    if (i === 0) return false;
    const roles = (LABELS.get(foldForMatching(w.text)) ?? []).map((e) => e.role);
    if (!roles.includes("contact")) return false;
    const next = words[i + 1]?.text ?? "";
    return /[:.]$/.test(w.text) || /^[:+(\d]/.test(next) || /^(no|nr)\b/i.test(next);
  });
  if (cut <= 0) return [...words];
  const kept = words.slice(0, cut);
  const text = wordsText(kept);
  return hasPostcode(text) || STREET.test(text) || isCountry(text) ? kept : [...words];
}

/** A web address OCR broke apart ("wwe .moonl ightcake . com"): no address line. */
const WEB = /(^|\s)(www?e?|https?)\b|\.\s?(com|net|org)\b/i;

/**
 * Lines under a name that are never part of its address: contacts, ids and registration numbers ("SA0127959-D"),
 * headings, labels waiting for their value ("Owned By:", "PASARAYA ... :"), the operator's legal name...
 */
function isNonAddressLine(segs: readonly LineSegment[], text: string): boolean {
  return (
    isStopLine(segs) ||
    isRegistrationLine(text) ||
    REGISTRATION.test(text) ||
    isGeneric(text) ||
    /^\(.*\)$/.test(text) ||
    /\d{8,}/.test(text.replace(/[\s-]/g, "")) ||
    isCompanyLine(text) ||
    isLabelledNumber(text) ||
    /:\s*$/.test(text) ||
    // A registration number, also behind a label OCR glued to it ("Co-REGi:860671-D").
    text.split(/[\s,:]+/).some((t) => /^\(?[A-Z]{0,3}\d{6,}-?[A-Z]\)?$/i.test(t)) ||
    NOT_ADDRESS.test(text) ||
    WEB.test(text) ||
    CHATTER.test(text)
  );
}

/** "56000 Kuala Lumpur, Malaysia": a line ending on a country ends the address. */
function endsWithCountry(text: string): boolean {
  const parts = text.split(/[,.]\s*/).filter((p) => p.trim() !== "");
  const last = parts[parts.length - 1];
  return isCountry(text) || (parts.length > 1 && last !== undefined && isCountry(last));
}

/**
 * Whether `text` no longer belongs to the address of `lines`: after a country nothing does, and after the postcode
 * line only a country or one short region line ("Selangor", "Darul Ehsan") does, never a line with digits.
 */
function closesAddress(lines: readonly string[], text: string): boolean {
  if (lines.some(endsWithCountry)) return true;
  const postcode = lines.findIndex(hasPostcode);
  if (postcode < 0 || isCountry(text)) return false;
  const tokens = text.split(/\s+/);
  // The state printed on its own line after the town ("CAMERON HIGHLANDS" + "PAHANG"), or spelt out at length
  // ("PETALING JAYA, SELANGOR DARUL EHSAN."), still belongs to the address.
  const state =
    digitCount(text) === 0 &&
    tokens.length <= 6 &&
    postcode >= lines.length - 2 &&
    namesState(text) &&
    !tokens.some(isGarbageToken);
  if (state) return false;
  if (digitCount(text) > 0 || postcode < lines.length - 1) return true;
  return tokens.length > 4 || letterCount(text) < 3 || tokens.some(isGarbageToken);
}

/**
 * The words of row `r` that can be an address line (none for specks), or null when the row cannot be one: the whole
 * row, the part before a contact label inside it, or its first column when the columns beside it hold a phone number
 * or an e-mail address ("NO. 9, JALAN 16/11, ..." | "Careline : 1800 88 1231").
 */
function addressLine(page: PageLayout, r: number, rowWords: (row: number) => Word[]): Word[] | null {
  const segs = rowSegments(page, r);
  const whole = beforeContact(rowWords(r));
  const text = wordsText(whole);
  if (letterCount(text) + digitCount(text) === 0) return [];
  if (!isNonAddressLine(segs, text)) return whole;
  const first = segs[0];
  if (segs.length < 2 || !first) return null;
  const left = beforeContact(trimNoise(first.words));
  return isNonAddressLine([first], wordsText(left)) ? null : left;
}

/**
 * Runs of address lines in the ten rows under the name (at most three runs of five lines): lines that cannot be
 * address lines separate runs, specks between lines do not. Each run is scored on its own (addressEvidence), so a
 * registration number misread as text above the address no longer stands in for it.
 */
function addressRuns(page: PageLayout, first: number, end: number, rowWords: (row: number) => Word[]): AddressRun[] {
  const runs: AddressRun[] = [];
  let run: AddressRun | null = null;
  const close = () => {
    if (run && run.lines.length > 0) runs.push(withoutTradingLine(run));
    run = null;
  };
  for (let r = first; r < Math.min(page.rows.length, end) && runs.length < 3; r++) {
    const open = run as AddressRun | null;
    if (open && !open.outlet && endsOnPostcodeLine(open.lines)) {
      const words = rowWords(r);
      if (isOutletLine(wordsText(words))) {
        open.lines.push(wordsText(words));
        open.lineWords.push(words);
        open.outlet = true;
        continue;
      }
    }
    const words = addressLine(page, r, rowWords);
    if (words === null) {
      close();
      continue;
    }
    // Specks and rule lines read as "|", ".", "-" between the lines of an address neither end nor join it.
    if (words.length === 0) continue;
    const text = withoutCaseStrays(wordsText(words));
    const current: AddressRun = run ?? { lines: [], lineWords: [], gap: r - first };
    if (closesAddress(current.lines, text) || current.lines.length >= 5) {
      close();
      run = { lines: [text], lineWords: [words], gap: r - first };
      continue;
    }
    current.lines.push(text);
    current.lineWords.push(words);
    run = current;
  }
  close();
  return runs;
}

/** Buildings an address starts with ("PARADIGM MALL", "MENARA ACME"): part of the address, not the shop. */
const BUILDING =
  /\b(mall|plaza|centre|center|complex|kompleks|tower|menara|wisma|bangunan|building|square|arcade|galleria|parade)\b/i;

/** How an address's first line starts: a house, lot, unit or floor number, or the street itself. */
const PREMISES =
  /^(no\b|no\.|lot\b|\d|level\b|lvl\b|unit\b|blk\b|block\b|ground\b|tingkat\b|aras\b|suite\b|jalan\b|jln\b|pt\s?\d|\p{L}{1,2}-?\d)/iu;

/**
 * Whether a run's first line is a shop's trading or branch name above its address ("IKEA Cheras" over "No 2A Jalan
 * ..."): no digits, no street word, and the next line starts the way addresses do (PREMISES) while it does not.
 */
function namesShopAbove(first: string, second: string | undefined): boolean {
  return (
    second !== undefined &&
    digitCount(first) === 0 &&
    !STREET.test(first) &&
    !BUILDING.test(first) &&
    !PREMISES.test(first.trim()) &&
    PREMISES.test(second.trim()) &&
    // "15000 KHEMISSET": a postcode line under a street line without a number is the end of an address.
    !/^\d{5}\b/.test(second.trim())
  );
}

function withoutTradingLine(run: AddressRun): AddressRun {
  const [first, ...rest] = run.lines;
  if (first === undefined || rest.length === 0) return run;
  if (!isTradingLine(first) && !namesShopAbove(first, rest[0])) return run;
  return { lines: rest, lineWords: run.lineWords.slice(1), gap: run.gap + 1 };
}

/** Signs OCR makes of specks and misread letters, inside or around a token ("$1150", "§1700", "7’4", "Sela:igor"). */
function isGarbageToken(token: string): boolean {
  return /[$§£€¥!?|{}[\]<>«»“”"~^*_=+\\@]/.test(token) || /\p{L}[:;]\p{L}|\d[’‘']\d/u.test(token);
}

/** Street words closing a compound ("Goethestraße", "Lindenallee", "Keizersgracht"): STREET matches words only. */
const STREET_SUFFIX =
  /\p{L}(stra(ss|ß)e|str\.|weg|gasse|platz|allee|damm|ufer|straat|laan|gracht|plein|kade|singel)\b/iu;

/**
 * A postcode in one of the last two lines: an address block ends on its postcode and town (or country). OCR's case
 * slips in British-style codes ("Qx15 7WI") do not make them less of a postcode.
 */
function endsOnPostcode(lines: readonly string[]): boolean {
  return lines
    .slice(-2)
    .some((l) => /(^|[\s,.])\d{4,6}(?=[\s,.]|$)/.test(l) || /\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b/i.test(l));
}

/**
 * Raw score of an address run: how much it reads like an address (lines, digits, a street word, a closing postcode)
 * less what OCR made doubtful (garbage tokens, words it was unsure of), prices (item lines) and its distance from the
 * name. The mean OCR confidence is weighed by the calibration curve; doubtful words count apart from it because one
 * misread word makes the whole address wrong however well the rest was read.
 */
function addressEvidence(run: AddressRun): number {
  const text = joinAddress(run.lines);
  const tokens = text.split(/[\s,]+/).filter((t) => t !== "");
  const garbage = tokens.filter(isGarbageToken).length;
  const prices = tokens.filter((t) => /^\d+[.,]\d{2,4}$/.test(t)).length;
  const doubtful = run.lineWords.flat().filter((w) => w.confidence < 0.5).length;
  return (
    0.5 +
    0.25 * Math.min(run.lines.length, 3) +
    (digitCount(text) > 0 ? 0.5 : -0.5) +
    (endsOnPostcode(run.lines) ? 0.3 : 0) +
    (STREET.test(text) || STREET_SUFFIX.test(text) ? 0.2 : 0) -
    0.4 * Math.min(garbage, 3) -
    0.25 * Math.min(doubtful, 4) -
    0.5 * Math.min(prices, 2) -
    0.15 * run.gap
  );
}

/**
 * Lines of a block starting at `row` in the column of `x0`: left-aligned, no big vertical gap; with `right`, the
 * lines set flush right against it instead (a block right-aligned at the page's edge under its heading).
 */
function blockBelow(
  page: PageLayout,
  row: number,
  x0: number,
  x1: number,
  maxLines: number,
  right?: number,
): LineSegment[][] {
  const lines: LineSegment[][] = [];
  let lastBottom: number | null = null;
  let lastTop: number | null = null;
  let pitch: number | null = null;
  let lastHeight = page.medianHeight;
  const inColumn = (s: LineSegment): boolean =>
    right === undefined ? s.box.x0 >= x0 - 0.03 && s.box.x0 < x1 : Math.abs(s.box.x1 - right) < FLUSH;
  for (let r = row; r < page.rows.length && lines.length < maxLines; r++) {
    const segs = rowSegments(page, r).filter(inColumn);
    // Rows with nothing in this column (a letterhead beside the address window) neither add nor end the block.
    if (segs.length === 0) continue;
    const top = Math.min(...segs.map((s) => s.box.y0));
    if (lastBottom !== null && top - lastBottom > 2.2 * lastHeight) break;
    // A block keeps its line spacing; a clearly wider step starts the next block (a table, a heading).
    if (lastTop !== null && pitch !== null && top - lastTop > 1.4 * pitch) break;
    if (lastTop !== null && pitch === null) pitch = top - lastTop;
    lines.push(segs);
    lastTop = top;
    lastBottom = Math.max(...segs.map((s) => s.box.y1));
    lastHeight = Math.max(...segs.map((s) => s.box.y1 - s.box.y0));
  }
  return lines;
}

/** Attention lines inside an address block ("z. Hd. ...", "Attn: ...") are neither name nor address. */
const ATTENTION = /^(z\.?\s?hd|attn|attention|c\/o|a l'attention|t\.a\.v|ter attentie)/i;
/** A department over the party's name ("Accounts Payable", "Purchasing Department", "Abteilung Einkauf", "Buyer dep"). */
const DEPARTMENT =
  /^(?:(?:buyer|customer|client)\s+)?(?:dep|dept|department|abteilung|abt)\b|\b(?:dep|dept|department)\.?$|^accounts\s+payable$/i;
/** Salutations printed before a person's name belong to it as printed ("Herrn Max Mustermann"). */
const SALUTATION =
  /^(herrn?|frau|firma|mr\.?|mrs\.?|ms\.?|miss|m\.|mme|monsieur|madame|dhr\.?|mevr\.?|sr\.?|sra\.?|don|do[nñ]a)$/i;

/** "Nummer: 549910", "GLN 4000001123452", "Handelsname: 9999": label-value lines inside a party block. */
function isLabelValueLine(line: readonly LineSegment[]): boolean {
  const text = rowText(line);
  if (line.length > 1 && line[0] && wholeLabel(line[0]).length > 0) return true;
  if (/^[\p{L}][\p{L}.\-/ ]{1,30}\s?:\s*\S/u.test(text)) return true;
  return /\d{6,}/.test(text.replace(/\s/g, "")) && letterCount(text) < 12;
}

/**
 * Splits the lines of a party block into name lines and address lines. The name is the first line, plus the next
 * one when the first is a salutation or when the next carries the company suffix the first lacks; label-value and
 * attention lines are skipped; a line without digits right after the name is a contact person, not an address.
 */
function splitBlock(lines: LineSegment[][]): { name: LineSegment[]; address: LineSegment[] } {
  const name: LineSegment[] = [];
  const address: LineSegment[] = [];
  let nameOpen = false;
  for (const line of lines) {
    const seg = line[0];
    if (!seg) continue;
    const text = seg.text;
    if (ATTENTION.test(text) || isLabelValueLine(line)) continue;
    // A caption ("Customer name") or a department ("Buyer dep") over the name is neither name nor address.
    if (name.length === 0 && (isNameCaption(text) || DEPARTMENT.test(text.trim()))) continue;
    if (name.length === 0) {
      // A heading over the block ("Delivery address", "Ship to", "Vertragsnr.:") is a label, not the party's name.
      // "Receipt from ACME Inc." is a title over a name, not a heading (blockDecision drops the title).
      const titled = titlePrefixLength(seg.words) > 0;
      const heading =
        !titled && (isGeneric(text) || isStopLine(line) || wholeLabel(seg).length > 0 || /:$/.test(text.trim()));
      if (digitCount(text) > 0 || heading) continue;
      name.push(seg);
      nameOpen = SALUTATION.test(text.trim()) || !COMPANY_SUFFIX.test(text);
      continue;
    }
    // "Brandt Technik GmbH & Co." + "KG": a legal form alone on the next line completes the name.
    if (name.length === 1 && address.length === 0 && onlyLegalForm(seg)) {
      name.push(seg);
      nameOpen = false;
      continue;
    }
    if (nameOpen && address.length === 0 && digitCount(text) === 0 && !isStopLine(line)) {
      const first = name[0]?.text.trim() ?? "";
      if (SALUTATION.test(first) || COMPANY_SUFFIX.test(text)) {
        // A contact person or a department printed over the company billed ("Emily Smith", "Accounts Payable" over
        // "Albion Consulting Limited"): the company, whole on its line, is the party. A name wrapped before its legal
        // form ("Southern Cross IT" over "Services Pty Ltd") stays one name.
        const contact = !SALUTATION.test(first) && completeCompany(seg);
        if (contact) name.splice(0, 1, seg);
        else name.push(seg);
        nameOpen = false;
        continue;
      }
    }
    nameOpen = false;
    if (isStopLine(line)) break;
    if (address.length === 0 && digitCount(text) === 0) continue;
    const last = address[address.length - 1];
    if (last && ((hasPostcode(last.text) && !isCountry(text)) || isCountry(last.text))) break;
    address.push(seg);
    if (address.length >= 4) break;
  }
  return { name, address };
}

/**
 * A document title printed on the same line as the issuer's name ("ACME GmbH Rechnungskorrektur") is not part of it.
 * `read` says OCR read the name: a title misread then still ends it, while a text layer's word is what was printed
 * and ends a name only as the title itself ("Daan Meijer" keeps "Meijer", two letters from "member").
 */
function withoutTitle(name: string, read: boolean): string {
  const words = name.split(" ");
  const title = (text: string) => (read ? isGeneric(text) : GENERIC.has(foldForMatching(text)));
  for (let k = Math.min(3, words.length - 1); k >= 1; k--) {
    if (title(words.slice(-k).join(" "))) return words.slice(0, -k).join(" ");
  }
  return name;
}

/** A company name on one line: two or more words of its own before a closing legal form ("Albion Consulting Ltd"). */
function completeCompany(seg: LineSegment): boolean {
  const formAt = seg.folded.findIndex((w) => LEGAL_FORM_WORDS.has(w));
  return formAt >= 2 && legalFormEnd(seg, formAt) === seg.words.length;
}

/** A line of legal-form words only ("KG", "Pty Ltd", "& Co. KG"). */
function onlyLegalForm(seg: LineSegment): boolean {
  return (
    seg.words.length <= 4 &&
    seg.words.every((w, i) => LEGAL_FORM_WORDS.has(seg.folded[i] ?? "") || LEGAL_JOIN.has(w.text)) &&
    seg.words.some((_, i) => LEGAL_FORM_WORDS.has(seg.folded[i] ?? ""))
  );
}

/** Prepositions that join a document title to its issuer: "Receipt from", "Zahlungsbeleg von", "Reçu de". */
const FROM_WORDS = new Set(["from", "by", "of", "von", "de", "du", "des", "van", "da"]);

/**
 * "Receipt from Acme Inc.", "Zahlungsbeleg von ACME GmbH": the words of a title and its preposition before a name,
 * which are not part of it (none when the line is no such title).
 */
function titlePrefixLength(words: readonly Word[]): number {
  for (let k = 1; k <= Math.min(3, words.length - 2); k++) {
    const title = foldForMatching(
      words
        .slice(0, k)
        .map((w) => w.text)
        .join(" "),
    );
    if (GENERIC.has(title) && FROM_WORDS.has(foldForMatching(words[k]?.text ?? ""))) return k + 1;
  }
  return 0;
}

function blockDecision(lines: LineSegment[][], base: number): PartyDecision {
  const { name, address } = splitBlock(lines);
  const lineWords = name.flatMap((s) => s.words);
  const nameWords = lineWords.slice(titlePrefixLength(lineWords));
  const addressWords = address.flatMap((s) => s.words);
  const read = nameWords.some((w) => w.source === "ocr");
  const nameText = withoutTitle(collapseSpaces(nameWords.map((w) => w.text).join(" ")), read);
  const nameScore = base + (COMPANY_SUFFIX.test(nameText) ? 0.3 : 0) - (name.length > 2 ? 0.4 : 0);
  const addressText = joinAddress(address.map((s) => s.text));
  const addressScore = base - 0.2 + (address.length >= 2 ? 0.3 : 0) - (digitCount(addressText) === 0 ? 0.8 : 0);
  return {
    name: { family: "name", best: name.length > 0 ? scoredOf(nameText, nameScore, nameWords) : null },
    address: { family: "address", best: address.length > 0 ? scoredOf(addressText, addressScore, addressWords) : null },
  };
}

/** The value segment of a "Name:" / "Anschrift:" row inside a labelled section. */
function labelledRows(page: PageLayout, from: number): PartyDecision | null {
  let name: { segs: LineSegment[]; row: number } | null = null;
  const addressSegs: LineSegment[] = [];
  for (let r = from; r < Math.min(page.rows.length, from + 8); r++) {
    const segs = rowSegments(page, r);
    const [label, value] = segs;
    if (!label) continue;
    const roles = wholeLabel(label);
    if (r > from && segs.length === 1 && roles.some((x) => x === "supplier" || x === "customer")) break;
    if (!value) {
      if (addressSegs.length > 0 && label.box.x0 > (page.rows[from]?.[0]?.box.x0 ?? 0) + 0.05) addressSegs.push(label);
      continue;
    }
    if (roles.includes("name") && !name) {
      // A long name wraps upwards in some layouts: unlabelled lines in the value column right above belong to it.
      const above: LineSegment[] = [];
      for (let u = r - 1; u >= from; u--) {
        const row = rowSegments(page, u);
        const only = row[0];
        if (row.length !== 1 || !only || Math.abs(only.box.x0 - value.box.x0) > 0.02) break;
        above.unshift(only);
      }
      name = { segs: [...above, value], row: r };
    } else if (roles.includes("address") && addressSegs.length === 0) addressSegs.push(value);
    else if (addressSegs.length > 0) break;
  }
  if (!name) return null;
  const nameText = collapseSpaces(name.segs.map((s) => s.text).join(" "));
  const addressText = joinAddress(addressSegs.map((s) => s.text));
  return {
    name: {
      family: "name",
      best: scoredOf(
        nameText,
        1.8,
        name.segs.flatMap((s) => s.words),
      ),
    },
    address: {
      family: "address",
      best:
        addressSegs.length > 0
          ? scoredOf(
              addressText,
              1.5,
              addressSegs.flatMap((s) => s.words),
            )
          : null,
    },
  };
}

/** How near two right edges must be to call lines flush right with each other (page-width ratio). */
const FLUSH = 0.012;

/**
 * The right edge of a block set flush right under its heading `seg` (in `row`), or undefined for a left-aligned one:
 * the first line under the heading ends where the heading ends and starts clearly left of it ("Billing Address :"
 * over "Blue Ridge Industries Inc.", both against the page's right margin).
 */
function flushRight(page: PageLayout, row: number, seg: LineSegment): number | undefined {
  for (let r = row + 1; r < Math.min(page.rows.length, row + 3); r++) {
    const under = rowSegments(page, r).filter((s) => s.box.x1 > seg.box.x0 && s.box.x0 < seg.box.x1);
    if (under.length === 0) continue;
    const flush = under.length === 1 && under[0] !== undefined && Math.abs(under[0].box.x1 - seg.box.x1) < FLUSH;
    return flush && (under[0]?.box.x0 ?? 1) < seg.box.x0 - 0.03 ? seg.box.x1 : undefined;
  }
  return undefined;
}

/** Sections introduced by a party label ("Verkäufer", "Bill to:", "Client"): a label alone on its segment. */
function labelledParty(layout: Layout, role: "supplier" | "customer"): PartyDecision | null {
  for (const page of layout.pages) {
    for (let r = 0; r < page.rows.length; r++) {
      for (const seg of rowSegments(page, r)) {
        const roles = wholeLabel(seg);
        // A label wrapped in a narrow column names what it spells whole: "Customer" over "ID:", a customer number.
        const wrapped = wrappedLabel(page, seg);
        if (!roles.includes(role) || wrapped?.entries.every((e) => e.role !== role)) continue;
        // "Client" alone in a table header row is no section label: require the segment to stand alone on its row,
        // or to end on a colon as section labels do ("To:", "Aan:") and table headers do not.
        const strong =
          foldForMatching(seg.text).length > 3 || rowSegments(page, r).length === 1 || /:\s*$/.test(seg.text);
        if (!strong) continue;
        const rows = labelledRows(page, r + 1);
        if (rows) return rows;
        const lines = blockBelow(page, r + 1, seg.box.x0, seg.box.x0 + 0.3, 7, flushRight(page, r, seg));
        if (lines.length > 0) return blockDecision(lines, 1.8);
      }
    }
  }
  return null;
}

/**
 * A caption for a name, printed where a template was not filled in or above the name it introduces ("Company Name",
 * "Your Business Name", "SELLER TRADE NAME"): no company is called that.
 */
const NAME_CAPTION =
  /^(?:your\s+)?(?:(?:seller|supplier|vendor|buyer|customer|client|contact|company|business|trade|trading|legal|registered|shop|store)\s+){1,3}name$/i;

function isNameCaption(text: string): boolean {
  return NAME_CAPTION.test(collapseSpaces(text.trim()));
}

/** Invoice header: the largest non-generic name-like line in the top quarter of the first page. */
function headerParty(layout: Layout, customerWords: ReadonlySet<number> = new Set()): PartyDecision | null {
  const page = layout.pages[0];
  if (!page) return null;
  let best: { row: number; seg: LineSegment; score: number } | null = null;
  for (let r = 0; r < page.rows.length; r++) {
    for (const seg of rowSegments(page, r)) {
      if (seg.box.y0 > 0.3) continue;
      // The bill-to block often comes first on the page: none of its lines is the issuer.
      if (seg.words.some((w) => customerWords.has(w.id))) continue;
      // Text standing in for a logo ("LOGO", "Your logo here") names nobody: a template's placeholder.
      if (seg.folded.slice(0, 2).includes("logo") || isNameCaption(seg.text)) continue;
      // Nor is a line item: a row that ends on an amount.
      if (rowSegments(page, r).some((o) => o !== seg && o.box.x0 > seg.box.x1 && /\d[.,]\d{2}\D{0,4}$/.test(o.text)))
        continue;
      // "Receipt from ACME Inc." names the issuer after its title; a title or a label alone names nobody.
      const titled = titlePrefixLength(seg.words) > 0;
      if (!titled && (GENERIC.has(foldForMatching(seg.text)) || isStopLine([seg]))) continue;
      // Values of "Label: value" pairs and the first line under a "Bill to" label are not the issuer's name.
      if (isLabelValueLine([seg]) || wholeLabel(seg).length > 0) continue;
      const above = spanLabels(layout, spanOf(seg, 0, 1)).above;
      if (above?.roles.some((e) => e.role === "customer")) continue;
      const height = printedHeight(seg) / (page.medianHeight || 1);
      const suffix = COMPANY_SUFFIX.test(seg.text) ? 1 : 0;
      const score =
        0.5 * nameLikeness(seg.text, seg.words) + 0.6 * Math.min(height - 1, 1.5) + 0.6 * suffix - 2.5 * seg.box.y0;
      if (!best || score > best.score) best = { row: r, seg, score };
    }
  }
  if (!best) return null;
  const chosenSeg = best.seg;
  // A display-size name wrapped over lines ("Southern Cross IT" over "Services Pty Ltd"): the lines right above it
  // in the same column and the same large type belong to it. A centred title wraps centred ("Zahlungsbeleg von
  // Sonnenschein Software" over "KG"): the block then spans the widest of its lines.
  let top = best.row;
  let { x0, x1 } = chosenSeg.box;
  while (top > 0 && best.row - top < 2) {
    const above = rowSegments(page, top - 1).find((s) => sameColumn(s, chosenSeg));
    if (!above || !wrapsInto(above, chosenSeg, page, customerWords)) break;
    top--;
    x0 = Math.min(x0, above.box.x0);
    x1 = Math.max(x1, above.box.x1);
  }
  const lines = blockBelow(page, top, x0, x1, 6);
  const decision = blockDecision(lines, 0.6 + 0.3 * best.score);
  // The issuer's name is the line chosen: when the block's reading skips it (a billing period, a date line), the line
  // it takes instead is whatever follows (a line item), not a name.
  const chosen = new Set(best.seg.words.map((w) => w.id));
  if (!decision.name.best?.words.some((w) => chosen.has(w.id))) return null;
  return decision;
}

/** Whether two lines share a column: their left edges align, or both are centred on the same axis. */
const sameColumn = (a: LineSegment, b: LineSegment): boolean =>
  Math.abs(a.box.x0 - b.box.x0) < 0.02 || Math.abs(a.box.x0 + a.box.x1 - b.box.x0 - b.box.x1) < 0.04;

/** Whether `above` is the upper part of the display-size name `seg` wrapped under it: same type, no gap, no digits. */
function wrapsInto(
  above: LineSegment,
  seg: LineSegment,
  page: PageLayout,
  customerWords: ReadonlySet<number>,
): boolean {
  const display = seg.height >= 1.3 * (page.medianHeight || 1);
  // A legal form alone under the name ("(haftungsbeschränkt)": brackets and descenders make OCR's ink of it taller)
  // is the name's rest whatever its ink measures.
  const sameType = sameTypeSize(above, seg) || onlyLegalForm(seg);
  const touching = seg.box.y0 - above.box.y1 < 0.6 * seg.height;
  return (
    display &&
    sameType &&
    touching &&
    digitCount(above.text) === 0 &&
    !above.words.some((w) => customerWords.has(w.id)) &&
    !GENERIC.has(foldForMatching(above.text)) &&
    !isLabelValueLine([above])
  );
}

/**
 * A line ending on a postcode of four or five digits ("112 avenue Victor Hugo : 13001", "Hauptstr. 1, 10115"), as
 * addresses that print the town after it end when they wrap; a ZIP or postcode after a state's code ("Chicago, IL
 * 60601", "Sydney NSW 2000") ends its address.
 */
function postcodeLast(seg: LineSegment): boolean {
  const [before, last] = seg.words.slice(-2).map((w) => w.text);
  return /^\d{4,5}$/.test(last ?? "") && !/^[A-Z]{2,3}$/.test(before ?? "");
}

/** A line ending on a word that leaves it unfinished: a short lower-case link ("Frankfurt am"), a hyphen, a comma. */
function dangling(seg: LineSegment): boolean {
  const last = seg.words[seg.words.length - 1]?.text ?? "";
  return /^\p{Ll}{1,4}$|[-,]$/u.test(last);
}

/** Separators of the sender line over a letter's address window ("ACME GmbH · Hauptstr. 1 · 10115 Berlin"). */
const SENDER_SEPARATOR = /[·●|•]/;

interface SenderLine {
  /** The sender's name: the words before the first separator. */
  name: Word[];
  /** Every word of the line, over as many rows as it wraps to: neither the addressee's name nor its address. */
  words: Set<number>;
}

/**
 * The sender line printed small over a letter's address window (DIN 5008 and most European letters): its first part
 * names the sender, and it ends before the addressee's block. Null when page 1 has none in its upper half.
 */
function senderLine(layout: Layout): SenderLine | null {
  const known = SENDER_LINES.get(layout);
  if (known !== undefined) return known;
  const found = findSenderLine(layout);
  SENDER_LINES.set(layout, found);
  return found;
}

/** senderLine's answer per layout: the supplier, the customer's window and the bill-to words all ask for it. */
const SENDER_LINES = new WeakMap<Layout, SenderLine | null>();

/** A separator of a sender line as OCR may read its small dot: a dash, a colon, a full stop standing alone. */
const readSeparator = (w: Word): boolean => w.source === "ocr" && /^[-–—:.+*]$/.test(w.text);

/**
 * Where the sender line `seg` parts its name from the address: the first separator, or on a scan, where OCR lost the
 * small separator or read it as another mark ("Albion Print LLP : 197 Mill Lane - Bristol", "Nordlicht Metallbau
 * GmbH & Co. KG Hauptstraße 54b"), the end of the name's legal form. -1 when the line has neither.
 */
function senderCut(seg: LineSegment): number {
  const separator = seg.words.findIndex((w) => SENDER_SEPARATOR.test(w.text));
  if (separator >= 0 || !seg.words.some((w) => w.source === "ocr")) return separator;
  const form = seg.folded.findIndex((w, i) => i > 0 && LEGAL_FORM_WORDS.has(w));
  if (form < 0 || letterCount(seg.folded.slice(0, form).join("")) < 3) return -1;
  const end = legalFormEnd(seg, form);
  return end < seg.words.length && !postcodeAfterForm(seg, end) ? end : -1;
}

function findSenderLine(layout: Layout): SenderLine | null {
  const page = layout.pages[0];
  if (!page) return null;
  for (let r = 0; r < page.rows.length; r++) {
    const seg = rowSegments(page, r).find((s) => s.box.x0 <= 0.5 && senderCut(s) >= 0);
    if (!seg || seg.box.y0 < 0.04 || seg.box.y0 > 0.45) continue;
    if (seg.height > 1.05 * (page.medianHeight || 1) && !narrowerThanText(seg, page)) continue;
    const cut = senderCut(seg);
    const name = seg.words.slice(0, cut);
    const nameText = name.map((w) => w.text).join(" ");
    if (cut < 1 || digitCount(nameText) > 0 || letterCount(nameText) < 4 || isGeneric(nameText)) continue;
    // A sender line prints no label: "Lieferant: Müllermann GmbH, Lieferantenstraße 20" names the party it labels.
    if (wholeLabel(seg).length > 0 || name.some((w) => /:$/.test(w.text))) continue;
    // A long sender line wraps: the next row at its left edge, in its small type and holding a separator or a few
    // words of the address with a number or ending a line left unfinished ("Frankfurt am" over "Main"), is the rest
    // of it; a company name of its own ("Liberty Systems LLC") or a person's ("Isla Evans") is the addressee. A line
    // ending on a postcode wraps before its town ("... : 13001" over "Marseille"), whatever size OCR's boxes make the
    // town's letters (tesseract measured the same type 18 px and 23 px tall on two readings of a page).
    const next = rowSegments(page, r + 1).find((s) => Math.abs(s.box.x0 - seg.box.x0) < 0.02);
    const town = next !== undefined && postcodeLast(seg) && next.words.length <= 2 && digitCount(next.text) === 0;
    const wrapped =
      next !== undefined &&
      (sameTypeSize(next, seg) || town) &&
      next.box.y0 - seg.box.y1 < seg.height &&
      (SENDER_SEPARATOR.test(next.text) ||
        next.words.some(readSeparator) ||
        (next.words.length <= 3 && (digitCount(next.text) > 0 || town || dangling(seg)))) &&
      !completeCompany(next);
    const rest = [...seg.words.slice(cut), ...(wrapped ? next.words : [])];
    // A name, then an address: "ACME GmbH · Hauptstr. 1 · 10115 Berlin", not "Tel · Fax" or "Seite 1 | 2".
    if (!rest.some((w) => /\d/.test(w.text))) continue;
    return { name, words: new Set([...seg.words, ...(wrapped ? next.words : [])].map((w) => w.id)) };
  }
  return null;
}

/** The sender line's name as the supplier's, a printed fact of the letter. */
function senderParty(sender: SenderLine | null): PartyDecision | null {
  if (!sender) return null;
  const value = collapseSpaces(sender.name.map((w) => w.text).join(" ")).replace(/[,;]$/, "");
  return {
    name: { family: "name", best: scoredOf(value, 1.3, sender.name) },
    address: { family: "address", best: null },
  };
}

/** A row printing two or more figures with cents ("1 25.00 25.00"): a table's row, not an address window's. */
function pricedRow(segs: readonly LineSegment[]): boolean {
  return segs.flatMap((s) => s.text.match(/\d[.,]\d{2}(?![\d.,]*\d)/g) ?? []).length >= 2;
}

/**
 * Address window of a letter: a block in the upper part of page 1 holding a postcode line, on the left (DIN 5008,
 * and most of the world) or, where the left holds none, on the right (French and Swiss letters put the window there).
 * `exclude` is the supplier's name and address: no line of them starts the window (the sender's city or country line
 * above it is not the addressee), and a block holding any of them is the sender's own.
 */
function windowParty(layout: Layout, exclude: readonly Word[]): PartyDecision | null {
  const page = layout.pages[0];
  if (!page) return null;
  const excluded = new Set([...exclude.map((w) => w.id), ...(senderLine(layout)?.words ?? [])]);
  const side = (right: boolean): PartyDecision | null => {
    for (let r = 0; r < page.rows.length; r++) {
      const seg = rowSegments(page, r).find((s) => (right ? s.box.x0 >= 0.5 : s.box.x0 <= 0.5));
      if (!seg || seg.box.y0 < 0.08 || seg.box.y0 > 0.4 || (!right && rowSegments(page, r)[0] !== seg)) continue;
      if (seg.words.some((w) => excluded.has(w.id))) continue;
      // The sender line above the window is small print with separators; the window starts below it.
      if (/[·●|•]/.test(seg.text)) continue;
      // A segment beside the window's first line ("Rechnungsnummer: ...") starts the next column.
      const beside = rowSegments(page, r).find((o) => o.box.x0 > seg.box.x1)?.box.x0 ?? 1;
      const lines = blockBelow(page, r, seg.box.x0, Math.min(seg.box.x0 + 0.45, beside), 6);
      if (right && lines.some((line) => line.some((s) => s.words.some((w) => excluded.has(w.id))))) continue;
      // A line between the seller's name and its address in their column (a slogan) is the seller's.
      if (sandwiched(page, r, seg, excluded)) continue;
      const { name, address } = splitBlock(lines);
      // An address has a street or postcode line; a table's rows under a heading ("Alle Beträge in CHF" over
      // "Druckerpapier A4 (5 Pakete)") have neither, and print prices and amounts across the page.
      const located = address.some((s) => STREET.test(s.text) || hasPostcode(s.text));
      const tableRow = lines.some((line) => line.some((s) => pricedRow(rowSegments(page, s.row))));
      if (name.length > 0 && located && !tableRow) return blockDecision(lines, right ? 0.8 : 1.0);
    }
    return null;
  };
  return side(false) ?? side(true);
}

/** Whether the lines right above and right under `seg` in its column both hold words of `words`. */
function sandwiched(page: PageLayout, row: number, seg: LineSegment, words: ReadonlySet<number>): boolean {
  const holds = (r: number) =>
    rowSegments(page, r).some((s) => Math.abs(s.box.x0 - seg.box.x0) < 0.02 && s.words.some((w) => words.has(w.id)));
  return row > 0 && holds(row - 1) && holds(row + 1);
}

function better(a: PartyDecision | null, b: PartyDecision | null): PartyDecision | null {
  if (!a) return b;
  if (!b) return a;
  return (a.name.best?.score ?? 0) >= (b.name.best?.score ?? 0) ? a : b;
}

/** Legal forms that close a company name in a legal line ("Lumenworks Pty Ltd, ABN ...", "ACME SARL au capital"). */
const LEGAL_FORM_WORDS = new Set(
  [
    "gmbh",
    "ag",
    "kg",
    "ug",
    "ohg",
    "gbr",
    "mbh",
    "pty",
    "ltd",
    "limited",
    "llc",
    "llp",
    "inc",
    "corp",
    "plc",
    "sarl",
    "sas",
    "sasu",
    "sa",
    "eurl",
    "bv",
    "nv",
    "sl",
    "srl",
    "spa",
    "ab",
    "aps",
    "oy",
    "bhd",
    "pte",
    "vof",
    "slu",
    "sau",
    "cv",
    "ek",
    "kgaa",
    "co",
    "haftungsbeschränkt",
  ].map(foldForMatching),
);

/** Words that join two legal forms ("GmbH & Co. KG"). */
const LEGAL_JOIN = new Set(["&", "und", "and", "+"]);

/** The end (exclusive) of the legal form that starts at `from`: "GmbH & Co. KG", "UG (haftungsbeschränkt)", "Pty Ltd". */
function legalFormEnd(seg: LineSegment, from: number): number {
  let end = from;
  while (end < seg.words.length && end < from + 5) {
    const folded = seg.folded[end] ?? "";
    const text = seg.words[end]?.text ?? "";
    if (LEGAL_FORM_WORDS.has(folded)) end++;
    else if (LEGAL_JOIN.has(text) && LEGAL_FORM_WORDS.has(seg.folded[end + 1] ?? "")) end += 2;
    else break;
    if (/[,;]$/.test(seg.words[end - 1]?.text ?? "")) break;
  }
  return end;
}

/** What a legal line prints after the name: registration, tax or VAT ids, share capital, the registered office. */
const REGISTRATION_CUE =
  /\b(abn|acn|vat|tva|ust|ust-?id|uid|rcs|siren|siret|hrb|hra|registered|reg\.?|company (?:no|number)|capital|kvk|nif|cif|gst|amtsgericht|handelsregister|geschäftsführer|registergericht)\b/iu;

const COPYRIGHT = /^(?:©|\(c\)|copyright|\d{4}|-|–)$/i;

/**
 * The seller's name from its legal line: a company name closed by a legal form with a registration, VAT id or share
 * capital printed after it on the same row, or in the page's footer (bottom 15 %). Words of the bill-to block and
 * lines that are labels are skipped.
 */
function legalLineParty(layout: Layout, customerWords: ReadonlySet<number>): PartyDecision | null {
  let best: { words: Word[]; score: number } | null = null;
  for (const page of layout.pages) {
    for (let r = 0; r < page.rows.length; r++) {
      const segs = rowSegments(page, r);
      for (const seg of segs) {
        if (seg.words.some((w) => customerWords.has(w.id))) continue;
        let start = 0;
        while (start < seg.words.length && COPYRIGHT.test(seg.words[start]?.text ?? "")) start++;
        for (let i = start + 1; i < Math.min(seg.words.length, start + 7); i++) {
          const word = seg.words[i];
          const folded = seg.folded[i] ?? "";
          if (!word || !LEGAL_FORM_WORDS.has(folded)) continue;
          // "Pty Ltd", "Sdn Bhd", "GmbH & Co. KG": the legal form may be several words.
          const end = legalFormEnd(seg, i);
          if (postcodeAfterForm(seg, end)) break;
          // "ACME Medien UG" over "(haftungsbeschränkt)", "ACME GmbH &" over "Co. KG" in a narrow footer column:
          // the form continues below.
          const joined = end === seg.words.length - 1 && LEGAL_JOIN.has(seg.words[end]?.text ?? "");
          const below =
            end === seg.words.length || joined
              ? rowSegments(page, r + 1).find((o) => Math.abs(o.box.x0 - seg.box.x0) < 0.01 && onlyLegalForm(o))
              : undefined;
          const name = [...seg.words.slice(start, below && joined ? end + 1 : end), ...(below?.words ?? [])];
          const nameText = name
            .map((w) => w.text)
            .join(" ")
            .replace(/[,;]$/, "");
          if (wholeLabel(seg).length > 0 || isGeneric(nameText) || letterCount(nameText) < 4) break;
          if (/[@:]|\d/.test(nameText.split(" ").slice(0, -1).join(" "))) break;
          const rest = [
            seg.words
              .slice(end)
              .map((w) => w.text)
              .join(" "),
            ...segs.filter((o) => o !== seg).map((o) => o.text),
          ].join(" ");
          const registered = REGISTRATION_CUE.test(rest) || /^[,;]|[,;]$/.test(seg.words[end - 1]?.text ?? "");
          const footer = page === layout.pages[layout.pages.length - 1] && seg.box.y0 > 0.85;
          if (!registered && !footer) break;
          const score = registered ? 1.3 : 1.0;
          const cleaned = name.map((w, k) => (k === name.length - 1 ? { ...w, text: w.text.replace(/[,;]$/, "") } : w));
          if (!best || score > best.score) best = { words: cleaned, score };
          break;
        }
      }
    }
  }
  if (!best) return null;
  const value = collapseSpaces(best.words.map((w) => w.text).join(" "));
  return {
    name: { family: "name", best: scoredOf(value, best.score, best.words) },
    address: { family: "address", best: null },
  };
}

/** An e-mail or web domain printed outside the bill-to block ("billing@lumenworks.io" -> "lumenworks.io"). */
const DOMAIN = /(?:@|\bwww\.|https?:\/\/(?:www\.)?)([a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})/i;

/**
 * The mailboxes a business bills and answers from ("support@", "billing@", "rechnung@"): their domain is the sender's.
 * A personal mailbox ("isla@islajones.example") sits in whichever party's contact block it belongs to.
 */
const ROLE_MAILBOX =
  /^(support|billing|bill|invoices?|invoicing|accounts?|accounting|finance|payments?|receipts?|noreply|no-reply|donotreply|do-not-reply|hello|hi|info|contact|sales|service|services|team|help|office|admin|orders?|shop|store|mail|kontakt|rechnung|rechnungen|buchhaltung|facturation|facture|factures|compta|comptabilite|contabilidad|facturacion|facturen|administratie|boekhouding)$/i;

/** Mail services whose domain names nobody's company. */
const FREE_MAIL = /^(gmail|googlemail|yahoo|hotmail|outlook|live|icloud|gmx|web|aol|proton|protonmail|mail)\./i;

/** The seller's e-mail or web domains printed outside the bill-to block, in page order. */
function sellerDomains(layout: Layout, customerWords: ReadonlySet<number>): Array<{ domain: string; word: Word }> {
  const found: Array<{ domain: string; word: Word }> = [];
  for (const page of layout.pages) {
    for (const seg of page.rows.flat()) {
      for (const word of seg.words) {
        if (customerWords.has(word.id)) continue;
        const domain = DOMAIN.exec(word.text)?.[1]
          ?.toLowerCase()
          .replace(/^www\./, "");
        if (!domain || FREE_MAIL.test(domain) || /\.(png|jpe?g|pdf)$/.test(domain)) continue;
        const mailbox = /([^\s@:<(]+)@/.exec(word.text)?.[1];
        if (mailbox !== undefined && !ROLE_MAILBOX.test(mailbox)) continue;
        found.push({ domain, word });
      }
    }
  }
  return found;
}

/**
 * A printed name that spells the seller's domain ("Au bon moulin SARL" beside "www.aubonmoulin.fr"): the words from
 * the start of a segment whose letters are the domain's first label, with a legal form right after them.
 */
function domainNamedParty(layout: Layout, customerWords: ReadonlySet<number>): PartyDecision | null {
  const stems = new Set(
    sellerDomains(layout, customerWords)
      .map((d) => foldForMatching(d.domain.split(".")[0] ?? ""))
      .filter((stem) => stem.length >= 4),
  );
  if (stems.size === 0) return null;
  for (const page of layout.pages) {
    for (const seg of page.rows.flat()) {
      if (seg.words.some((w) => customerWords.has(w.id))) continue;
      let folded = "";
      for (let end = 1; end <= Math.min(seg.words.length, 6); end++) {
        folded += seg.folded[end - 1] ?? "";
        if (!stems.has(folded)) continue;
        // The domain may spell only the front of the name ("distribucionesdel.es"): a legal form a few words on
        // closes it ("Distribuciones del Sur S.L.U.").
        let last = legalFormEnd(seg, end);
        if (last === end) {
          for (let k = end + 1; k < Math.min(seg.words.length, end + 4); k++) {
            if (/[,;:]$/.test(seg.words[k - 1]?.text ?? "")) break;
            if (LEGAL_FORM_WORDS.has(seg.folded[k] ?? "")) {
              last = legalFormEnd(seg, k);
              break;
            }
          }
        }
        // Without a legal form, the domain names the line only when it is the whole line: "SELLER TRADE NAME" beside
        // "moi@seller.com" is not the company "SELLER".
        if (last === end && end < seg.words.length) break;
        const words = seg.words.slice(0, last);
        const value = collapseSpaces(words.map((w) => w.text).join(" ")).replace(/[,;]$/, "");
        return {
          name: { family: "name", best: scoredOf(value, 1.2, words) },
          address: { family: "address", best: null },
        };
      }
    }
  }
  return null;
}

/**
 * When no seller name is printed as text (a logo only), the domain of its e-mail or web address names it. A weak
 * answer: low score, and never a domain of the customer's block or a free mail service.
 */
function domainParty(layout: Layout, customerWords: ReadonlySet<number>): PartyDecision | null {
  const first = sellerDomains(layout, customerWords)[0];
  if (!first) return null;
  return {
    name: { family: "name", best: scoredOf(first.domain, -1.5, [first.word]) },
    address: { family: "address", best: null },
  };
}

/** Word ids of the bill-to block (name and address after a customer label): never the supplier's. */
function customerBlockWords(layout: Layout, sender: SenderLine | null): Set<number> {
  // Without a customer label, the block in the window under a sender line is the addressee's.
  const block = labelledParty(layout, "customer") ?? (sender ? windowParty(layout, []) : null);
  const words = new Set([...(block?.name.best?.words ?? []), ...(block?.address.best?.words ?? [])].map((w) => w.id));
  // The customer's own e-mail and web addresses spell its name ("billing@harbourdental.example").
  const name = foldForMatching(block?.name.best?.value ?? "");
  if (name.length >= 4) {
    for (const seg of layout.segments) {
      for (const word of seg.words) {
        const stem = foldForMatching(
          DOMAIN.exec(word.text)?.[1]
            ?.replace(/^www\./i, "")
            .split(".")[0] ?? "",
        );
        if (stem.length >= 4 && (name.includes(stem) || stem.includes(name))) words.add(word.id);
      }
    }
  }
  return words;
}

/** The header's name is the legal line's name, perhaps without its legal form ("Lumenworks", "Lumenworks Pty Ltd"). */
function sameCompany(header: PartyDecision, legal: PartyDecision): boolean {
  const a = foldForMatching(header.name.best?.value ?? "");
  const b = foldForMatching(legal.name.best?.value ?? "");
  return a.length >= 3 && b.length >= 3 && (b.startsWith(a) || a.startsWith(b));
}

/**
 * Whether OCR lost the legal form of the header's name that the legal or sender line prints in full: tesseract
 * drops a short word set alone on a line of display type ("Outback Trading Pty" over "Ltd" reads without it), while
 * the small print reads whole. A text layer loses no word: there a shorter header is a trading name, and stays.
 */
function lostLegalForm(header: Scored, legal: Scored): boolean {
  if (!header.words.some((w) => w.source === "ocr")) return false;
  const headerWords = header.value.split(" ").map(foldForMatching);
  const legalWords = legal.value.split(" ").map(foldForMatching);
  const rest = legalWords.slice(headerWords.length);
  return (
    rest.length > 0 &&
    headerWords.every((w, i) => w === legalWords[i]) &&
    rest.every((w) => LEGAL_FORM_WORDS.has(w) || w === "")
  );
}

/**
 * The block of the first page that holds the seller's own mailbox or web address (sellerDomains), from the line that
 * opens it: "Société Hôtelière du Pacano" over its street, town, telephone and "info@hotel-du-pacano.fr". Null when
 * that block has no located address or holds the customer's words.
 */
function mailboxBlockParty(layout: Layout, customerWords: ReadonlySet<number>): PartyDecision | null {
  const page = layout.pages[0];
  if (!page) return null;
  for (const { word } of sellerDomains(layout, customerWords)) {
    const row = page.rows.findIndex((segs) => segs.some((s) => s.words.includes(word)));
    const seg = page.rows[row]?.find((s) => s.words.includes(word));
    if (!seg) continue;
    // Up the column while the lines keep their spacing: the block's first line is its name.
    let top = row;
    let upper = seg;
    while (top > 0 && row - top < 6) {
      const above = rowSegments(page, top - 1).find((s) => Math.abs(s.box.x0 - seg.box.x0) < 0.02);
      if (!above || upper.box.y0 - above.box.y1 > 1.2 * upper.height) break;
      upper = above;
      top--;
    }
    const lines = blockBelow(page, top, seg.box.x0, seg.box.x1, row - top + 1);
    if (lines.some((line) => line.some((s) => s.words.some((w) => customerWords.has(w.id))))) continue;
    const decision = blockDecision(lines, 1.0);
    const located = decision.address.best?.value;
    if (decision.name.best && located && (STREET.test(located) || hasPostcode(located))) return decision;
  }
  return null;
}

/**
 * A display name read by OCR with no address under it is lettering of a logo ("HOTEL PARIS" over a hotel's name and
 * address, the picture a born-digital invoice has no text for) when the seller's mailbox closes another block: that
 * block is the seller's.
 */
function logoLettering(display: PartyDecision | null): boolean {
  const name = display?.name.best;
  return !!name && !display?.address.best && name.words.some((w) => w.source === "ocr");
}

/**
 * A display name read by OCR over another name that the seller's mailbox block prints with the same address ("HOTEL
 * PARIS", a logo's lettering, over "Société Hôtelière du Pacano", "2, rue de la Paix", ..., "info@hotel-du-pacano.fr"):
 * the display's reading took the block's address under the lettering, and the block's own name line between them is
 * the seller's name. A display name with a legal form is a name, not lettering: the line under it (a slogan, or a
 * town the block's reading starts at where a facts grid beside it breaks the column's rows) is not.
 */
function letteringOverBlock(display: PartyDecision | null, block: PartyDecision | null): boolean {
  const lettering = display?.name.best;
  const name = block?.name.best;
  const address = new Set(display?.address.best?.words.map((w) => w.id) ?? []);
  if (!lettering || !name || !block?.address.best?.words.some((w) => address.has(w.id))) return false;
  // A display name with its legal form ("Whitfield Print Ltd") is the seller's name, no logo's lettering.
  if (lettering.value.split(/[\s,]+/).some((w) => LEGAL_FORM_WORDS.has(foldForMatching(w)))) return false;
  const below = Math.max(...lettering.words.map((w) => w.box.y1));
  return name.words.every((w) => !lettering.words.includes(w) && w.box.y0 >= below);
}

/**
 * The header block a logo's lettering names: OCR read a logo ("cronus" over the seller's "CRONUS DE" and its address,
 * the picture a born-digital page has no text for) as the display name, and another block of the page's top third
 * opens on the same word or words and has an address under it. Null when no such block is outside the customer's
 * words. It is looked for whether or not the lines under the lettering were read as its address (a logo close above
 * the block).
 */
function letteredBlockParty(
  layout: Layout,
  lettering: Scored,
  customerWords: ReadonlySet<number>,
): PartyDecision | null {
  const page = layout.pages[0];
  const stem = foldForMatching(lettering.value);
  if (!page || stem.length < 4) return null;
  const logo = new Set(lettering.words.map((w) => w.id));
  for (let r = 0; r < page.rows.length; r++) {
    for (const seg of rowSegments(page, r)) {
      if (seg.box.y0 > 0.3 || seg.words.some((w) => logo.has(w.id) || customerWords.has(w.id))) continue;
      // The lettering is the block's first words, whole: "cronus" opens "CRONUS DE", not "Cronustech".
      let opening = "";
      for (const word of seg.words) {
        opening += foldForMatching(word.text);
        if (opening.length >= stem.length) break;
      }
      if (opening !== stem) continue;
      const decision = blockDecision(blockBelow(page, r, seg.box.x0, seg.box.x1, 6), 1.0);
      const named = decision.name.best?.words.some((w) => seg.words.includes(w));
      if (named && decision.address.best) return decision;
    }
  }
  return null;
}

/** Where a word sits: its segment, through the layout's index of places. */
function segmentOf(layout: Layout, word: Word): LineSegment | undefined {
  const place = layout.wordPlace.get(word.id);
  return place ? layout.segments[place.segment] : undefined;
}

/**
 * Whether the seller's VAT id (the words supplier.taxId picks) is printed with a party's name: on the name's row or
 * the two under it (a legal line: "ACME SARL au capital ..." over "... N° TVA : FR..."), or, for a block, under the
 * name in its column, less than a third of the page lower (the block's identifiers: "SIREN", "N° TVA intra").
 */
function printsTaxId(layout: Layout, name: Scored, taxId: readonly Word[], block: boolean): boolean {
  const at = name.words[0] ? segmentOf(layout, name.words[0]) : undefined;
  const id = taxId[0] ? segmentOf(layout, taxId[0]) : undefined;
  if (!at || !id || id.pageNum !== at.pageNum || id.row < at.row) return false;
  if (!block) return id.row - at.row <= 2;
  const left = Math.min(...name.words.map((w) => w.box.x0));
  return id.box.y0 - at.box.y0 < 0.35 && id.box.x0 > left - 0.02 && id.box.x0 < left + 0.4;
}

/**
 * The seller's name printed in two places that name different companies (a header block and a legal line): the one
 * printed with the seller's VAT id is the seller; null when the VAT id settles nothing.
 */
function taxIdSettles(
  layout: Layout,
  header: Scored,
  legal: Scored,
  taxId: readonly Word[],
): "header" | "legal" | null {
  // Names opening on the same word are one company read two ways ("Eucalypt Plumbing Py. Lt" by OCR): no contest.
  const first = (name: Scored) => foldForMatching(name.words[0]?.text ?? "");
  if (taxId.length === 0 || first(header) === first(legal)) return null;
  const inHeader = printsTaxId(layout, header, taxId, true);
  const inLegal = printsTaxId(layout, legal, taxId, false);
  if (inHeader === inLegal) return null;
  return inHeader ? "header" : "legal";
}

/**
 * The issuer of an invoice: a labelled seller block, the header's display name and its block, the legal line, the
 * sender line over the address window, the domain of the seller's mailbox. `sellerTaxId` gives the words of the
 * seller's VAT id (supplier.taxId's pick with the customer's block left out), read only when the header and the
 * legal line name different companies.
 */
export function supplier(
  layout: Layout,
  sellerTaxId: (customerWords: readonly Word[]) => readonly Word[] = () => [],
): PartyDecision {
  const sender = senderLine(layout);
  const customerWords = customerBlockWords(layout, sender);
  const display = headerParty(layout, customerWords);
  const read = display?.name.best?.words.some((w) => w.source === "ocr") ? display.name.best : null;
  const lettered = read ? letteredBlockParty(layout, read, customerWords) : null;
  const mailbox = read ? mailboxBlockParty(layout, customerWords) : null;
  const chosen =
    logoLettering(display) || letteringOverBlock(display, mailbox)
      ? (mailbox ?? lettered ?? display)
      : (lettered ?? display);
  // The lettering a block was chosen over is kept with it: no window of the customer's either.
  const header = read && chosen && chosen !== display ? { ...chosen, lettering: read.words } : chosen;
  const legal = legalLineParty(layout, customerWords) ?? senderParty(sender) ?? domainNamedParty(layout, customerWords);
  let printed = header;
  if (header?.name.best && legal?.name.best) {
    if (sameCompany(header, legal)) {
      header.name.best.score += 0.3;
      if (lostLegalForm(header.name.best, legal.name.best))
        header.name.best = scoredOf(legal.name.best.value, header.name.best.score, legal.name.best.words);
    } else {
      const customerBlock = [...customerWords].map((id) => layout.wordsById.get(id)).filter((w) => w !== undefined);
      const settled = taxIdSettles(layout, header.name.best, legal.name.best, sellerTaxId(customerBlock));
      if (settled === "legal" || (settled === null && legal.name.best.score > header.name.best.score)) printed = legal;
    }
  } else if (legal?.name.best) printed = legal;
  const found = better(labelledParty(layout, "supplier"), printed);
  if (found?.name.best) return found;
  const domain = domainParty(layout, customerWords);
  if (domain) return { name: domain.name, address: found?.address ?? domain.address };
  return found ?? { name: { family: "name", best: null }, address: { family: "address", best: null } };
}

/**
 * A contact block with no label over it: a name line right above an e-mail address whose mailbox or domain spells it
 * ("Isla Jones" over "isla@islajones.example", "Thames Joinery LLP" over "accounts@thamesjoinery.example"), outside
 * the supplier's words. A payment receipt prints its customer this way; the answer is weak.
 */
function contactBlockParty(layout: Layout, supplierWords: readonly Word[]): PartyDecision | null {
  const excluded = new Set(supplierWords.map((w) => w.id));
  for (const page of layout.pages) {
    for (let r = 1; r < page.rows.length; r++) {
      for (const mail of rowSegments(page, r)) {
        const address = /^([^\s@]+)@([a-z0-9-]+)\./i.exec(mail.words[0]?.text ?? "");
        if (!address || mail.words.length !== 1) continue;
        const above = rowSegments(page, r - 1).find((s) => Math.abs(s.box.x0 - mail.box.x0) < 0.01);
        if (!above || above.words.some((w) => excluded.has(w.id)) || digitCount(above.text) > 0) continue;
        if (isGeneric(above.text) || wholeLabel(above).length > 0 || isLabelValueLine([above])) continue;
        const name = foldForMatching(above.text);
        const spelled = [address[1], address[2]].map((part) => foldForMatching(part ?? ""));
        if (!spelled.some((part) => part.length >= 4 && (name.startsWith(part) || part.startsWith(name)))) continue;
        return {
          name: { family: "name", best: scoredOf(collapseSpaces(above.text), 0.8, above.words) },
          address: { family: "address", best: null },
        };
      }
    }
  }
  return null;
}

export function customer(layout: Layout, supplierWords: readonly Word[]): PartyDecision {
  const found =
    labelledParty(layout, "customer") ?? windowParty(layout, supplierWords) ?? contactBlockParty(layout, supplierWords);
  return found ?? { name: { family: "name", best: null }, address: { family: "address", best: null } };
}
