/**
 * What the remote commands (upload, result, watch, files, webhooks) share: the client built from the environment, the selection and
 * workflow flags, and turning any failure into the service's `{error, message}` shape.
 */
import { DocsiftApiError, DocsiftClient, type UploadOptions } from "../client/index.js";
import { remoteConfig } from "../runtime/config.js";
import { isUsageError, orList, UsageError } from "./args.js";
import { isOutputFormat, type OutputFormat } from "./remote-output.js";

export const REMOTE_ENV_HELP = `Environment:
  DOCSIFT_URL             base URL of the service (default http://127.0.0.1:8080)
  DOCSIFT_API_KEY         client credentials as id:secret
  DOCSIFT_CLIENT_ID       the client id (with DOCSIFT_CLIENT_SECRET), instead of DOCSIFT_API_KEY
  DOCSIFT_CLIENT_SECRET   the client secret`;

/** The client of the service named in the environment (runtime/config.ts's remoteConfig). */
export function clientFromEnv(): DocsiftClient {
  return new DocsiftClient(remoteConfig());
}

export function parseFormat(value: string | undefined): OutputFormat {
  const format = value ?? "json";
  if (!isOutputFormat(format)) throw new UsageError(`--format must be json, jsonl or csv, not "${format}".`);
  return format;
}

function jsonObject(name: string, text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`${name} is not valid JSON.`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`${name} must be a JSON object.`);
  }
  return parsed as Record<string, unknown>;
}

export interface UploadFlags {
  product?: string[];
  "field-set"?: string[];
  locale?: string;
  tags?: string[];
  workflow?: string;
  "workflow-options"?: string;
  "child-workflow"?: string;
  "child-workflow-options"?: string;
}

/** parseArgs options of the upload flags, shared by `upload` and `watch`. */
export const UPLOAD_FLAG_OPTIONS = {
  product: { type: "string", multiple: true },
  "field-set": { type: "string", multiple: true },
  locale: { type: "string" },
  tags: { type: "string", multiple: true },
  workflow: { type: "string" },
  "workflow-options": { type: "string" },
  "child-workflow": { type: "string" },
  "child-workflow-options": { type: "string" },
} as const;

export const UPLOAD_FLAGS_HELP = `  --product ID                 product to extract (invoices, receipts, documents); repeatable
  --field-set ID               field set to extract (invoice, parties, payment, receipt, document); repeatable;
                               give products or field sets, not both
  --locale TAG                 BCP 47 locale deciding ambiguous dates and numbers (de-DE, en-US, ...)
  --tags TEXT                  a tag to group documents (GET /files?tag=); repeatable
  --workflow ID                split or validate (beta); omit for plain extraction
  --workflow-options JSON      the workflow's options object
  --child-workflow ID          with --workflow split: the workflow run on each part
  --child-workflow-options JSON`;

/** The upload parameters of the flags; the service validates ids, this only catches what it cannot be sent. */
export function uploadOptionsFrom(flags: UploadFlags): UploadOptions {
  const products = flags.product ?? [];
  const fieldSets = flags["field-set"] ?? [];
  if (products.length > 0 && fieldSets.length > 0) throw new UsageError("Give --product or --field-set, not both.");
  if (products.length === 0 && fieldSets.length === 0) {
    throw new UsageError("Choose what to extract: --product ID or --field-set ID.");
  }
  const options: UploadOptions = products.length > 0 ? { products } : { fieldSets };
  if (flags.locale !== undefined) options.locale = flags.locale;
  if (flags.tags !== undefined) options.tags = flags.tags;
  if (flags.workflow !== undefined) options.workflowId = flags.workflow;
  const workflowOptions = jsonObject("--workflow-options", flags["workflow-options"]);
  if (workflowOptions !== undefined) options.workflowOptions = workflowOptions;
  if (flags["child-workflow"] !== undefined) options.childWorkflowId = flags["child-workflow"];
  const childOptions = jsonObject("--child-workflow-options", flags["child-workflow-options"]);
  if (childOptions !== undefined) options.childWorkflowOptions = childOptions;
  return options;
}

/** The `{error, message}` of a failure that is not the service's: a missing file, a bug. */
export function asApiError(err: unknown): DocsiftApiError {
  if (err instanceof DocsiftApiError) return err;
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === "ENOENT" || code === "EACCES" || code === "EISDIR") {
    return new DocsiftApiError(0, "not_found", (err as Error).message);
  }
  return new DocsiftApiError(0, "internal", err instanceof Error ? err.message : String(err), { cause: err });
}

/** Runs a command body: usage mistakes exit 2 with the help, anything else is printed as `{error, message}`. */
export async function runRemote(help: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (isUsageError(err)) {
      process.stderr.write(`${err.message}\n\n${help}`);
      return 2;
    }
    process.stderr.write(`${JSON.stringify(asApiError(err).toJSON())}\n`);
    return 1;
  }
}

/** One JSON object on its own line of stdout: the output of the list-like commands (files, webhooks). */
export function printJsonLine(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** A command's actions by name: each runs with the client and the arguments that follow the action. */
export type RemoteAction = (client: DocsiftClient, args: string[]) => Promise<number>;
export type RemoteActions = Record<string, RemoteAction>;

/**
 * `docsift COMMAND ACTION ARGS`: the help when asked for (exit 0) or when no action is named (exit 2), a usage error
 * listing the actions for an unknown one, else the action, under runRemote.
 */
export function runRemoteAction(help: string, argv: readonly string[], actions: RemoteActions): Promise<number> {
  return runRemote(help, async () => {
    const [action, ...rest] = argv;
    if (action === undefined || [action, ...rest].some((arg) => arg === "--help" || arg === "-h")) {
      process.stdout.write(help);
      return action === undefined ? 2 : 0;
    }
    const run = Object.hasOwn(actions, action) ? actions[action] : undefined;
    if (run === undefined) throw new UsageError(`Unknown action "${action}": use ${orList(Object.keys(actions))}.`);
    return run(clientFromEnv(), rest);
  });
}
