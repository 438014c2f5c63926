/**
 * The one rule for a locale, wherever one is given (the upload's `locale`, `docsift extract --locale`, extraction):
 * a BCP 47 language tag, `_` read as `-` (the POSIX spelling `de_DE` is common), canonicalised to BCP 47 case
 * (`de-DE`, `zh-Hant-TW`). Pure.
 */

/** The canonical tag, or null when the text is not a well-formed language tag. */
export function canonicalLocale(value: string): string | null {
  const tag = value.trim().replace(/_/g, "-");
  if (tag === "") return null;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    // RangeError: not a well-formed tag.
    return null;
  }
}
