/**
 * What the repositories need to know of a dialect: how its driver hands back timestamp and JSON columns. Both
 * dialects take ISO text and JSON text on the way in (PostgreSQL casts them to the column's type), so only reads
 * differ. A value of the wrong shape throws: it means the schema and the migrations disagree.
 */

export interface DialectCodec {
  /** A timestamp column as the driver returns it, as ISO 8601 UTC text. */
  timestamp: (stored: unknown) => string;
  /** A JSON column as the driver returns it, as the value the JSON text held. */
  json: (stored: unknown) => unknown;
}

/** SQLite keeps both as text, exactly as written. */
export const sqliteCodec: DialectCodec = {
  timestamp: (stored) => text(stored, "timestamp"),
  json: (stored) => JSON.parse(text(stored, "JSON")),
};

/** node-postgres parses timestamptz into a Date (millisecond precision, as written) and json/jsonb into values. */
export const postgresCodec: DialectCodec = {
  timestamp: (stored) => {
    if (stored instanceof Date) return stored.toISOString();
    throw new TypeError(`expected a timestamptz column to read back as a Date, got ${typeof stored}`);
  },
  json: (stored) => stored,
};

/** Decodes a nullable column: SQL NULL stays null. */
export function orNull<T>(stored: unknown, decode: (stored: unknown) => T): T | null {
  return stored === null ? null : decode(stored);
}

function text(stored: unknown, what: string): string {
  if (typeof stored === "string") return stored;
  throw new TypeError(`expected a ${what} column to read back as text, got ${typeof stored}`);
}
