/**
 * document.language: franc (via language-detect.ts) reads running text well but business documents are mostly
 * names, numbers and short labels, where it often abstains or confuses English with French. A vote of common
 * function words and document words per language backs it up: it decides when franc abstains and overrides franc
 * when the vote is clear and disagrees. Ingest asks the same question of a page's first OCR reading to choose the
 * language model of its second (src/ingest/ocr/languages.ts).
 */
import { detectLanguage } from "./language-detect.js";

const WORDS: Readonly<Record<string, readonly string[]>> = {
  en: [
    "the",
    "and",
    "of",
    "to",
    "for",
    "with",
    "your",
    "you",
    "invoice",
    "total",
    "date",
    "amount",
    "due",
    "thank",
    "payment",
    "bill",
    "number",
    "price",
    "qty",
    "tax",
    "please",
    "our",
    "from",
    "change",
    "cash",
  ],
  de: [
    "und",
    "der",
    "die",
    "das",
    "mit",
    "von",
    "für",
    "ihre",
    "rechnung",
    "datum",
    "summe",
    "betrag",
    "gesamt",
    "bitte",
    "zahlbar",
    "menge",
    "preis",
    "netto",
    "brutto",
    "vielen",
    "dank",
    "bis",
    "zu",
    "nr",
    "mwst",
  ],
  fr: [
    // "de" is as French and Spanish as it is Dutch: in the Dutch list alone it made Spanish and French addresses
    // ("Calle de Alcalá", "Rue de la Paix") vote Dutch.
    "de",
    "le",
    "la",
    "les",
    "et",
    "des",
    "du",
    "pour",
    "avec",
    "facture",
    "montant",
    "date",
    "total",
    "merci",
    "prix",
    "quantité",
    "tva",
    "paiement",
    "échéance",
    "votre",
    "nous",
    "au",
    "à",
    "ttc",
    "ht",
  ],
  es: [
    "de",
    "el",
    "la",
    "los",
    "las",
    "y",
    "del",
    "para",
    "con",
    "factura",
    "importe",
    "fecha",
    "total",
    "gracias",
    "precio",
    "cantidad",
    "iva",
    "pago",
    "su",
    "por",
    "nº",
  ],
  // With the forms an English reading keeps ("preco", "descricao", "quantita" for "preço", "descrição", "quantità"):
  // the first OCR reading of a page asks this of text without its accents. Not "com" (every web address), "da", "di"
  // (German, Italian, Malay) or "no" (English "Order no").
  pt: [
    "de",
    "do",
    "dos",
    "das",
    "para",
    "em",
    "fatura",
    "obrigado",
    "preço",
    "preco",
    "quantidade",
    "pagamento",
    "nif",
    "montante",
    "produto",
    "desconto",
    "descrição",
    "descricao",
    "vencimento",
    "portes",
    "contribuinte",
    "iva",
  ],
  it: [
    "il",
    "della",
    "dello",
    "degli",
    "fattura",
    "importo",
    "totale",
    "grazie",
    "prezzo",
    "quantità",
    "quantita",
    "imponibile",
    "aliquota",
    "sconto",
    "codice",
    "descrizione",
    "scadenza",
    "spedizione",
    "iva",
  ],
  nl: [
    "de",
    "het",
    "een",
    "en",
    "van",
    "voor",
    "met",
    "uw",
    "factuur",
    "bedrag",
    "datum",
    "totaal",
    "bedankt",
    "prijs",
    "aantal",
    "btw",
    "betaling",
    "te",
    "betalen",
    "wij",
  ],
  ms: [
    "dan",
    "yang",
    "untuk",
    "jumlah",
    "terima",
    "kasih",
    "tarikh",
    "harga",
    "bayaran",
    "cukai",
    "resit",
    "jalan",
    "taman",
    "sdn",
    "bhd",
  ],
};

const INDEX: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const [language, words] of Object.entries(WORDS)) {
    for (const word of words) map.set(word, [...(map.get(word) ?? []), language]);
  }
  return map;
})();

function vote(text: string): { language: string; hits: number; margin: number } | null {
  const counts = new Map<string, number>();
  for (const token of text.toLowerCase().split(/[^\p{L}º]+/u)) {
    for (const language of INDEX.get(token) ?? []) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const [first, second] = ranked;
  if (!first) return null;
  return { language: first[0], hits: first[1], margin: first[1] - (second?.[1] ?? 0) };
}

export interface LanguageGuess {
  language: string | null;
  /** 0..2: how clear the evidence is, on the language calibration scale. */
  score: number;
}

export function guessLanguage(text: string): LanguageGuess {
  const sample = text.slice(0, 3000);
  const franc = detectLanguage(sample);
  const words = vote(sample);
  const clearVote = words !== null && words.hits >= 4 && words.margin >= 3;
  if (franc && (!clearVote || words?.language === franc)) {
    return { language: franc, score: Math.min(sample.length / 400, 2) };
  }
  if (words && (clearVote || (!franc && words.hits >= 2 && words.margin >= 1))) {
    return { language: words.language, score: Math.min(words.margin / 4, 1.5) };
  }
  return { language: franc, score: franc ? 0.5 : 0 };
}
