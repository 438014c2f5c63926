/**
 * Whether a PDF page's text layer can be trusted. Scans have none; some PDFs embed fonts without a Unicode map,
 * so their "text" decodes to private-use, control or replacement characters (or to runs of punctuation):
 * such pages are OCR'd instead.
 */
const BAD_CHAR = /[\p{Cc}\p{Co}\p{Cn}\p{Cs}\uFFFD]/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Share of bad characters above which the layer is garbage. */
const MAX_BAD_SHARE = 0.2;
/** Real text is mostly letters and digits; below this share (over enough characters) it is a broken encoding. */
const MIN_WORD_CHAR_SHARE = 0.3;
const MIN_CHARS_FOR_SHARE_TEST = 20;

export function isUsableTextLayer(text: string): boolean {
  const chars = [...text].filter((c) => !/\s/u.test(c));
  if (chars.length === 0) return false;
  const bad = chars.filter((c) => BAD_CHAR.test(c)).length;
  if (bad / chars.length > MAX_BAD_SHARE) return false;
  const wordChars = chars.filter((c) => WORD_CHAR.test(c)).length;
  return chars.length < MIN_CHARS_FOR_SHARE_TEST || wordChars / chars.length >= MIN_WORD_CHAR_SHARE;
}
