import { execFile, spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { DocsiftError } from "../../domain/errors.js";
import { trackChild } from "./child-processes.js";
import { DEFAULT_PAGE_TIMEOUT_MS, type OcrEngine, type OcrResult, PAGE_SEGMENTATION_MODE } from "./engine.js";
import { readInPageLanguage } from "./languages.js";
import { parseTesseractTsv } from "./tsv.js";

const BINARY = "tesseract";

/** Whether the tesseract binary is in one of `searchPath`'s directories (PATH; checked without running it). */
export function tesseractOnPath(searchPath: string): boolean {
  return searchPath.split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, BINARY), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Environment of every tesseract run, as the process has it at the time (PATH and TESSDATA_PREFIX may change), with
 * OMP_THREAD_LIMIT=1 as pages already run in parallel (createTesseractCli).
 */
const tesseractEnv = (): NodeJS.ProcessEnv => ({ ...process.env, OMP_THREAD_LIMIT: "1" });

/**
 * The language models the binary has (`tesseract --list-langs`, asked once per engine and only when a page wants
 * a second language); none when it cannot say, so pages then keep their English reading.
 */
export function installedLanguages(): Promise<ReadonlySet<string>> {
  return new Promise((resolve) => {
    execFile(BINARY, ["--list-langs"], { env: tesseractEnv(), timeout: 10_000 }, (err, stdout) => {
      // The first line names the tessdata folder; each further line is one model.
      resolve(
        new Set(
          err
            ? []
            : stdout
                .split("\n")
                .slice(1)
                .map((l) => l.trim())
                .filter(Boolean),
        ),
      );
    });
  });
}

/**
 * The tesseract CLI, one process per reading with the page image on stdin and TSV on stdout; a page in another
 * language than English is read twice (languages.ts). It runs in this process's environment (tesseract's own
 * TESSDATA_PREFIX and the like pass on), plus OMP_THREAD_LIMIT=1: pages already run in parallel, and tesseract's own
 * OpenMP threads would only contend with them.
 */
export function createTesseractCli(pageTimeoutMs = DEFAULT_PAGE_TIMEOUT_MS): OcrEngine {
  let languages: Promise<ReadonlySet<string>> | undefined;
  return {
    name: "tesseract-cli",
    recognise: (image, signal) =>
      readInPageLanguage(
        (models) => runTesseract(image, models, pageTimeoutMs, signal),
        () => {
          languages ??= installedLanguages();
          return languages;
        },
      ),
  };
}

/**
 * The CLI's arguments for one reading of a page image on stdin with the `-l` models given, TSV on stdout. Without
 * tesseract's second reading of each doubtful line as white on black (tessedit_do_invert, on by default in tesseract
 * 5): on 24 receipt photos (12 of receipts-dev, 12 of receipts-train) it took 6 % of tesseract's CPU (1148 -> 1074 ms
 * per page), and with the line re-reader after it (bench/ocr-variants.ts, crop-reread against crop-noinvert-reread)
 * receipts-train's first 60, out of sample, read F1 0.825 -> 0.834 (names present 0.68 -> 0.70, the rest the same),
 * receipts-dev's 120 0.873 -> 0.867 (names present 0.80 -> 0.79, the rest the same).
 */
export function tesseractArgs(models: string): string[] {
  return [
    "stdin",
    "stdout",
    "-l",
    models,
    "--psm",
    PAGE_SEGMENTATION_MODE,
    "-c",
    "tessedit_do_invert=0",
    "-c",
    "tessedit_create_tsv=1",
  ];
}

/** One reading of a page image with the `-l` models given (`eng`, `deu+eng`). */
export function runTesseract(
  image: Buffer,
  models: string,
  timeoutMs = DEFAULT_PAGE_TIMEOUT_MS,
  signal?: AbortSignal,
): Promise<OcrResult> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const child = spawn(BINARY, tesseractArgs(models), { env: tesseractEnv(), stdio: ["pipe", "pipe", "pipe"] });
    trackChild(child);
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let failure: unknown;
    const stop = (reason: unknown): void => {
      failure ??= reason;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(
      () => stop(new DocsiftError("timeout", `OCR of a page took longer than ${timeoutMs} ms and was stopped.`)),
      timeoutMs,
    );
    const onAbort = (): void => stop(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    // tesseract may exit before reading all of stdin (killed, bad image): the resulting EPIPE is not the error.
    child.stdin.on("error", () => undefined);
    child.stdin.end(image);
    child.on("error", (err: NodeJS.ErrnoException) =>
      stop(new DocsiftError("ocr_failed", `Could not run ${BINARY} (${err.code ?? err.message}).`, { cause: err })),
    );
    child.on("close", (code, killedBy) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (failure !== undefined) return reject(failure);
      if (code !== 0) {
        const detail = Buffer.concat(stderr).toString("utf8").trim().split("\n").slice(-1)[0] ?? "";
        const how = killedBy ? `killed by ${killedBy}` : `exit ${code}`;
        return reject(new DocsiftError("ocr_failed", `OCR failed (tesseract ${how}): ${detail.slice(0, 200)}`));
      }
      try {
        resolve(parseTesseractTsv(Buffer.concat(stdout).toString("utf8")));
      } catch (err) {
        reject(err);
      }
    });
  });
}
