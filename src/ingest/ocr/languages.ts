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
import { francAll } from "franc";
import type { OcrResult } from "./engine.js";

/** The model every page is read with first. */
export const FIRST_PASS_LANGUAGE = "eng";

/**
 * Languages a second reading can add (ISO 639-3, as tesseract and franc name them): Debian's
 * `tesseract-ocr-<code>` packages and npm's `@tesseract.js-data/<code>` ship their models.
 */
export const SECOND_PASS_LANGUAGES = ["deu", "fra", "spa", "ita", "nld", "por"] as const;
export type SecondPassLanguage = (typeof SECOND_PASS_LANGUAGES)[number];

/**
 * Languages franc chooses among. Malay and Indonesian (no model here) are candidates too so that Malaysian
 * receipts, mostly names and Malay words, land on them rather than on a related-looking installed language.
 */
const CANDIDATES = ["eng", ...SECOND_PASS_LANGUAGES, "zlm", "ind"];
/** Below this many letters franc's guess is noise (a receipt stub, a page of numbers): the page stays English. */
const MIN_LETTERS = 60;
/**
 * The winner must beat English's score by this much (francAll scores the best language 1 and the others relative
 * to it): English text read with some foreign names should not pay a second reading. 0.04 left the first page of a
 * German invoice of invoices-dev (names, addresses, figures: German 1, English 0.962) in English, with its customer
 * read `Miiller`; English pages score English best and never reach this test.
 */
const MIN_MARGIN_OVER_ENGLISH = 0.02;

function isSecondPassLanguage(code: string): code is SecondPassLanguage {
  return (SECOND_PASS_LANGUAGES as readonly string[]).includes(code);
}

/** The installed language the words read with English are most likely in, or undefined when English will do. */
export function pageLanguage(words: readonly { text: string }[]): SecondPassLanguage | undefined {
  const text = words.map((w) => w.text).join(" ");
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters < MIN_LETTERS) return undefined;
  const scores = francAll(text, { only: CANDIDATES, minLength: MIN_LETTERS });
  const [best, score] = scores[0] ?? ["und", 0];
  if (!isSecondPassLanguage(best)) return undefined;
  const english = scores.find(([code]) => code === "eng")?.[1] ?? 0;
  return score - english >= MIN_MARGIN_OVER_ENGLISH ? best : undefined;
}

/** The tesseract `-l` value of a second reading in `language`: that model first, English beside it. */
export function secondPassModels(language: SecondPassLanguage): string {
  return `${language}+${FIRST_PASS_LANGUAGE}`;
}

/**
 * Reads a page with English, then, when the text read is in another language whose model is installed, again with
 * that language first; the second reading replaces the first. `read` runs the engine with a tesseract `-l` value;
 * `installed` lists the models the engine has (asked only when a second reading is wanted).
 */
export async function readInPageLanguage(
  read: (models: string) => Promise<OcrResult>,
  installed: () => Promise<ReadonlySet<string>>,
): Promise<OcrResult> {
  const first = await read(FIRST_PASS_LANGUAGE);
  const language = pageLanguage(first.words);
  if (!language || !(await installed()).has(language)) return first;
  return read(secondPassModels(language));
}
