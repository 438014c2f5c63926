/**
 * CLI: writes a seeded synthetic corpus.
 *   npm run bench:synth -- --out bench/out/synth --count 500 --seed 1 [--no-scans] [--invoice-share 0.6] [--concurrency N]
 *     [--saas-share P]  (share of invoices drawn in the subscription/SaaS layouts of render-saas.ts; default 0)
 *     [--id-share P]  (share of the other invoices with the number/due-date variants of id-variants.ts; default 0)
 *     [--unsigned-credit-share P]  (share of the other invoices drawn as credit notes printing no sign; default 0)
 *     [--right-window-share P]  (share of the other invoices with the customer's block on the right, unlabelled; default 0)
 *     [--breakdown-share P]  (share of the other invoices with several tax rates and their totals printed as a breakdown
 *     by rate, the sums unlabelled under it; default 0)
 *     [--logo-share P]  (share of the other invoices with a logo picture spelling the supplier's brand above its name,
 *     no text for it on the page: logo.ts; default 0)
 *     [--ids-column-share P]  (share of the other invoices printing the customer's VAT id under a "Your details" /
 *     "Vos identifiants" heading in its column, half of them with no VAT id of the supplier's; default 0)
 *     [--rounding-share P]  (share of the English receipts paid in cash with a payment block of receipt-data.ts PaymentLayout:
 *     the total rounded to the coin after a rounding line, a rounding line under the cash line, or a pay station's
 *     "Accepted total"; default 0)
 *     [--department-share P]  (share of the other invoices printing a department of the customer over its name in its
 *     block: "Accounts Payable", "Buchhaltung", "Service comptabilité"; default 0)
 * Output: digital/NNNN.pdf + digital/labels.jsonl, scan/NNNN.jpg|pdf + scan/labels.jsonl, in the dev corpora's format
 * plus a "locale" key.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { corpusPlan } from "./corpus.js";
import { generateDocument } from "./document.js";
import { Rng } from "./prng.js";
import { degradeToScan } from "./scan.js";

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  });
  await Promise.all(workers);
  return results;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: "string", default: "bench/out/synth" },
      count: { type: "string", default: "500" },
      seed: { type: "string", default: "1" },
      "invoice-share": { type: "string", default: "0.6" },
      "no-scans": { type: "boolean", default: false },
      "saas-share": { type: "string", default: "0" },
      "id-share": { type: "string", default: "0" },
      "unsigned-credit-share": { type: "string", default: "0" },
      "right-window-share": { type: "string", default: "0" },
      "breakdown-share": { type: "string", default: "0" },
      "logo-share": { type: "string", default: "0" },
      "ids-column-share": { type: "string", default: "0" },
      "rounding-share": { type: "string", default: "0" },
      "department-share": { type: "string", default: "0" },
      concurrency: { type: "string", default: String(availableParallelism()) },
    },
  });
  const count = Number(values.count);
  const seed = Number(values.seed);
  const share = Number(values["invoice-share"]);
  const concurrency = Math.max(1, Number(values.concurrency));
  const saasShare = Number(values["saas-share"]);
  const idShare = Number(values["id-share"]);
  const unsignedShare = Number(values["unsigned-credit-share"]);
  const rightWindowShare = Number(values["right-window-share"]);
  const breakdownShare = Number(values["breakdown-share"]);
  const logoShare = Number(values["logo-share"]);
  const idsColumnShare = Number(values["ids-column-share"]);
  const roundingShare = Number(values["rounding-share"]);
  const departmentShare = Number(values["department-share"]);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed) || !(share >= 0 && share <= 1)) {
    throw new Error("--count and --seed must be integers, --invoice-share within 0..1");
  }
  const digitalDir = join(values.out, "digital");
  const scanDir = join(values.out, "scan");
  await mkdir(digitalDir, { recursive: true });
  const plan = corpusPlan(seed, count, share);
  const started = Date.now();
  const docs = await mapLimit(plan, concurrency, async (entry) => {
    // The SaaS layouts (render-saas.ts) for a share of the invoices, decided by the seed alone.
    const saas = entry.kind === "invoice" && new Rng(entry.seed ^ 0x5a5a5a).float(0, 1) < saasShare;
    // Number and due-date variants (id-variants.ts) for a share of the other invoices, decided by the seed alone.
    const idVariants = entry.kind === "invoice" && !saas && new Rng(entry.seed ^ 0x1d1d1d).float(0, 1) < idShare;
    // Credit notes that print every figure without a sign, for a share of the other invoices.
    const unsignedCredit =
      entry.kind === "invoice" && !saas && new Rng(entry.seed ^ 0xc4ed17).float(0, 1) < unsignedShare;
    // The customer's block on the right, unlabelled, for a share of the other invoices.
    const rightWindow =
      entry.kind === "invoice" && !saas && new Rng(entry.seed ^ 0x819e7).float(0, 1) < rightWindowShare;
    // Several tax rates and a breakdown of the totals by rate, for a share of the other invoices.
    const breakdown = entry.kind === "invoice" && !saas && new Rng(entry.seed ^ 0xb7ea4d).float(0, 1) < breakdownShare;
    // A logo picture spelling the supplier's brand above its name, for a share of the other invoices.
    const logo = entry.kind === "invoice" && !saas && new Rng(entry.seed ^ 0x10605).float(0, 1) < logoShare;
    // The customer's VAT id under a heading of its own in its column, for a share of the other invoices.
    const idsColumn = entry.kind === "invoice" && !saas && new Rng(entry.seed ^ 0x1d5c0).float(0, 1) < idsColumnShare;
    // A department of the customer over its name in its block, for a share of the other invoices.
    const department = entry.kind === "invoice" && !saas && new Rng(entry.seed ^ 0xde9a4).float(0, 1) < departmentShare;
    // A payment block rounding cash to the coin, or a pay station's, for a share of the receipts.
    const payment = entry.kind === "receipt" && new Rng(entry.seed ^ 0x20d1).float(0, 1) < roundingShare;
    const doc = await generateDocument(entry.seed, entry.kind, {
      ...(saas ? { saas } : {}),
      ...(idVariants ? { idVariants } : {}),
      ...(unsignedCredit ? { unsignedCredit } : {}),
      ...(rightWindow ? { rightWindow } : {}),
      ...(breakdown ? { breakdown } : {}),
      ...(logo ? { logo } : {}),
      ...(idsColumn ? { idsColumn } : {}),
      ...(payment ? { payment } : {}),
      ...(department ? { department } : {}),
    });
    const name = `${String(entry.index + 1).padStart(4, "0")}`;
    await writeFile(join(digitalDir, `${name}.pdf`), doc.pdf);
    return { entry, name, doc };
  });
  const line = (file: string, d: (typeof docs)[number]["doc"]): string =>
    JSON.stringify({ file, product: d.product, locale: d.locale, pages: d.pages, fields: d.labels });
  await writeFile(join(digitalDir, "labels.jsonl"), `${docs.map((d) => line(`${d.name}.pdf`, d.doc)).join("\n")}\n`);
  const pages = docs.reduce((s, d) => s + d.doc.pages, 0);
  const multi = docs.filter((d) => d.doc.pages > 1).length;
  process.stderr.write(
    `digital: ${docs.length} documents (${pages} pages, ${multi} multi-page) in ${((Date.now() - started) / 1000).toFixed(1)} s -> ${digitalDir}\n`,
  );
  if (values["no-scans"]) return;

  await mkdir(scanDir, { recursive: true });
  const scanStarted = Date.now();
  const scans = await mapLimit(docs, concurrency, async (d) => {
    const scan = await degradeToScan(d.doc.pdf, d.entry.seed);
    const file = `${d.name}.${scan.format}`;
    await writeFile(join(scanDir, file), scan.bytes);
    return line(file, d.doc);
  });
  await writeFile(join(scanDir, "labels.jsonl"), `${scans.join("\n")}\n`);
  process.stderr.write(
    `scan: ${scans.length} documents in ${((Date.now() - scanStarted) / 1000).toFixed(1)} s -> ${scanDir}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
