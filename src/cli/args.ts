/**
 * Command-line parsing shared by every command. A mistake on the command line (an unknown option, a missing or bad
 * value) is a UsageError naming the option: main.ts prints it on stderr and exits 2. Anything else thrown out of a
 * command is a failure, exit 1, logged with its stack.
 */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { ConfigError, type ConfigFlags as StorageFlags, storageConfig } from "../runtime/config.js";
import type { StorageOptions } from "../store/open.js";

/** A mistake in the command line: exit 2 with the message (a bad environment variable is a ConfigError, alike). */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** A mistake of the operator's, on the command line or in the environment: exit 2 naming it. */
export function isUsageError(err: unknown): err is UsageError | ConfigError {
  return err instanceof UsageError || err instanceof ConfigError;
}

type ParseArgsOptions = NonNullable<ParseArgsConfig["options"]>;

/** node:util's messages, reduced to what names the culprit (its own text also suggests `--` for positionals). */
function usageErrorOf(err: unknown): unknown {
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== "string" || !code.startsWith("ERR_PARSE_ARGS_")) return err;
  const message = (err as Error).message;
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return new UsageError(`unknown option ${unknown[1]}`);
  const positional = /^Unexpected argument '([^']*)'/.exec(message);
  if (positional) return new UsageError(`unexpected argument "${positional[1]}": this command takes none`);
  return new UsageError(message);
}

/**
 * node:util's parseArgs in strict mode (unknown options refused), its errors as UsageErrors. `options` is the
 * command's own table, spread with the shared tables below.
 */
export function parseCommandLine<const O extends ParseArgsOptions>(
  args: readonly string[],
  options: O,
  allowPositionals = false,
): ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: boolean; strict: true }>> {
  try {
    return parseArgs({ args: [...args], options, allowPositionals, strict: true });
  } catch (err) {
    throw usageErrorOf(err);
  }
}

export const HELP_OPTION = { help: { type: "boolean", short: "h", default: false } } as const;

/**
 * A subcommand's command line (positionals allowed) with -h/--help added; null once the help is printed, when the
 * command answers 0.
 */
export function commandLineOrHelp<const O extends ParseArgsOptions>(
  args: readonly string[],
  help: string,
  options: O,
): ReturnType<typeof parseCommandLine<O & typeof HELP_OPTION>> | null {
  const line = parseCommandLine(args, { ...options, ...HELP_OPTION }, true);
  const asked: { help?: unknown } = line.values;
  if (asked.help !== true) return line;
  process.stdout.write(help);
  return null;
}

/** An integer option from `min` to `max`; undefined when not given. */
export function integerOption(
  name: string,
  raw: string | undefined,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`${name} must be an integer ${range}, not "${raw}"`);
  }
  return n;
}

/** "a", "a or b", "a, b or c". */
export function orList(choices: readonly string[]): string {
  return choices.length > 1 ? `${choices.slice(0, -1).join(", ")} or ${choices.at(-1)}` : choices.join("");
}

/** One of a fixed set of values; undefined when not given. */
export function choiceOption<const T extends string>(
  name: string,
  raw: string | undefined,
  choices: readonly T[],
): T | undefined {
  if (raw === undefined) return undefined;
  const found = choices.find((c) => c === raw);
  if (found === undefined) {
    throw new UsageError(`${name} must be ${orList(choices)}, not "${raw}"`);
  }
  return found;
}

/** Where the state lives: the same options for every command that opens storage (serve, worker, migrate, clients). */
export const STORAGE_OPTIONS = {
  data: { type: "string" },
  "database-url": { type: "string" },
  "blob-url": { type: "string" },
} as const;

export const STORAGE_HELP = `  --data DIR            data directory [DOCSIFT_DATA] (default ./data): the SQLite store, uploaded files
  --database-url URL    postgres://user:pass@host:5432/db [DATABASE_URL]: store and queue in PostgreSQL
  --blob-url URL        s3://bucket/prefix [BLOB_URL]: with a database URL, blobs in S3 (default: PostgreSQL)`;

/**
 * The storage options, each flag before its environment variable (runtime/config.ts); empty values count as unset.
 * For the commands that only open storage (clients, keys, migrate).
 */
export function storageFrom(flags: StorageFlags): { dataDir: string; storage: StorageOptions } {
  const { dataDir, ...storage } = storageConfig(flags);
  return { dataDir, storage };
}
