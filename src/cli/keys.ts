/** `docsift keys rotate|list`: the JWT signing key set in the store (works while serving, from any machine). */
import { join, resolve } from "node:path";
import { openKeySet, rotateSigningKey } from "../auth/signing-key.js";
import { RETIRED_KEY_GRACE_SECONDS } from "../auth/tokens.js";
import { openStorage } from "../store/open.js";
import type { SigningKeyRecord } from "../store/types.js";
import { HELP_OPTION, parseCommandLine, STORAGE_HELP, STORAGE_OPTIONS, storageFrom, UsageError } from "./args.js";

const HELP = `Usage: docsift keys <rotate|list> [options]

  rotate [--json]
      Add a new signing key: every process signs new tokens with it from its next token on. The previous key is
      retired; the tokens it signed stay valid until they expire (it verifies for ${RETIRED_KEY_GRACE_SECONDS} s more).
  list [--json]
      List the keys: kid, created, retired, and whether they still verify tokens (never the keys themselves).

Storage options (environment variable in brackets), as for serve:
${STORAGE_HELP}
`;

interface KeyListing {
  kid: string;
  createdAt: string;
  retiredAt: string | null;
  /** Until when it verifies tokens: null for the current key, which signs them. */
  verifiesUntil: string | null;
  /** current: signs; retired: verifies the tokens it signed until they expire; expired: verifies nothing. */
  state: "current" | "retired" | "expired";
}

/** What `keys list` shows of the set at `now`: no private material. */
function listing(records: readonly SigningKeyRecord[], now: Date): KeyListing[] {
  return records.map((r) => {
    if (r.retiredAt === null)
      return { kid: r.kid, createdAt: r.createdAt, retiredAt: null, verifiesUntil: null, state: "current" };
    const until = new Date(Date.parse(r.retiredAt) + RETIRED_KEY_GRACE_SECONDS * 1000);
    return {
      kid: r.kid,
      createdAt: r.createdAt,
      retiredAt: r.retiredAt,
      verifiesUntil: until.toISOString(),
      state: until > now ? "retired" : "expired",
    };
  });
}

function actionOf(positionals: readonly string[]): "rotate" | "list" {
  const [action, extra] = positionals;
  if (action !== "rotate" && action !== "list") throw new UsageError(`unknown action "${action}": rotate or list`);
  if (extra !== undefined) throw new UsageError(`keys ${action} takes no argument, not "${extra}"`);
  return action;
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(
    argv,
    { json: { type: "boolean", default: false }, ...STORAGE_OPTIONS, ...HELP_OPTION },
    true,
  );
  if (values.help || positionals.length === 0) {
    process.stdout.write(HELP);
    return values.help ? 0 : 2;
  }
  const action = actionOf(positionals);
  const { dataDir, storage } = storageFrom(values);
  const { store } = await openStorage(resolve(dataDir), storage);
  try {
    if (action === "rotate") {
      // As a start would: a set not created yet begins with the data dir's key from before key sets, if any.
      await openKeySet(store.signingKeys, join(resolve(dataDir), "jwt-key.json"));
      const kid = await rotateSigningKey(store.signingKeys);
      process.stdout.write(values.json ? `${JSON.stringify({ kid })}\n` : `new signing key ${kid}\n`);
      return 0;
    }
    const keys = listing(await store.signingKeys.list(), new Date());
    if (values.json) process.stdout.write(`${JSON.stringify(keys)}\n`);
    else if (keys.length === 0) process.stdout.write("no signing keys yet: the first start creates one\n");
    else {
      for (const k of keys) {
        const retired = k.retiredAt === null ? "" : `  retired ${k.retiredAt}  verifies until ${k.verifiesUntil}`;
        process.stdout.write(`${k.kid}  ${k.state.padEnd(7)}  created ${k.createdAt}${retired}\n`);
      }
    }
    return 0;
  } finally {
    await store.close();
  }
}
