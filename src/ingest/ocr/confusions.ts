/**
 * Post-OCR character-confusion repair, one word at a time. OCR reads a letter as a digit that looks like it (O/0,
 * I/1, S/5, B/8) and the reverse; inside a word that is clearly of one kind, the odd character is mapped back:
 *   - a lower-case letter word ("Se5sion", "popu|ar") gets letters for the digit-like characters between its letters;
 *   - a number ("2O18-03-3O", "2B.74", "5220@") gets digits for the letter-like characters among its digits;
 *   - an amount glued to its currency ("RMO.00") gets them when what follows the currency becomes an amount;
 *   - the number sign "Nº" read as "N2" gets its raised o back.
 * Mixed identifiers ("862725-U", "A1B2", "KLIA2", "3PCS", "15/4B") are left as read: a character is repaired only
 * where its neighbours leave no doubt about the word's kind, never at a word's edge where suffixes and quantities live.
 */

/** Digits (and symbols) OCR reads in place of letters, with the upper- and lower-case letter they stand for. */
const LETTER_FOR: Readonly<Record<string, readonly [string, string]>> = {
  "0": ["O", "o"],
  "1": ["I", "l"],
  "5": ["S", "s"],
  "8": ["B", "b"],
  $: ["S", "s"],
  "|": ["I", "l"],
  "}": ["I", "l"],
};

/**
 * Characters never part of a word, repaired at a word's edge too: "|" always ("popular|"), "}" only after lower case
 * ("Tota}"), since "GST}" is a closing bracket.
 */
const AT_EDGE: Readonly<Record<string, "any" | "lower">> = { "|": "any", "}": "lower" };

/** Letters (and symbols) OCR reads in place of digits. */
const DIGIT_FOR: Readonly<Record<string, string>> = {
  O: "0",
  o: "0",
  "@": "0",
  l: "1",
  I: "1",
  "|": "1",
  S: "5",
  B: "8",
  Z: "2",
};

/** Letters that stand for a zero wherever they touch a digit: no receipt number ends in "O" (but "12B", "4S" do). */
const ZERO_LIKE = new Set(["O", "o", "@"]);

