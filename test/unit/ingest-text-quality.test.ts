import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isUsableTextLayer } from "../../src/ingest/text-quality.js";

describe("isUsableTextLayer", () => {
  it("trusts ordinary text in any script", () => {
    assert.ok(isUsableTextLayer("Rechnung Nr. 471102 vom 05.03.2018 Gesamtbetrag 529,87 €"));
    assert.ok(isUsableTextLayer("Facture n° 2024-17 — Total TTC : 1 234,50 €"));
    assert.ok(isUsableTextLayer("Page 1"));
  });

  it("rejects an empty or whitespace-only layer (scans)", () => {
    assert.equal(isUsableTextLayer(""), false);
    assert.equal(isUsableTextLayer("  \n\t "), false);
  });

  it("rejects fonts without a Unicode map: private-use, control and replacement characters", () => {
    assert.equal(isUsableTextLayer("\uE001\uE002\uE003 \uE004\uE005 12"), false);
    assert.equal(isUsableTextLayer("\u0001\u0002\u0003\u0004 \u0005"), false);
    assert.equal(isUsableTextLayer("\uFFFD\uFFFD\uFFFD ab \uFFFD\uFFFD"), false);
  });

  it("rejects long runs of punctuation that stand for glyph ids", () => {
    assert.equal(isUsableTextLayer('!"#$%&\'()*+ ,-./:;<=>?@[]^_`{|}~ !"#$%&'), false);
  });
});
