/**
 * A file's tags as one text column: none is null, one tag is stored as its own text (as before tags were lists, so
 * older rows read the same), several as a JSON array text. Pure.
 */

export function encodeTags(tags: readonly string[]): string | null {
  if (tags.length === 0) return null;
  if (tags.length === 1 && !(tags[0] ?? "").startsWith("[")) return tags[0] ?? null;
  return JSON.stringify(tags);
}

export function decodeTags(stored: string | null): string[] {
  if (stored === null) return [];
  if (stored.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(stored);
      if (Array.isArray(parsed) && parsed.every((t): t is string => typeof t === "string")) return parsed;
    } catch {
      // A single tag that merely starts with "[" (stored before tags were lists).
    }
  }
  return [stored];
}
