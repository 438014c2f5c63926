import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseCurrency } from "../../src/extract/normalise/currency.js";
import { localeHints } from "../../src/extract/normalise/locale.js";

describe("parseCurrency", () => {
  it("reads ISO codes in upper case, and common ones in lower case", () => {
    assert.equal(parseCurrency("EUR", {}), "EUR");
    assert.equal(parseCurrency("eur", {}), "EUR");
    assert.equal(parseCurrency("(CHF)", {}), "CHF");
    assert.equal(parseCurrency("XYZ", {}), null);
    assert.equal(parseCurrency("all", {}), null, "a lower-case word that happens to be a code");
    assert.equal(
      parseCurrency("ALL", {}),
      null,
      "upper-case words that are also codes are not currencies on their own",
    );
  });

  it("reads unambiguous symbols and local abbreviations", () => {
    const cases: [string, string][] = [
      ["€", "EUR"],
      ["£", "GBP"],
      ["A$", "AUD"],
      ["AU$", "AUD"],
      ["US$", "USD"],
      ["$US", "USD"],
      ["$ CA", "CAD"],
      ["£GB", "GBP"],
      ["JP¥", "JPY"],
      ["R$", "BRL"],
      ["RM", "MYR"],
      ["Fr.", "CHF"],
      ["zł", "PLN"],
      ["Kč", "CZK"],
      ["₹", "INR"],
      ["Rp", "IDR"],
      ["Euro", "EUR"],
      ["Ft", "HUF"],
    ];
    for (const [text, code] of cases) assert.equal(parseCurrency(text, {}), code, text);
  });

  it("resolves shared symbols with the document's country or language", () => {
    assert.equal(parseCurrency("$", {}), "USD");
    assert.equal(parseCurrency("$", localeHints("en-US")), "USD");
    assert.equal(parseCurrency("$", localeHints("en-AU")), "AUD");
    assert.equal(parseCurrency("$", localeHints("en-CA")), "CAD");
    assert.equal(parseCurrency("$", localeHints("en-NZ")), "NZD");
    assert.equal(parseCurrency("$", localeHints("en-SG")), "SGD");
    assert.equal(parseCurrency("$", localeHints("de-DE")), "USD");
    assert.equal(parseCurrency("kr", localeHints("sv-SE")), "SEK");
    assert.equal(parseCurrency("kr", localeHints("nb-NO")), "NOK");
    assert.equal(parseCurrency("kr.", localeHints("da-DK")), "DKK");
    assert.equal(parseCurrency("kr", { language: "da" }), "DKK");
    assert.equal(parseCurrency("kr", {}), null);
    assert.equal(parseCurrency("¥", {}), "JPY");
    assert.equal(parseCurrency("¥", localeHints("zh-CN")), "CNY");
    assert.equal(parseCurrency("Rs", { country: "PK" }), "PKR");
  });

  it("refuses anything that is not one currency mark", () => {
    for (const text of ["", "Total", "EUR 12", "12", "%", "Betrag", "fr", "ft", "AMD"])
      assert.equal(parseCurrency(text, {}), null, text);
  });
});
