/**
 * Candidate strings come from words of a line, so a value often carries the punctuation around it
 * ("Datum: 03.04.2024," or "(DE123456789)"). Parsers strip these edges and then demand that the rest is a value.
 */

const EDGE = /^[\s:;,"'“”„«»[\]{}()*]+|[\s:;,"'“”„«»[\]{}()*]+$/g;

/**
 * Strips surrounding punctuation, including parentheses, and a sentence's full stop, also outside a closing bracket
 * ("(19.10.2023)."). Amounts keep parentheses (they mean negative) and use `trimEdgesKeepingParens` instead.
 */
export function trimEdges(text: string): string {
  return text.replace(EDGE, "").replace(/\.$/, "").replace(EDGE, "");
}

const EDGE_NO_PARENS = /^[\s:;,"'“”„«»[\]{}*]+|[\s:;,"'“”„«»[\]{}*]+$/g;

export function trimEdgesKeepingParens(text: string): string {
  return text.replace(EDGE_NO_PARENS, "");
}

/** Lower case without diacritics, so "Déc", "DEC" and "déc" compare equal. */
export function foldAccentsAndCase(text: string): string {
  // Most words on a document are plain ASCII; decomposing them would only cost time.
  if (/^[\x20-\x7e]*$/.test(text)) return text.toLowerCase();
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}
