/**
 * Which storage failures are transient, and what a client is told about them. A full disk, a SQLite lock held past
 * busy_timeout or a PostgreSQL server restarting are not bugs: the request failed before anything was committed and
 * the same request can succeed later, so it answers 503 `unavailable` with a Retry-After instead of 500 `internal`.
 * The messages are fixed texts: a 5xx never carries paths, SQL or driver internals.
 */
import { DocsiftError } from "../domain/errors.js";

export type TransientKind = "disk_full" | "io_error" | "database_busy" | "database_unreachable";

interface Advice {
  message: string;
  retryAfterSeconds: number;
}

const ADVICE: Record<TransientKind, Advice> = {
  // Space comes back only when someone frees it: no point in hammering the server.
  disk_full: { message: "The server's storage is full. Retry later.", retryAfterSeconds: 60 },
  io_error: { message: "The server's storage failed to read or write. Retry later.", retryAfterSeconds: 30 },
  database_busy: { message: "The database is busy. Retry shortly.", retryAfterSeconds: 2 },
  database_unreachable: {
    message: "The database or blob storage is unreachable (restarting?). Retry shortly.",
    retryAfterSeconds: 5,
  },
};

/** Node fs / socket error codes (`err.code`). EFBIG: a file-size limit (RLIMIT_FSIZE, quota) refused the write. */
const NODE_CODES: Record<string, TransientKind> = {
  ENOSPC: "disk_full",
  EDQUOT: "disk_full",
  EFBIG: "disk_full",
  EIO: "io_error",
  EMFILE: "io_error",
  ENFILE: "io_error",
  ECONNREFUSED: "database_unreachable",
  ECONNRESET: "database_unreachable",
  EPIPE: "database_unreachable",
  ETIMEDOUT: "database_unreachable",
  EHOSTUNREACH: "database_unreachable",
  ENETUNREACH: "database_unreachable",
  EAI_AGAIN: "database_unreachable",
};

/** better-sqlite3 codes, matched by prefix so the extended codes (SQLITE_BUSY_SNAPSHOT, SQLITE_IOERR_WRITE) count. */
const SQLITE_PREFIXES: [string, TransientKind][] = [
  ["SQLITE_BUSY", "database_busy"],
  ["SQLITE_LOCKED", "database_busy"],
  ["SQLITE_FULL", "disk_full"],
  ["SQLITE_IOERR", "io_error"],
];

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01-03 (admin/crash shutdown, cannot connect now: a
 * restart), 53 (insufficient resources: disk full, out of memory, too many connections), 40001/40P01 (serialization
 * failure, deadlock: the transaction was rolled back and may simply be run again), 58030 (I/O error).
 */
function sqlStateKind(code: string): TransientKind | undefined {
  if (!/^[0-9A-Z]{5}$/.test(code)) return undefined;
  if (code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03") return "database_unreachable";
  if (code === "53100") return "disk_full";
  if (code.startsWith("53")) return "database_busy";
  if (code === "40001" || code === "40P01") return "database_busy";
  if (code === "58030") return "io_error";
  return undefined;
}

/** node-postgres reports a dropped or timed-out connection with a plain Error and no code. */
const PG_CONNECTION_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is closed/i;

function ownKind(err: object): TransientKind | undefined {
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string") {
    const node = NODE_CODES[code];
    if (node) return node;
    const sqlite = SQLITE_PREFIXES.find(([prefix]) => code.startsWith(prefix));
    if (sqlite) return sqlite[1];
    const pg = sqlStateKind(code);
    if (pg) return pg;
  }
  const message = (err as { message?: unknown }).message;
  if (typeof message === "string" && PG_CONNECTION_MESSAGE.test(message)) return "database_unreachable";
  return undefined;
}

/**
 * The transient kind of a failure, looking through `cause` chains and AggregateErrors (node-postgres reports a
 * refused connection to every address of "localhost" as one AggregateError), or undefined when it is not transient.
 */
export function transientKind(err: unknown): TransientKind | undefined {
  const search = (e: unknown, depth: number): TransientKind | undefined => {
    if (typeof e !== "object" || e === null || depth > 5) return undefined;
    const own = ownKind(e);
    if (own) return own;
    const inner = e instanceof AggregateError ? e.errors : [];
    for (const next of [...inner, (e as { cause?: unknown }).cause]) {
      const kind = search(next, depth + 1);
      if (kind) return kind;
    }
    return undefined;
  };
  return search(err, 0);
}

/** Whether retrying the same work later may succeed: a transient storage failure, or one already mapped to 503. */
export function isTransient(err: unknown): boolean {
  if (err instanceof DocsiftError) return err.code === "unavailable";
  return transientKind(err) !== undefined;
}

/**
 * `unavailable` (503 + Retry-After) for a transient storage failure, keeping the original as the cause; `context`
 * opens the message (e.g. "The upload was not stored."). Undefined for anything else, DocsiftErrors included.
 */
export function unavailableFor(err: unknown, context?: string): DocsiftError | undefined {
  if (err instanceof DocsiftError) return undefined;
  const kind = transientKind(err);
  if (!kind) return undefined;
  const { message, retryAfterSeconds } = ADVICE[kind];
  return new DocsiftError("unavailable", context ? `${context} ${message}` : message, {
    cause: err,
    retryAfterSeconds,
  });
}
