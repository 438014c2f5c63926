/** `docsift upload`: sends files to a docsift service; with --wait, prints their results. */
import { type DocsiftClient, DocsiftWaitTimeoutError, type UploadOptions } from "../client/index.js";
import { commandLineOrHelp, integerOption, UsageError } from "./args.js";
import {
  asApiError,
  clientFromEnv,
  parseFormat,
  REMOTE_ENV_HELP,
  runRemote,
  UPLOAD_FLAG_OPTIONS,
  UPLOAD_FLAGS_HELP,
  uploadOptionsFrom,
} from "./remote-client.js";
import { exitCodeOf, failedOutcome, type Outcome, printOutcomes } from "./remote-output.js";

const HELP = `Usage: docsift upload FILE... (--product ID | --field-set ID)... [options]

Uploads each FILE (PDF, PNG or JPG) to the docsift service and prints its receipt, or with --wait its result.

Options:
${UPLOAD_FLAGS_HELP}
  --wait                       wait for each result (FINALISED or FAILED) and print it instead of the receipt
  --timeout MS                 with --wait: stop waiting after MS; unfinished files print their status
  --format FORMAT              json (default, an array), jsonl (a line per file, in input order) or csv
                               (columns file, fileId, status, then each field's value)
  --concurrency N              files in flight at once (default 4)
  -h, --help                   show this help

${REMOTE_ENV_HELP}

Exit status: 0 all uploaded (with --wait: all FINALISED), 1 one failed, 2 bad usage, 3 a --timeout passed first.
`;

async function processFile(
  client: DocsiftClient,
  file: string,
  options: UploadOptions,
  wait: { enabled: boolean; deadlineMs: number | undefined },
): Promise<Outcome> {
  let fileId: string | undefined;
  try {
    const receipt = await client.upload(file, options);
    fileId = receipt.fileId;
    if (!wait.enabled) return { file, ...receipt };
    return { file, ...(await client.waitForResult(receipt.fileId, { deadlineMs: wait.deadlineMs })) };
  } catch (err) {
    if (err instanceof DocsiftWaitTimeoutError) return { file, fileId: err.fileId, status: err.lastStatus };
    return failedOutcome(asApiError(err), { file, fileId });
  }
}

export function run(argv: string[]): Promise<number> {
  return runRemote(HELP, async () => {
    const line = commandLineOrHelp(argv, HELP, {
      ...UPLOAD_FLAG_OPTIONS,
      wait: { type: "boolean", default: false },
      timeout: { type: "string" },
      format: { type: "string" },
      concurrency: { type: "string" },
    });
    if (line === null) return 0;
    const { values, positionals: files } = line;
    if (files.length === 0) throw new UsageError("Name at least one FILE to upload.");
    const format = parseFormat(values.format);
    const options = uploadOptionsFrom(values);
    const wait = { enabled: values.wait, deadlineMs: integerOption("--timeout", values.timeout, 0) };
    const concurrency = integerOption("--concurrency", values.concurrency, 1) ?? 4;
    const client = clientFromEnv();

    const outcomes = await printOutcomes(
      files.map((file) => () => processFile(client, file, options, wait)),
      concurrency,
      format,
    );
    return exitCodeOf(outcomes, values.wait ? "FINALISED" : "RECEIVED");
  });
}
