/** Text folding shared by label matching and heuristics: case, accents and punctuation never decide a match. */

/** Lower case, accents stripped, only letters, digits, '#' and '%' kept ("USt.-IdNr.:" -> "ustidnr", "N°" -> "n"). */
export function foldForMatching(text: string): string {
  const cached = FOLDED.get(text);
  if (cached !== undefined) return cached;
  if (FOLDED.size > 50_000) FOLDED.clear();
  const folded = text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/[^a-z0-9#%]/g, "");
  FOLDED.set(text, folded);
  return folded;
}

/** Words repeat across documents and calls (labels, headings): folding each distinct string once is much cheaper. */
const FOLDED = new Map<string, string>();

/** Spaces collapsed and trimmed: the normal form of names and addresses. */
export function collapseSpaces(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export function letterCount(text: string): number {
  return (text.match(/\p{L}/gu) ?? []).length;
}

export function digitCount(text: string): number {
  return (text.match(/\d/g) ?? []).length;
}

export function upperCount(text: string): number {
  return (text.match(/\p{Lu}/gu) ?? []).length;
}
