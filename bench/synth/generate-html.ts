/**
 * CLI: writes a seeded corpus of the HTML invoices of render-html.ts, printed to PDF by Debian's Chromium.
 *   npm run bench:synth-html -- --out bench/out/synth-html --count 60 --seed 21 [--scans] [--layout NAME]
 * --layout draws every document in one family of render-html.ts (hosted, cloud, letter, tax-invoice, receipt, template,
 * marketplace); without it each seed draws its family ("template" and "marketplace" only ever come from --layout).
 * Output: digital/NNNN.pdf + digital/labels.jsonl (and with --scans, scan/NNNN.jpg|pdf + scan/labels.jsonl made by
 * scan.ts), in the dev corpora's format plus "locale", "pages" and "layout". The HTML is a pure function of the seed;
 * the PDF bytes depend on the Chromium version (its text layer is what is being tested), not on the clock.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { corpusPlan } from "./corpus.js";
import { HTML_LAYOUTS, type HtmlLayout, htmlInvoice } from "./render-html.js";
import { degradeToScan } from "./scan.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: "string", default: "bench/out/synth-html" },
      count: { type: "string", default: "60" },
      seed: { type: "string", default: "21" },
      scans: { type: "boolean", default: false },
      layout: { type: "string" },
    },
  });
  const count = Number(values.count);
  const seed = Number(values.seed);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) {
    throw new Error("--count and --seed must be integers");
  }
  const only = values.layout as HtmlLayout | undefined;
  if (only !== undefined && !HTML_LAYOUTS.includes(only)) {
    throw new Error(`--layout must be one of ${HTML_LAYOUTS.join(", ")}`);
  }
  const digitalDir = join(values.out, "digital");
  await mkdir(digitalDir, { recursive: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  const started = Date.now();
  const docs: Array<{ name: string; pdf: Uint8Array; line: Record<string, unknown>; seed: number }> = [];
  try {
    const page = await browser.newPage();
    for (const entry of corpusPlan(seed, count, 1)) {
      const doc = htmlInvoice(entry.seed, only);
      await page.setContent(doc.html, { waitUntil: "load" });
      const pdf = await page.pdf({ format: doc.paper, printBackground: true, margin: { bottom: "12mm" } });
      const name = String(entry.index + 1).padStart(4, "0");
      await writeFile(join(digitalDir, `${name}.pdf`), pdf);
      const pages = (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
      docs.push({
        name,
        pdf,
        seed: entry.seed,
        line: { product: "invoices", locale: doc.locale, pages, layout: doc.layout, fields: doc.labels },
      });
    }
  } finally {
    await browser.close();
  }
  const jsonl = (ext: (d: (typeof docs)[number]) => string) =>
    `${docs.map((d) => JSON.stringify({ file: `${d.name}.${ext(d)}`, ...d.line })).join("\n")}\n`;
  await writeFile(
    join(digitalDir, "labels.jsonl"),
    jsonl(() => "pdf"),
  );
  process.stderr.write(
    `digital: ${docs.length} documents in ${((Date.now() - started) / 1000).toFixed(1)} s -> ${digitalDir}\n`,
  );
  if (!values.scans) return;
  const scanDir = join(values.out, "scan");
  await mkdir(scanDir, { recursive: true });
  const formats = new Map<string, string>();
  for (const d of docs) {
    const scan = await degradeToScan(d.pdf, d.seed);
    formats.set(d.name, scan.format);
    await writeFile(join(scanDir, `${d.name}.${scan.format}`), scan.bytes);
  }
  await writeFile(
    join(scanDir, "labels.jsonl"),
    jsonl((d) => formats.get(d.name) ?? "jpg"),
  );
  process.stderr.write(`scan: ${docs.length} documents -> ${scanDir}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
