/**
 * Which tesseract language models read a page. Every page is read first with English alone (the cheapest model, and
 * what most pages need); the text read then says whether the page is in another Latin-script language whose model is
 * installed, and only such a page is read again with that language first and English beside it (for the English
 * words every business document carries). Reading every page with `eng+deu+fra+...` would slow every page and make
 * English pages worse (more models, more wrong guesses).
 *
 * English reads German and French words well enough for franc's trigrams (`Rechnung`, `Lieferant`, `Facture`,
 * `Montant`) while it loses their accents (`Müllermann` -> `Mullermann`, `Köln` -> `Kdin`, `ß` -> `B`): the second
 * reading restores them. On a rendered German page (test/integration/ocr-languages.test.ts) `deu+eng` read `März`
 * where `eng+deu` read `Marz`, so the page's language goes first.
 */
import { guessLanguage } from "../../document/language-guess.js";
import type { OcrResult } from "./engine.js";
import { inPageLanguage } from "./lost-letters.js";

/** The model every page is read with first. */
export const FIRST_PASS_LANGUAGE = "eng";

/**
 * Languages a second reading can add (ISO 639-3, as tesseract and franc name them): Debian's
 * `tesseract-ocr-<code>` packages and npm's `@tesseract.js-data/<code>` ship their models.
 */
export const SECOND_PASS_LANGUAGES = ["deu", "fra", "spa", "ita", "nld", "por"] as const;
export type SecondPassLanguage = (typeof SECOND_PASS_LANGUAGES)[number];

/** ISO 639-1 (as the document's language is named) -> the installed model of that language. */
const MODEL_OF: Readonly<Record<string, SecondPassLanguage>> = {
  de: "deu",
  fr: "fra",
  es: "spa",
  it: "ita",
  nl: "nld",
  pt: "por",
};

/**
 * Below this many letters a guess is noise (a receipt stub, a page of numbers, a line or two read among specks): the
 * page stays English.
 */
const MIN_LETTERS = 60;

/**
 * The installed language the words read with English are most likely in, or undefined when English will do: the
 * document language guess extraction makes (franc's trigrams backed by a vote of business and function words,
 * src/document/language-guess.ts), asked of the first reading. Malay and Indonesian (no model here) are among its
 * answers, so Malaysian receipts, mostly names and Malay words, stay English rather than land on a related-looking
 * installed language. franc alone, with a margin over English, missed 11 of 118 foreign pages of the synthetic scans
 * (`tesseract --psm 6 -l eng` readings: numbers and punctuation carry no language but shrink its length-scaled
 * margins, and OCR's English misreadings blur the rest) and took an English page for Dutch; the guess reads all 118
 * and all 82 English pages right, and 369 of 370 real receipts stay English as before.
 */
export function pageLanguage(words: readonly { text: string }[]): SecondPassLanguage | undefined {
  const text = words.map((w) => w.text).join(" ");
  if ((text.match(/\p{L}/gu)?.length ?? 0) < MIN_LETTERS) return undefined;
  const { language } = guessLanguage(text);
  return language === null ? undefined : MODEL_OF[language];
}

/** The tesseract `-l` value of a second reading in `language`: that model first, English beside it. */
export function secondPassModels(language: SecondPassLanguage): string {
  return `${language}+${FIRST_PASS_LANGUAGE}`;
}

/** The `-l` value that reads text in the model `language` names (OcrResult.language), English when it names none. */
export function modelsOf(language: string | undefined): string {
  const known = SECOND_PASS_LANGUAGES.find((l) => l === language);
  return known ? secondPassModels(known) : FIRST_PASS_LANGUAGE;
}

/**
 * Reads a page with English, then, when the text read is in another language whose model is installed, again with
 * that language first; the second reading replaces the first and names its language (a German one with its "ß" and
 * "ü" put back, a French one its "è", lost-letters.ts). `read` runs the engine with a tesseract `-l` value;
 * `installed` lists the models the engine has (asked only when a second reading is wanted).
 */
export async function readInPageLanguage(
  read: (models: string) => Promise<OcrResult>,
  installed: () => Promise<ReadonlySet<string>>,
): Promise<OcrResult> {
  const first = await read(FIRST_PASS_LANGUAGE);
  const language = pageLanguage(first.words);
  if (!language || !(await installed()).has(language)) return first;
  const second = await read(secondPassModels(language));
  return { ...second, words: inPageLanguage(second.words, language), language };
}
