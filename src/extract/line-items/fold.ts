/** Word folding for matching header and stop words: lower case, no accents, no punctuation. */

/** One word: lower case, accents and punctuation removed ("Qté." -> "qte", "E-Preis" -> "epreis"); "#" and "%" kept. */
export function foldWord(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/[^\p{L}\p{N}#%]/gu, "");
}
