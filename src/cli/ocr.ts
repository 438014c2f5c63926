import { readFile } from "node:fs/promises";
import { DocsiftError } from "../domain/errors.js";
import { createOcrEngine, ingest } from "../ingest/index.js";
import { createDefaultOcrEngine } from "../ingest/ocr/factory.js";
import { ocrConfig } from "../runtime/config.js";
import { choiceOption, commandLineOrHelp, integerOption, UsageError } from "./args.js";

const HELP = `Usage: docsift ocr FILE [options]

Prints the Document read from FILE (PDF, PNG or JPG) as JSON: pages with their size and words with boxes
(page ratios, origin top-left), the source of each page (text layer or OCR), and lines in reading order. A page
scanned sideways or upside down is given upright, with the clockwise turn that made it upright (90, 180 or 270) in
its "rotation".

Options:
  --engine tesseract-cli|tesseract-js|paddle
                         this one OCR engine alone, as it reads (no fallback, re-reading or orientation); default:
                         the service's engine (DOCSIFT_OCR_ENGINE, else the tesseract CLI when installed)
  --concurrency N        pages processed at once (default: number of cores)
  --pretty               indent the JSON
  -h, --help             show this help

Exit status 0 on success; 1 with {"error": code, "message"} on stderr when the file cannot be read; 2 bad usage.
`;

export async function run(argv: string[]): Promise<number> {
  const line = commandLineOrHelp(argv, HELP, {
    engine: { type: "string" },
    concurrency: { type: "string" },
    pretty: { type: "boolean", default: false },
  });
  if (line === null) return 0;
  const { values, positionals } = line;
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError("name exactly one FILE");
  const engine = choiceOption("--engine", values.engine, ["tesseract-cli", "tesseract-js", "paddle"]);
  const concurrency = integerOption("--concurrency", values.concurrency, 1);

  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new DocsiftError("not_found", `Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? err}`);
  }
  const settings = ocrConfig();
  const ocr = engine ? createOcrEngine(engine, settings.pageTimeoutMs) : createDefaultOcrEngine(settings);
  try {
    const document = await ingest(bytes, { ocr, concurrency });
    process.stdout.write(`${JSON.stringify(document, null, values.pretty ? 2 : undefined)}\n`);
    return 0;
  } finally {
    // tesseract.js worker threads would otherwise keep the process alive until they idle out.
    await ocr.close?.();
  }
}
