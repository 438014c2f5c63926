import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { detectLanguage } from "../../src/document/language-detect.js";
import { localeHints } from "../../src/extract/normalise/locale.js";

describe("detectLanguage", () => {
  it("names the language of invoice and receipt text", () => {
    const cases: [string, string][] = [
      ["Rechnung Nr. 471102 vom 05.06.2018. Bitte überweisen Sie den Gesamtbetrag innerhalb von 14 Tagen.", "de"],
      ["Facture numéro 471102. Veuillez régler le montant total dans les trente jours suivant la date.", "fr"],
      ["Invoice number 471102. Please pay the total amount within thirty days of the invoice date.", "en"],
      ["Factura número 471102. Por favor pague el importe total dentro de los treinta días siguientes.", "es"],
      ["Factuur nummer 471102. Gelieve het totale bedrag binnen dertig dagen na de factuurdatum te betalen.", "nl"],
      ["Fattura numero 471102. Si prega di pagare l'importo totale entro trenta giorni dalla data.", "it"],
      ["Fatura número 471102. Por favor pague o valor total no prazo de trinta dias a partir da data.", "pt"],
      ["Terima kasih sila datang lagi. Barang yang sudah dibeli tidak boleh dikembalikan atau ditukar.", "ms"],
    ];
    for (const [text, language] of cases) assert.equal(detectLanguage(text), language, text);
  });

  it("returns null for text too short to judge", () => {
    assert.equal(detectLanguage("Total 12.00"), null);
    assert.equal(detectLanguage(""), null);
    assert.equal(detectLanguage("12.00 34.50 2024-04-03 DE89370400440532013000"), null);
  });
});

describe("localeHints", () => {
  it("derives date order and decimal separator from CLDR", () => {
    assert.deepEqual(localeHints("en-US"), { language: "en", country: "US", dateOrder: "MDY", decimalSeparator: "." });
    assert.deepEqual(localeHints("en-AU"), { language: "en", country: "AU", dateOrder: "DMY", decimalSeparator: "." });
    assert.deepEqual(localeHints("en-GB"), { language: "en", country: "GB", dateOrder: "DMY", decimalSeparator: "." });
    assert.deepEqual(localeHints("de-DE"), { language: "de", country: "DE", dateOrder: "DMY", decimalSeparator: "," });
    assert.deepEqual(localeHints("fr-FR"), { language: "fr", country: "FR", dateOrder: "DMY", decimalSeparator: "," });
    assert.deepEqual(localeHints("de-CH"), { language: "de", country: "CH", dateOrder: "DMY", decimalSeparator: "." });
    assert.deepEqual(localeHints("ja-JP"), { language: "ja", country: "JP", dateOrder: "YMD", decimalSeparator: "." });
    assert.deepEqual(localeHints("ms_MY"), { language: "ms", country: "MY", dateOrder: "DMY", decimalSeparator: "." });
  });

  it("leaves the date order to the document for a bare 'en', and knows nothing of unknown tags", () => {
    assert.deepEqual(localeHints("en"), { language: "en", decimalSeparator: "." });
    assert.deepEqual(localeHints("de"), { language: "de", dateOrder: "DMY", decimalSeparator: "," });
    assert.deepEqual(localeHints(undefined), {});
    assert.deepEqual(localeHints(""), {});
    assert.deepEqual(localeHints("xx-YY"), {});
    assert.deepEqual(localeHints("not a tag"), {});
  });
});
