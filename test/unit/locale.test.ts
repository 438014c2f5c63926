import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseLocale } from "../../src/api/upload-params.js";
import { DocsiftError } from "../../src/domain/errors.js";
import { canonicalLocale } from "../../src/domain/locale.js";
import { localeHints } from "../../src/extract/normalise/locale.js";

describe("one locale rule", () => {
  it("canonicalises BCP 47 tags, with _ read as -, to BCP 47 case", () => {
    assert.equal(canonicalLocale("de-DE"), "de-DE");
    assert.equal(canonicalLocale("de_DE"), "de-DE");
    assert.equal(canonicalLocale("de-de"), "de-DE");
    assert.equal(canonicalLocale(" en_gb "), "en-GB");
    assert.equal(canonicalLocale("FR"), "fr");
    assert.equal(canonicalLocale("zh_Hant_TW"), "zh-Hant-TW");
  });

  it("refuses what is not a language tag", () => {
    for (const garbage of ["", "  ", "de_DE!", "de DE", "12", "x", "en--GB", "de-DE-"]) {
      assert.equal(canonicalLocale(garbage), null, garbage);
    }
  });

  it("is the rule of the upload parameter", () => {
    assert.equal(parseLocale("de_DE"), "de-DE");
    assert.equal(parseLocale("en-gb"), "en-GB");
    assert.equal(parseLocale(undefined), null);
    assert.equal(parseLocale(" "), null);
    assert.throws(
      () => parseLocale("de_DE!"),
      (err: unknown) => err instanceof DocsiftError && err.code === "bad_request" && /BCP 47/.test(err.message),
    );
  });

  it("is the rule of extraction", () => {
    assert.deepEqual(localeHints("de_DE"), localeHints("de-DE"));
    assert.deepEqual(localeHints("de-DE"), { language: "de", country: "DE", dateOrder: "DMY", decimalSeparator: "," });
    assert.deepEqual(localeHints("de_DE!"), {});
  });
});