/** Shapes a repaired number must take when the repair touches its edge: amounts... */
const AMOUNT_SHAPES: readonly RegExp[] = [/^\d{1,3}([,.]\d{3})*[.,]\d{2}$/, /^\d+[.,]\d{2}$/];
/** Dates (day or month first, or year first) and times. */
const DATE_SHAPES: readonly RegExp[] = [
  /^(0?[1-9]|[12]\d|3[01])[./-](0?[1-9]|[12]\d|3[01])[./-]((19|20)?\d{2})$/,
  /^(19|20)\d{2}[./-](0?[1-9]|1[0-2])[./-](0?[1-9]|[12]\d|3[01])$/,
  /^([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/,
];

const LETTER = /\p{L}/u;
const DIGIT = /\d/;
const isLetter = (c: string | undefined): boolean => c !== undefined && LETTER.test(c) && !(c in LETTER_FOR);
const isDigit = (c: string | undefined): boolean => c !== undefined && DIGIT.test(c);

/**
 * Greek and Cyrillic letters drawn like Latin ones, which a recogniser with a wide alphabet reads inside a Latin word
 * ("heiβe" for "heiße", a Cyrillic "о" in "Bоx").
 */
const LATIN_FOR: Readonly<Record<string, string>> = {
  β: "ß",
  α: "a",
  ο: "o",
  ν: "v",
  ρ: "p",
  ι: "i",
  κ: "k",
  χ: "x",
  υ: "u",
  Α: "A",
  Β: "B",
  Ε: "E",
  Ζ: "Z",
  Η: "H",
  Ι: "I",
  Κ: "K",
  Μ: "M",
  Ν: "N",
  Ο: "O",
  Ρ: "P",
  Τ: "T",
  Υ: "Y",
  Χ: "X",
  а: "a",
  е: "e",
  о: "o",
  р: "p",
  с: "c",
  у: "y",
  х: "x",
  і: "i",
  ј: "j",
  ѕ: "s",
  А: "A",
  В: "B",
  Е: "E",
  К: "K",
  М: "M",
  Н: "H",
  О: "O",
  Р: "P",
  С: "C",
  Т: "T",
  Х: "X",
};

/** A word with a Latin letter gets Latin letters for the Greek or Cyrillic look-alikes in it; other words stay. */
function latinLookalikes(word: string): string {
  if (!/\p{Script=Latin}/u.test(word)) return word;
  return word.replace(/[\p{Script=Greek}\p{Script=Cyrillic}]/gu, (c) => LATIN_FOR[c] ?? c);
}

/**
 * "Nº" and "n.º" (número, numéro) with the raised o read as a 2: "N2 factura", "Ticket n2", "Abono n.2". In every OCR
 * reading of the development and synthetic corpora (370 receipt photos, 200 synthetic scans) each such word was that
 * sign and none a number; read as printed, the label's folded words match ("nº factura") and "n.2" is no longer an
 * invoice number's value. A page that prints "n.2" for "number 2" (Italian "Fattura n.2") loses its 2 on a scan.
 */
const NUMBER_SIGN = /^([nN])(\.?)2$/;

/** Repairs one OCR word; returns it unchanged when it is not clearly a letter word or a number. */
export function repairConfusions(read: string): string {
  const sign = NUMBER_SIGN.exec(read);
  if (sign) return `${sign[1]}${sign[2]}º`;
  const word = latinLookalikes(read);
  const m = /^([("'[]*)(.*?)([)"'\],;:.!?]*)$/su.exec(word);
  const core = m?.[2] ?? "";
  if (core.length < 3) return word;
  const repaired = repairLetterWord(core) ?? repairCapitalI(core) ?? repairNumber(core) ?? repairPrefixedAmount(core);
  return repaired === null ? word : `${m?.[1] ?? ""}${repaired}${m?.[3] ?? ""}`;
}

/** A word of letters with one digit-like character inside it ("Se5sion"); null when the word is anything else. */
function repairLetterWord(core: string): string | null {
  const chars = [...core];
  const odd = chars.filter((c) => !isLetter(c));
  const letters = chars.length - odd.length;
  if (odd.length !== 1 || letters < 3) return null;
  const i = chars.findIndex((c) => !isLetter(c));
  const c = chars[i] ?? "";
  const pair = LETTER_FOR[c];
  if (!pair) return null;
  const before = chars[i - 1];
  const after = chars[i + 1];
  const upper = [before, after].every((n) => n === undefined || !isLetter(n) || n === n.toUpperCase());
  // Inside a lower-case word only: "KLIA2", "3PCS" are ids and quantities, and capitals with a digit among them are
  // codes ("EC1A", BIC "DEUTDEM8HAM"). The never-in-a-word characters are repaired in capitals and at edges too.
  const inside = isLetter(before) && isLetter(after) && (!upper || c === "|");
  const atEdge = AT_EDGE[c];
  const edge = atEdge !== undefined && (atEdge === "any" || !upper) && (isLetter(before) || isLetter(after));
  if (!inside && !edge) return null;
  chars[i] = upper ? pair[0] : pair[1];
  return chars.join("");
}

/**
 * A capitalised word whose second letter reads as a capital I ("JIn", "BIk", "FIat"): capital I and small l are one
 * glyph in most receipt fonts, and no word is capitalised as two capitals followed by small letters.
 */
function repairCapitalI(core: string): string | null {
  const m = /^(\p{Lu})I(\p{Ll}+)$/u.exec(core);
  return m ? `${m[1]}l${m[2]}` : null;
}

/** An amount glued to its currency ("RMO.00", "RMIS.98", "$S.25"): repaired only when the rest becomes an amount. */
function repairPrefixedAmount(core: string): string | null {
  for (let n = 1; n <= 3; n++) {
    const prefix = core.slice(0, n);
    // A symbol or a code of two or three letters: one letter is "NO.49" (number 49), not an amount.
    if (!/^(\p{Sc}|\p{Lu}{2,3}|\p{Lu}{1,2}\p{Sc})$/u.test(prefix)) continue;
    const amount = repairNumber(core.slice(n), true);
    if (amount !== null) return prefix + amount;
  }
  return null;
}

/** Whether chars[i] is in a run of zero look-alikes with a digit on both sides of the run ("52oo0"). */
function inZeroRun(chars: readonly string[], i: number): boolean {
  if (!ZERO_LIKE.has(chars[i] ?? "")) return false;
  let start = i;
  let end = i;
  while (ZERO_LIKE.has(chars[start - 1] ?? "")) start--;
  while (ZERO_LIKE.has(chars[end + 1] ?? "")) end++;
  return isDigit(chars[start - 1]) && isDigit(chars[end + 1]);
}

/** A number with letter-like characters among its digits ("2O18", "2B.74"); null when the word is anything else. */
function repairNumber(core: string, amountOnly = false): string | null {
  // "@12.50" is a unit price ("2 @12.50"), not a zero.
  if (core.startsWith("@")) return null;
  const chars = [...core];
  let digits = 0;
  let odd = 0;
  for (const c of chars) {
    if (isDigit(c)) digits++;
    else if (c in DIGIT_FOR) odd++;
    else if (!/[.,:/-]/.test(c)) return null;
  }
  if (odd === 0 || digits < 2 || odd > digits) return null;
  const whole = chars.map((c) => DIGIT_FOR[c] ?? c).join("");
  if (amountOnly) return AMOUNT_SHAPES.some((shape) => shape.test(whole)) ? whole : null;
  if ([...AMOUNT_SHAPES, ...DATE_SHAPES].some((shape) => shape.test(whole))) return whole;
  // Otherwise only where the neighbours say "digit": between two digits, or a zero look-alike next to one.
  const out = chars.map((c, i) => {
    const digit = DIGIT_FOR[c];
    if (digit === undefined) return c;
    if (inZeroRun(chars, i)) return digit;
    const before = isDigit(chars[i - 1]);
    const after = isDigit(chars[i + 1]);
    // A zero look-alike next to a digit, unless its other neighbour is a letter too ("BO26" is an id).
    const other = before ? chars[i + 1] : chars[i - 1];
    const zero = ZERO_LIKE.has(c) && (before || after) && !(other !== undefined && other in DIGIT_FOR);
    return (before && after) || zero ? digit : c;
  });
  const result = out.join("");
  return result === core ? null : result;
}
