/** Copies of a labels file's PDFs without their attachments, for scoring what the page itself gives. */
import { execFile } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { mapConcurrent } from "../src/ingest/concurrency.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/**
 * A copy of each PDF of the labels without its attachments, the new root: `qpdf --empty --pages` copies the pages as
 * they are (content streams, fonts, text layers) into a new document, whose catalog names no embedded file. Not
 * `pdftocairo -pdf`, which re-renders: its copies map a hyphen's glyph to U+00AD, so their minus signs and ids'
 * hyphens read differently from the PDF users upload.
 */
export async function stripAttachments(labels: readonly { file: string }[], root: string): Promise<string> {
  const out = join(REPO, "bench/out/stripped", basename(root));
  await mkdir(out, { recursive: true });
  await mapConcurrent(labels, 2, async (label) => {
    if (!/\.pdf$/i.test(label.file)) return;
    await mkdir(dirname(join(out, label.file)), { recursive: true });
    await promisify(execFile)("qpdf", ["--empty", "--pages", resolve(root, label.file), "--", join(out, label.file)]);
  });
  return out;
}
