import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { createOcrEngine } from "../../src/ingest/ocr/factory.js";
import { readInPageLanguage } from "../../src/ingest/ocr/languages.js";
import { installedLanguages, runTesseract } from "../../src/ingest/ocr/tesseract-cli.js";
import { pgm } from "../../src/ingest/pgm.js";
import { textPage } from "../helpers/text-page.js";

const GERMAN = [
  "Rechnung Nr. 4711 vom 12. März 2025",
  "Lieferant: Müllermann GmbH, Lieferantenstraße 20, 50667 Köln",
  "Beschreibung der gelieferten Waren und Dienstleistungen",
  "Gesamtbetrag zahlbar innerhalb von 30 Tagen: 1.234,50 EUR",
  "Vielen Dank für Ihren Auftrag. Grüße aus Düsseldorf",
];
const FRENCH = [
  "Facture numéro 2025-118 du 3 février 2025",
  "Fournisseur : Société Générale de Fenêtres, 12 rue de l'Église, Besançon",
  "Désignation des marchandises livrées et des prestations effectuées",
  "Montant total à payer sous trente jours : 1 234,50 EUR",
  "Nous vous remercions de votre confiance. Reçu à Orléans",
];
const ENGLISH = [
  "Invoice number 4711 dated 12 March 2025",
  "Supplier: Northwind Traders Limited, 12 Baker Street, London",
  "Description of the goods delivered and the services rendered",
  "Total amount due within thirty days: 1,234.50 GBP",
  "Thank you for your business and your prompt payment.",
];

/** The page as ingest hands it to OCR: grey PGM. */
async function pagePgm(lines: readonly string[]): Promise<Buffer> {
  const { data, info } = await sharp(await textPage(lines))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return pgm(info.width, info.height, data);
}

const text = (words: readonly { text: string }[]): string => words.map((w) => w.text).join(" ");

/** Each Latin-script page read with its own language's model beside English, and only such pages read twice. */
describe("OCR: the language of each page", () => {
  const pages = new Map<string, Buffer>();
  const js = createOcrEngine("tesseract-js");

  before(async () => {
    pages.set("German", await pagePgm(GERMAN));
    pages.set("French", await pagePgm(FRENCH));
    pages.set("English", await pagePgm(ENGLISH));
  });

  after(async () => {
    await js.close?.();
  });

  /** Models each reading of `page` used, and what the last one read. */
  async function readings(page: Buffer): Promise<{ models: string[]; read: string }> {
    const models: string[] = [];
    const result = await readInPageLanguage((m) => {
      models.push(m);
      return runTesseract(page, m);
    }, installedLanguages);
    return { models, read: text(result.words) };
  }

  it("reads a German page again with German and keeps its umlauts and ß", async () => {
    const { models, read } = await readings(pages.get("German")!);
    assert.deepEqual(models, ["eng", "deu+eng"]);
    for (const word of ["März", "Müllermann", "Lieferantenstraße", "Köln", "für", "Grüße", "Düsseldorf"])
      assert.ok(
        read.split(" ").some((w) => w.replace(/[,.:]$/, "") === word),
        `"${word}" in: ${read}`,
      );
  });

  it("reads a French page again with French and keeps its accents", async () => {
    const { models, read } = await readings(pages.get("French")!);
    assert.deepEqual(models, ["eng", "fra+eng"]);
    for (const word of [
      "numéro",
      "février",
      "Société",
      "Générale",
      "Fenêtres",
      "l'Église",
      "Besançon",
      "Reçu",
      "Orléans",
    ])
      assert.ok(
        read.split(" ").some((w) => w.replace(/[,.:]$/, "") === word),
        `"${word}" in: ${read}`,
      );
  });

  it("reads an English page once, with English alone", async () => {
    const { models, read } = await readings(pages.get("English")!);
    assert.deepEqual(models, ["eng"]);
    assert.match(read, /Northwind Traders Limited/);
  });

  it("the tesseract CLI engine reads the German page's accented words exactly", async () => {
    const read = text((await createOcrEngine("tesseract-cli").recognise(pages.get("German")!)).words);
    for (const word of ["Müllermann", "Lieferantenstraße", "Köln", "Grüße"])
      assert.ok(
        read.split(" ").some((w) => w.replace(/[,.:]$/, "") === word),
        `"${word}" in: ${read}`,
      );
  });

  it("the tesseract.js fallback reads them too, with the models npm ships", async () => {
    const read = text((await js.recognise(pages.get("German")!)).words);
    for (const word of ["Müllermann", "Lieferantenstraße", "Köln", "Grüße"])
      assert.ok(
        read.split(" ").some((w) => w.replace(/[,.:]$/, "") === word),
        `"${word}" in: ${read}`,
      );
  });
});
