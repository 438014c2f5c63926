/**
 * `npm run bench:ingest`: ingest speed against the tools it wraps, measured in the same run on the same pages.
 *   (a) a born-digital page: ingest (pdfjs text layer) vs `pdftotext -bbox-layout`     target <= 3x
 *   (b) a 200 dpi scanned page: ingest (render + OCR) vs bare `tesseract` on its PNG     target <= 1.15x
 *   (c) a 16-page scanned PDF vs 16 x one page / cores                                   target <= 1.1x
 * Prints ms per page, min and median over repeated runs. Options: --runs N (text runs; OCR runs are N/4),
 * --engine tesseract-cli|tesseract-js. A benchmark, not a test: it reports and exits 0.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createOcrEngine, ingest } from "../src/ingest/index.js";
import { makeImagePdf, makeTextPdf, SAMPLE_LINES, scanAsJpeg, type TextLine } from "../test/helpers/pdf-fixtures.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "20" }, engine: { type: "string" } } });
const runs = Math.max(4, Number(values.runs));
const engineKind = values.engine === "tesseract-js" ? "tesseract-js" : "tesseract-cli";
const cores = availableParallelism();

interface Stats {
  min: number;
  median: number;
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { min: sorted[0]!, median };
}

async function sample(n: number, fn: () => Promise<unknown>): Promise<Stats> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return stats(times);
}

/** Alternates the two contenders run by run, so load from other processes hits both alike. */
async function duel(n: number, ours: () => Promise<unknown>, theirs: () => Promise<unknown>): Promise<[Stats, Stats]> {
  await ours();
  await theirs();
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < n; i++) {
    for (const [fn, out] of [
      [ours, a],
      [theirs, b],
    ] as const) {
      const started = performance.now();
      await fn();
      out.push(performance.now() - started);
    }
  }
  return [stats(a), stats(b)];
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "ignore"], env });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}`))));
  });
}

function row(label: string, ours: Stats, theirs: Stats, theirLabel: string, target: number): string {
  const ratio = ours.median / theirs.median;
  const verdict = ratio <= target ? "ok" : "OVER";
  return [
    `${label}`,
    `  docsift      min ${ours.min.toFixed(1).padStart(8)} ms   median ${ours.median.toFixed(1).padStart(8)} ms/page`,
    `  ${theirLabel.padEnd(12)} min ${theirs.min.toFixed(1).padStart(8)} ms   median ${theirs.median.toFixed(1).padStart(8)} ms/page`,
    `  ratio (median) ${ratio.toFixed(2)}x   min ${(ours.min / theirs.min).toFixed(2)}x   target <= ${target}x  ${verdict}`,
  ].join("\n");
}

/** An invoice-dense page: the sample lines plus a 30-row item table. */
function denseLines(): TextLine[] {
  const items = Array.from({ length: 30 }, (_, i) => [
    { text: `${i + 1} Article ${1000 + i} description of goods`, x: 60, y: 440 - i * 13, size: 9 },
    { text: `${(i * 7.35 + 3).toFixed(2)} EUR`, x: 470, y: 440 - i * 13, size: 9 },
  ]).flat();
  return [...SAMPLE_LINES, ...items];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "docsift-bench-"));
  const engine = createOcrEngine(engineKind);
  try {
    const { bytes: textPdf } = await makeTextPdf([denseLines()]);
    const textFile = join(dir, "text.pdf");
    writeFileSync(textFile, textPdf);
    const scan = await scanAsJpeg(textPdf, 1, 200);
    const scannedPdf = await makeImagePdf([scan]);
    // Bare tesseract reads the same page as a 200 dpi greyscale PNG, the way a user would feed it.
    const pagePng = join(dir, "page");
    writeFileSync(join(dir, "scan.pdf"), scannedPdf);
    await run("pdftoppm", ["-r", "200", "-gray", "-png", "-singlefile", join(dir, "scan.pdf"), pagePng]);
    const tesseractArgs = [`${pagePng}.png`, "stdout", "-l", "eng", "--psm", "6", "-c", "tessedit_create_tsv=1"];

    console.log(`docsift ingest benchmark: ${cores} cores, OCR engine ${engine.name}, ${runs} text runs\n`);

    const [textOurs, textTheirs] = await duel(
      runs,
      () => ingest(textPdf),
      () => run("pdftotext", ["-bbox-layout", textFile, join(dir, "out.html")]),
    );
    console.log(row("(a) born-digital page (text layer)", textOurs, textTheirs, "pdftotext", 3));

    const ocrRuns = Math.max(3, Math.round(runs / 4));
    const [ocrOurs, ocrTheirs] = await duel(
      ocrRuns,
      () => ingest(scannedPdf, { ocr: engine }),
      () => run("tesseract", tesseractArgs, { ...process.env, OMP_THREAD_LIMIT: "1" }),
    );
    console.log(
      `\n${row("(b) 200 dpi scanned page (render + OCR)", ocrOurs, ocrTheirs, "tesseract", 1.15)}` +
        "\n  (bare tesseract with OMP_THREAD_LIMIT=1, as ingest runs it: pages are parallel, not threads)",
    );
    const bareDefault = await sample(ocrRuns, () => run("tesseract", tesseractArgs));
    console.log(
      `  bare tesseract with its default threads: min ${bareDefault.min.toFixed(1)} ms, median ${bareDefault.median.toFixed(1)} ms`,
    );

    const sixteen = await makeImagePdf(Array.from({ length: 16 }, () => scan));
    const whole = await sample(Math.max(1, Math.round(ocrRuns / 3)), () => ingest(sixteen, { ocr: engine }));
    const budget = (16 * ocrOurs.median) / cores;
    console.log(
      `\n(c) 16-page scanned PDF, pages in parallel on ${cores} cores\n` +
        `  docsift      min ${whole.min.toFixed(0)} ms   median ${whole.median.toFixed(0)} ms  (${(whole.median / 16).toFixed(0)} ms/page)\n` +
        `  16 x one page / cores = ${budget.toFixed(0)} ms\n` +
        `  ratio (median) ${(whole.median / budget).toFixed(2)}x   target <= 1.1x  ${whole.median / budget <= 1.1 ? "ok" : "OVER"}`,
    );
  } finally {
    await engine.close?.();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
