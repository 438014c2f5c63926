/**
 * Postcode ranges of the states and federal territories, by the first two digits of a five-digit postcode, and the
 * words that name each state in an address. A postcode OCR misread by one glyph ("96000 Kuala Lumpur" for 56000)
 * falls outside the range of the state printed after it: receipt-address.ts puts it right. General postal
 * geography (Malaysia, whose receipts the development corpus holds), not taken from any document; another country's
 * table would slot in beside it.
 */

export interface StateRange {
  /** Words naming the state in an address, folded to lower case ("johor", "kuala lumpur", "wp"). */
  names: readonly string[];
  /** Inclusive ranges of the postcode's first two digits. */
  prefixes: ReadonlyArray<readonly [number, number]>;
}

export const MALAYSIAN_STATES: readonly StateRange[] = [
  { names: ["perlis"], prefixes: [[1, 2]] },
  { names: ["kedah"], prefixes: [[5, 9]] },
  { names: ["pulau pinang", "penang"], prefixes: [[10, 14]] },
  { names: ["kelantan"], prefixes: [[15, 18]] },
  { names: ["terengganu"], prefixes: [[20, 24]] },
  {
    names: ["pahang"],
    prefixes: [
      [25, 28],
      [39, 39],
      [49, 49],
      [69, 69],
    ],
  },
  { names: ["perak"], prefixes: [[30, 36]] },
  {
    names: ["selangor"],
    prefixes: [
      [40, 48],
      [63, 68],
    ],
  },
  { names: ["kuala lumpur", "wilayah persekutuan", "wp", "w p", "kl"], prefixes: [[50, 60]] },
  { names: ["putrajaya"], prefixes: [[62, 62]] },
  { names: ["negeri sembilan", "n sembilan"], prefixes: [[70, 73]] },
  { names: ["melaka", "malacca"], prefixes: [[75, 78]] },
  { names: ["johor"], prefixes: [[79, 86]] },
  { names: ["labuan"], prefixes: [[87, 87]] },
  { names: ["sabah"], prefixes: [[88, 91]] },
  { names: ["sarawak"], prefixes: [[93, 98]] },
];

/** Digits OCR reads for one another on a receipt's thermal print (a "5" whose top closes reads "9", "8" for "3"). */
export const DIGIT_CONFUSIONS: Readonly<Record<string, string>> = {
  "0": "869",
  "1": "74",
  "2": "7",
  "3": "89",
  "4": "1",
  "5": "693",
  "6": "580",
  "7": "12",
  "8": "3609",
  "9": "5830",
};

/** Letters OCR reads for digits inside a number ("B1750" for 81750). */
export const DIGIT_FOR_LETTER: Readonly<Record<string, string>> = {
  B: "8",
  O: "0",
  o: "0",
  D: "0",
  S: "5",
  s: "5",
  I: "1",
  i: "1",
  l: "1",
  Z: "2",
  G: "6",
};
