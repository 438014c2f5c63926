/**
 * Letters a reading in the page's language still loses.
 *
 * German letters a German reading still loses. At 200 dpi with a scanner's noise tesseract's German model reads "ß"
 * as "B" ("LieferantenstraBe", "groBe", "FuB") and "ü" as "ii" ("griin", "fiir", "Miinchen"):
 * - an upper-case B after a lower-case vowel, inside or at the end of a word of lower-case letters, is no German
 *   spelling, while "ß" only ever follows a vowel. Brand names written in camel case ("PayBack", "DropBox") keep their
 *   B: it follows a consonant there, or a single letter ("eBay");
 * - "ii" between two lower-case letters spells no German word. A word OCR misread otherwise ("jahriich" for
 *   "jährlich") may come out wrong another way ("jahrüch"), but it was wrong already; "Hawaii" and "II" stay.
 * The line re-reader's recogniser writes no "ß" at all (its letters are ASCII): its words on a German page are
 * repaired the same way.
 */
const SHARP_S_READ_AS_B = /(?<=\p{L}[aeiouäöü])B(?=\p{Ll}|[.,:;]?$)/gu;
const U_UMLAUT_READ_AS_II = /(?<=\p{L})ii(?=\p{Ll})/gu;

/** `text` with the "ß" and "ü" a German reading read as "B" and "ii" put back. */
export function germanLetters(text: string): string {
  return text.replace(SHARP_S_READ_AS_B, "ß").replace(U_UMLAUT_READ_AS_II, "ü");
}

/**
 * French accents a French reading confuses: "Lumiére" for "Lumière". Before one consonant and a final mute "e" French
 * writes "è" ("-ière", "pièce", "modèle", "thème"), never "é", which OCR reads for it in names and addresses; "é"
 * before a vowel ("Renée") or word-final ("André") stays.
 */
const E_GRAVE_READ_AS_ACUTE = /é(?=[bcdfghjklmnpqrstvwxz]es?(?!\p{L}))/gu;
const CAPITAL_E_GRAVE_READ_AS_ACUTE = /É(?=[BCDFGHJKLMNPQRSTVWXZ]ES?(?!\p{L}))/gu;

/** `text` with the "è" a French reading read as "é" put back. */
export function frenchLetters(text: string): string {
  return text.replace(E_GRAVE_READ_AS_ACUTE, "è").replace(CAPITAL_E_GRAVE_READ_AS_ACUTE, "È");
}

/** `text` read on a page in `language` (a tesseract model; undefined: English) with the letters OCR loses there. */
export function inLanguage(text: string, language: string | undefined): string {
  if (language === "deu") return germanLetters(text);
  return language === "fra" ? frenchLetters(text) : text;
}

/** Words read on a page in `language` with the letters OCR loses there put back (inLanguage). */
export function inPageLanguage<W extends { text: string }>(words: readonly W[], language: string | undefined): W[] {
  return words.map((word) => {
    const text = inLanguage(word.text, language);
    return text === word.text ? word : { ...word, text };
  });
}
