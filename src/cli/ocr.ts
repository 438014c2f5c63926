import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { DocsiftError, toErrorBody } from "../domain/errors.js";
import { createOcrEngine, defaultOcrEngine, ingest } from "../ingest/index.js";

const HELP = `Usage: docsift ocr FILE [options]

Prints the Document read from FILE (PDF, PNG or JPG) as JSON: pages with their size and words with boxes
(page ratios, origin top-left), the source of each page (text layer or OCR), and lines in reading order.

Options:
  --engine tesseract-cli|tesseract-js   OCR engine (default: DOCSIFT_OCR_ENGINE, else the CLI when installed)
  --concurrency N                       pages processed at once (default: number of cores)
  --pretty                              indent the JSON
  -h, --help                            show this help

Exit status 0 on success; 1 with {"error": code, "message"} on stderr when the file cannot be read.
`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      engine: { type: "string" },
      concurrency: { type: "string" },
      pretty: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) {
    process.stderr.write(HELP);
    return 2;
  }
  const engine = values.engine;
  if (engine !== undefined && engine !== "tesseract-cli" && engine !== "tesseract-js")
    return fail(new DocsiftError("bad_request", `--engine must be tesseract-cli or tesseract-js, not "${engine}".`));
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency > 0))
    return fail(new DocsiftError("bad_request", "--concurrency must be a positive integer."));

  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    return fail(new DocsiftError("not_found", `Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? err}`));
  }
  const ocr = engine ? createOcrEngine(engine) : defaultOcrEngine();
  try {
    const document = await ingest(bytes, { ocr, concurrency });
    process.stdout.write(`${JSON.stringify(document, null, values.pretty ? 2 : undefined)}\n`);
    return 0;
  } catch (err) {
    return fail(err);
  } finally {
    // tesseract.js worker threads would otherwise keep the process alive until they idle out.
    await ocr.close?.();
  }
}

function fail(err: unknown): number {
  // An unexpected failure's details go to stderr after the JSON line, since its message is deliberately generic.
  if (!(err instanceof DocsiftError)) process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.stderr.write(`${JSON.stringify(toErrorBody(err))}\n`);
  return 1;
}
