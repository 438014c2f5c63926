/** `docsift result`: prints the result of uploaded files, waiting for them to finish. */
import { type DocsiftClient, DocsiftWaitTimeoutError } from "../client/index.js";
import { commandLineOrHelp, integerOption, UsageError } from "./args.js";
import { asApiError, clientFromEnv, parseFormat, REMOTE_ENV_HELP, runRemote } from "./remote-client.js";
import { exitCodeOf, failedOutcome, type Outcome, printOutcomes } from "./remote-output.js";

const HELP = `Usage: docsift result FILEID... [--timeout MS] [--format json|jsonl|csv]

Prints the result of each uploaded file, waiting until it is FINALISED or FAILED.

Options:
  --timeout MS       stop waiting after MS (0: answer at once); an unfinished file prints {fileId, status}
  --format FORMAT    json (default; one object for one FILEID, else an array), jsonl or csv
                     (columns file, fileId, status, then each field's value)
  -h, --help         show this help

${REMOTE_ENV_HELP}

Exit status: 0 all FINALISED, 1 one FAILED or unknown, 2 bad usage, 3 still in progress when --timeout passed.
`;

async function resultOf(client: DocsiftClient, fileId: string, deadlineMs: number | undefined): Promise<Outcome> {
  try {
    return await client.waitForResult(fileId, { deadlineMs });
  } catch (err) {
    if (err instanceof DocsiftWaitTimeoutError) return { fileId, status: err.lastStatus };
    return failedOutcome(asApiError(err), { fileId });
  }
}

export function run(argv: string[]): Promise<number> {
  return runRemote(HELP, async () => {
    const line = commandLineOrHelp(argv, HELP, { timeout: { type: "string" }, format: { type: "string" } });
    if (line === null) return 0;
    const { values, positionals: fileIds } = line;
    if (fileIds.length === 0) throw new UsageError("Name the FILEID of an upload receipt.");
    const format = parseFormat(values.format);
    const deadlineMs = integerOption("--timeout", values.timeout, 0);
    const client = clientFromEnv();
    const tasks = fileIds.map((id) => () => resultOf(client, id, deadlineMs));
    // One FILEID in json prints the result object itself, as the API answers it.
    const outcomes =
      format === "json" && fileIds.length === 1
        ? await printOutcomes(tasks, 1, "json-object")
        : await printOutcomes(tasks, 8, format);
    return exitCodeOf(outcomes, "FINALISED");
  });
}
