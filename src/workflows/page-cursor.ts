/**
 * The opaque `next` cursors of paged listings (files, tasks): the last row's sort key as base64url JSON. A cursor
 * that does not decode to the listing's key is the client's mistake (400), whatever was tampered with.
 */
import { DocsiftError } from "../domain/errors.js";

function encodeCursor(key: object): string {
  return Buffer.from(JSON.stringify(key)).toString("base64url");
}

/** `read` returns the key when the decoded object has the listing's shape, null otherwise. */
function decodeCursor<K>(text: string, read: (decoded: Record<string, unknown>) => K | null): K {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    decoded = null;
  }
  const key =
    typeof decoded === "object" && decoded !== null ? read(Object.fromEntries(Object.entries(decoded))) : null;
  if (key === null) throw new DocsiftError("bad_request", "cursor is not the `next` of an earlier page.");
  return key;
}

/** How a listing pages: its key's shape, a row's key, and the query for rows after a key. */
export interface Keyset<R, K> {
  read: (decoded: Record<string, unknown>) => K | null;
  keyOf: (row: R) => K;
  rowsAfter: (after: K | null, limit: number) => Promise<R[]>;
}

/** One page of `limit` rows after `cursor`, and the `next` cursor (null on the last page). */
export async function keysetPage<R, K extends object>(
  keyset: Keyset<R, K>,
  cursor: string | null,
  limit: number,
): Promise<{ rows: R[]; next: string | null }> {
  // One row more than asked tells whether a next page exists, without a count query.
  const rows = await keyset.rowsAfter(cursor === null ? null : decodeCursor(cursor, keyset.read), limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { rows: page, next: rows.length > limit && last ? encodeCursor(keyset.keyOf(last)) : null };
}
