/**
 * Month names in the languages docsift reads (en, de, fr, es, nl, it, pt, ms), folded (lower case, no diacritics).
 * A printed month matches a name when it is the whole name or a prefix of at least three letters that points to one
 * month only ("sept" -> 9, "jui" -> juin or juillet -> no match). Abbreviations that are not prefixes are listed too.
 */
import { foldAccentsAndCase } from "./trim.js";

const NAMES: readonly (readonly string[])[] = [
  ["january", "januar", "janvier", "enero", "januari", "gennaio", "janeiro", "jaenner", "janner"],
  ["february", "februar", "fevrier", "febrero", "februari", "febbraio", "fevereiro", "feber"],
  ["march", "maerz", "marz", "mars", "marzo", "maart", "marco", "mac"],
  ["april", "avril", "abril", "aprile"],
  ["may", "mai", "mayo", "mei", "maggio", "maio"],
  ["june", "juni", "juin", "junio", "giugno", "junho", "jun"],
  ["july", "juli", "juillet", "julio", "luglio", "julho", "julai"],
  ["august", "aout", "agosto", "augustus", "ogos"],
  ["september", "septembre", "septiembre", "settembre", "setembro"],
  ["october", "oktober", "octobre", "octubre", "ottobre", "outubro"],
  ["november", "novembre", "noviembre", "novembro"],
  ["december", "dezember", "decembre", "diciembre", "dicembre", "dezembro", "disember"],
];

/** Printed abbreviations that are not a prefix of their month's name. */
const EXTRA_ABBREVIATIONS: Readonly<Record<string, number>> = {
  mrz: 3,
  mrt: 3,
  ogs: 8,
};

/** Languages whose month and weekday names docsift reads. */
const DATE_LANGUAGES = ["en", "de", "fr", "es", "nl", "it", "pt", "ms"] as const;

/**
 * Weekday names and abbreviations, which may precede a date ("Mo., 11. Januar 2019", "quinta-feira, 4 de julho"),
 * taken from the runtime's CLDR data: 2024-01-01 was a Monday.
 */
const WEEKDAYS: ReadonlySet<string> = new Set(
  DATE_LANGUAGES.flatMap((language) =>
    (["long", "short"] as const).flatMap((width) => {
      const format = new Intl.DateTimeFormat(language, { weekday: width, timeZone: "UTC" });
      return Array.from({ length: 7 }, (_, day) => format.format(new Date(Date.UTC(2024, 0, 1 + day))));
    }),
  )
    .flatMap((name) =>
      foldAccentsAndCase(name)
        .replace(/\./g, "")
        .split(/[\s-]+/),
    )
    .concat(["tues", "thur", "thurs"]),
);

const MIN_PREFIX = 3;

/** Every prefix of three or more letters of every name -> its month, or 0 when prefixes of two months collide. */
const BY_PREFIX: ReadonlyMap<string, number> = (() => {
  const map = new Map<string, number>();
  for (const [index, names] of NAMES.entries()) {
    for (const name of names) {
      for (let length = MIN_PREFIX; length <= name.length; length++) {
        const prefix = name.slice(0, length);
        const known = map.get(prefix);
        map.set(prefix, known === undefined || known === index + 1 ? index + 1 : 0);
      }
    }
  }
  for (const [abbreviation, month] of Object.entries(EXTRA_ABBREVIATIONS)) map.set(abbreviation, month);
  return map;
})();

/** Word -> month number 1..12, or null when it is not (unambiguously) a month. */
export function monthNumber(word: string): number | null {
  const month = BY_PREFIX.get(foldAccentsAndCase(word));
  return month === undefined || month === 0 ? null : month;
}

export function isWeekday(word: string): boolean {
  return WEEKDAYS.has(foldAccentsAndCase(word));
}

/**
 * A month name OCR misread by one letter ("14/dun/2017" -> jun), for words of three letters or more that are no
 * month as printed. Every known name or prefix of the word's length that differs in exactly one letter is a reading;
 * the word is taken only when all readings agree on one month: "Mat" could be mar or may and stays unread. A letter
 * read twice ("MMay") is read once.
 */
export function fuzzyMonthNumber(word: string): number | null {
  const folded = foldAccentsAndCase(word);
  if (folded.length < MIN_PREFIX || !/^\p{L}+$/u.test(folded) || BY_PREFIX.has(folded)) return null;
  const months = new Set<number>();
  for (const [known, month] of BY_PREFIX) {
    if (known.length === folded.length && differsByOneLetter(known, folded)) months.add(month);
  }
  // One glyph read twice ("14MMay/2017"): the word without one of its doubled letters.
  for (let i = 0; i + 1 < folded.length; i++) {
    if (folded[i] !== folded[i + 1]) continue;
    const month = BY_PREFIX.get(folded.slice(0, i) + folded.slice(i + 1));
    if (month !== undefined) months.add(month);
  }
  const [month] = months;
  return months.size === 1 && month !== undefined && month !== 0 ? month : null;
}

function differsByOneLetter(a: string, b: string): boolean {
  let differences = 0;
  for (let i = 0; i < a.length && differences < 2; i++) if (a[i] !== b[i]) differences++;
  return differences === 1;
}
