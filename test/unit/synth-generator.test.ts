import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { isValidBIC, isValidIBAN } from "ibantools";
import { checkVAT, countries } from "jsvat";
import { PDFDocument } from "pdf-lib";
import { corpusPlan } from "../../bench/synth/corpus.js";
import { generateDocument, headerLabels, type SyntheticDocument } from "../../bench/synth/document.js";
import { writeDate } from "../../bench/synth/format.js";
import {
  australianAbn,
  britishVat,
  dutchVat,
  frenchVat,
  germanVat,
  spanishVat,
  swissUid,
} from "../../bench/synth/ids.js";
import { localeProfile } from "../../bench/synth/locales.js";
import { brandOf } from "../../bench/synth/logo.js";
import { Rng } from "../../bench/synth/prng.js";

const dir = mkdtempSync(join(tmpdir(), "synth-test-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The text layer as poppler sees it, whitespace collapsed. */
function pdfText(doc: SyntheticDocument, name: string): string {
  const path = join(dir, name);
  writeFileSync(path, doc.pdf);
  return execFileSync("pdftotext", ["-raw", path, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
}

const cents = (label: string): number => Math.round(Number(label) * 100);

describe("generateDocument", () => {
  const docs: SyntheticDocument[] = [];
  const plan = corpusPlan(7, 30, 0.6);
  before(async () => {
    for (const entry of plan) docs.push(await generateDocument(entry.seed, entry.kind));
  });

  it("is a pure function of the seed", async () => {
    const again = await generateDocument(plan[3]!.seed, plan[3]!.kind);
    assert.deepEqual(again.labels, docs[3]!.labels);
    assert.deepEqual(Buffer.from(again.pdf), Buffer.from(docs[3]!.pdf));
    const other = await generateDocument(plan[3]!.seed + 1, plan[3]!.kind);
    assert.notDeepEqual(other.labels, docs[3]!.labels);
  });

  it("labels only catalogue fields of the document's product, in normal form", () => {
    for (const d of docs) {
      for (const [k, v] of Object.entries(headerLabels(d))) {
        assert.ok(k.startsWith(d.product === "invoices" ? "" : "receipt."), k);
        if (/date|Date$/.test(k)) assert.match(v, /^\d{4}-\d{2}-\d{2}$/, k);
        if (/(total|subtotal|tax|amountDue)$/.test(k)) assert.match(v, /^-?\d+\.\d{2}$/, k);
        if (k.endsWith("currency")) assert.match(v, /^[A-Z]{3}$/);
        if (k === "receipt.time") assert.match(v, /^\d{2}:\d{2}$/);
      }
    }
  });

  it("keeps the arithmetic and date logic of real invoices", () => {
    const invoices = docs.filter((d) => d.product === "invoices");
    assert.ok(invoices.length >= 15);
    for (const labels of invoices.map(headerLabels)) {
      const sub = cents(labels["invoice.subtotal"]!);
      const tax = cents(labels["invoice.tax"]!);
      const total = cents(labels["invoice.total"]!);
      assert.equal(sub + tax, total);
      if (labels["invoice.amountDue"]) assert.ok(Math.abs(cents(labels["invoice.amountDue"])) <= Math.abs(total));
      if (labels["invoice.dueDate"]) assert.ok(labels["invoice.dueDate"] > labels["invoice.date"]!);
    }
  });

  it("prints every labelled identifier and name in the text layer", () => {
    docs.forEach((d, i) => {
      const text = pdfText(d, `${i}.pdf`);
      const compact = text.replace(/[\s.-]/g, "");
      for (const [k, v] of Object.entries(headerLabels(d))) {
        if (/(number|purchaseOrderNo|reference|bic|bsb|accountNo|\.name|merchantName)$/.test(k)) {
          assert.ok(text.includes(v), `${i} ${k} ${v}`);
        }
        if (/(iban|taxId)$/.test(k)) assert.ok(compact.includes(v), `${i} ${k} ${v}`);
        if (/address$/i.test(k)) for (const part of v.split(", ")) assert.ok(text.includes(part), `${i} ${k} ${part}`);
      }
    });
  });

  it("generates valid tax ids, IBANs and BICs", () => {
    const rng = new Rng(11);
    for (let i = 0; i < 200; i++) {
      for (const vat of [
        germanVat(rng),
        frenchVat(rng),
        dutchVat(rng),
        britishVat(rng),
        spanishVat(rng),
        swissUid(rng),
      ]) {
        assert.equal(checkVAT(vat, countries).isValid, true, vat);
      }
      const abn = australianAbn(rng);
      const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
      const sum = [...abn].reduce((s, ch, j) => s + (Number(ch) - (j === 0 ? 1 : 0)) * weights[j]!, 0);
      assert.equal(sum % 89, 0, abn);
    }
    for (const d of docs) {
      const labels = headerLabels(d);
      if (labels["payment.iban"]) assert.equal(isValidIBAN(labels["payment.iban"]), true, labels["payment.iban"]);
      if (labels["payment.bic"]) assert.equal(isValidBIC(labels["payment.bic"]), true, labels["payment.bic"]);
      if (labels["supplier.taxId"] && d.locale !== "en-AU") {
        assert.equal(checkVAT(labels["supplier.taxId"], countries).isValid, true, labels["supplier.taxId"]);
      }
    }
  });

  it("varies locale, product and page count, and page counts are real", async () => {
    assert.ok(new Set(docs.map((d) => d.locale)).size >= 6);
    assert.ok(docs.some((d) => d.product === "receipts") && docs.some((d) => d.product === "invoices"));
    for (const d of docs) assert.equal((await PDFDocument.load(d.pdf)).getPageCount(), d.pages);
    const long = await generateDocument(9, "invoice", { locale: "en-GB", itemCount: 70 });
    assert.ok(long.pages >= 3);
    assert.match(pdfText(long, "long.pdf"), new RegExp(`(Page )?1 ?(of|/) ?${long.pages}`));
    const bare = await generateDocument(9, "invoice", { locale: "en-GB", itemCount: 70, pageMarkers: false });
    assert.equal(bare.pages, long.pages);
    assert.doesNotMatch(pdfText(bare, "bare.pdf"), new RegExp(`(of|/) ?${long.pages}\\b`));
  });

  it("writes numeric dates in the locale's order, so an ambiguous date's truth follows the locale", () => {
    const writer = { style: "numeric", separator: "/", padded: true, upper: false } as const;
    const date = { y: 2024, m: 3, d: 4 };
    assert.equal(writeDate(date, writer, localeProfile("en-US")), "03/04/2024");
    assert.equal(writeDate(date, writer, localeProfile("en-GB")), "04/03/2024");
    assert.equal(writeDate(date, { ...writer, style: "long" }, localeProfile("fr-FR")), "4 mars 2024");
  });

  it("makes credit notes with negative totals when asked", async () => {
    const d = await generateDocument(5, "invoice", { credit: true, locale: "de-DE" });
    assert.ok(Number(d.labels["invoice.total"]) < 0);
    assert.match(pdfText(d, "credit.pdf"), /GUTSCHRIFT|Gutschrift|Rechnungskorrektur/);
  });

  it("draws a logo as a picture that the text layer does not hold, the labels unchanged", async () => {
    const plain = await generateDocument(11, "invoice", { locale: "de-DE" });
    const logo = await generateDocument(11, "invoice", { locale: "de-DE", logo: true });
    assert.deepEqual(logo.labels, plain.labels);
    const images = (d: SyntheticDocument, name: string): number => {
      const path = join(dir, name);
      writeFileSync(path, d.pdf);
      return execFileSync("pdfimages", ["-list", path], { encoding: "utf8" }).trim().split("\n").length - 2;
    };
    assert.equal(images(plain, "plain.pdf"), 0);
    assert.equal(images(logo, "logo.pdf"), 1);
    // The brand appears as text only where the page prints the name (header and footer), never a third time.
    const brand = brandOf(String(plain.labels["supplier.name"]));
    const count = (text: string): number => text.split(brand).length - 1;
    assert.equal(count(pdfText(logo, "logo.pdf")), count(pdfText(plain, "plain.pdf")));
  });

  it("prints the customer's VAT id under a heading of its own when asked, the supplier's half the time", async () => {
    const seeds = [3, 4, 5, 6, 7, 8, 9, 10];
    let withoutSupplierId = 0;
    for (const seed of seeds) {
      const plain = await generateDocument(seed, "invoice", { locale: "fr-FR" });
      const ids = await generateDocument(seed, "invoice", { locale: "fr-FR", idsColumn: true });
      const text = pdfText(ids, "ids.pdf");
      assert.match(text, /Vos (identifiants|coordonnées|références) [^:\d]{2,20}:? ?FR\d/, `seed ${seed}`);
      const { "supplier.taxId": supplierId, ...rest } = ids.labels;
      const { "supplier.taxId": plainId, ...plainRest } = plain.labels;
      assert.deepEqual(rest, plainRest, "only the supplier's VAT id may change");
      if (supplierId === undefined) withoutSupplierId++;
      else assert.equal(supplierId, plainId);
    }
    assert.ok(withoutSupplierId > 0 && withoutSupplierId < seeds.length, `${withoutSupplierId} of ${seeds.length}`);
  });
});
