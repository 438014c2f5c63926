/**
 * `docsift files list|get|download|delete`: the uploaded files of a running service, as the tenant of the
 * credentials sees them (GET /files, GET /files/:id, GET /files/:id/original, DELETE /files/:id).
 */
import { writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { DocsiftApiError, type DocsiftClient, type FileInfo } from "../client/index.js";
import { choiceOption, integerOption, parseCommandLine, UsageError } from "./args.js";
import { printJsonLine, REMOTE_ENV_HELP, runRemoteAction } from "./remote-client.js";

const HELP = `Usage: docsift files list [--status S] [--tag TAG] [--since TIME] [--limit N]
       docsift files get FILEID...
       docsift files download FILEID [--out PATH]
       docsift files delete FILEID...

The files uploaded by your tenant.

  list       one JSON line per file, newest first: fileId, fileName, status, uploadedAt, finalisedAt, pages,
             tags, workflowId, parentId, parentDocId, children
             --status S     RECEIVED, IN PROGRESS, FINALISED or FAILED
             --tag TAG      files carrying this tag
             --since TIME   uploaded at or after (ISO 8601, e.g. 2024-06-01)
             --limit N      at most N files (default: all)
  get        prints each file's description as JSON
  download   writes the uploaded bytes to PATH (default: the file's name, in the current directory; an existing
             file is not overwritten) and prints {fileId, path, contentType, bytes}
  delete     deletes each file with its result, review tasks and (split) sub-documents; prints
             {fileId, deleted}, deleted false when there was no such file (already deleted)

  -h, --help   show this help

${REMOTE_ENV_HELP}

Exit status: 0 done, 1 a file is unknown (get, download) or a request failed, 2 bad usage.
`;

const STATUSES = ["RECEIVED", "IN PROGRESS", "FINALISED", "FAILED"] as const;

async function list(client: DocsiftClient, argv: string[]): Promise<number> {
  const { values } = parseCommandLine(argv, {
    status: { type: "string" },
    tag: { type: "string" },
    since: { type: "string" },
    limit: { type: "string" },
  });
  const limit = integerOption("--limit", values.limit, 1);
  if (values.since !== undefined && Number.isNaN(Date.parse(values.since))) {
    throw new UsageError(`--since must be an ISO 8601 date or time, not "${values.since}"`);
  }
  let printed = 0;
  const files: AsyncGenerator<FileInfo> = client.files({
    status: choiceOption("--status", values.status, STATUSES),
    tag: values.tag,
    since: values.since,
    limit: limit === undefined ? undefined : Math.min(limit, 200),
  });
  for await (const file of files) {
    if (limit !== undefined && printed >= limit) break;
    printJsonLine(file);
    printed++;
  }
  return 0;
}

/** Runs `step` for each id; a file the service does not know is reported and makes the exit status 1. */
async function eachFile(ids: string[], step: (id: string) => Promise<unknown>): Promise<number> {
  if (ids.length === 0) throw new UsageError("Name at least one FILEID.");
  let code = 0;
  for (const id of ids) {
    try {
      printJsonLine(await step(id));
    } catch (err) {
      if (!(err instanceof DocsiftApiError && err.code === "not_found")) throw err;
      printJsonLine({ fileId: id, ...err.toJSON() });
      code = 1;
    }
  }
  return code;
}

async function download(client: DocsiftClient, argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, { out: { type: "string" } }, true);
  if (positionals.length !== 1) throw new UsageError("Name exactly one FILEID to download.");
  return eachFile(positionals, async (fileId) => {
    const original = await client.original(fileId);
    // The service's name is the uploader's: only its base name is used, never a path it might hold.
    const path = values.out ?? join(".", basename(original.fileName) || fileId);
    await writeFile(path, original.bytes, { flag: values.out === undefined ? "wx" : "w" });
    return { fileId, path, contentType: original.contentType, bytes: original.bytes.byteLength };
  });
}

export function run(argv: string[]): Promise<number> {
  return runRemoteAction(HELP, argv, {
    list,
    get: (client, rest) => eachFile(parseCommandLine(rest, {}, true).positionals, (id) => client.file(id)),
    download,
    delete: (client, rest) =>
      eachFile(parseCommandLine(rest, {}, true).positionals, async (id) => ({
        fileId: id,
        deleted: await client.deleteFile(id),
      })),
  });
}
