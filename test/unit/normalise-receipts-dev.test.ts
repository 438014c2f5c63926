import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { parseAmount } from "../../src/extract/normalise/amount.js";
import { parseDate } from "../../src/extract/normalise/date.js";
import { localeHints } from "../../src/extract/normalise/locale.js";

/** The real receipt corpus next to the repository (see ../shared/data/README.md); its "printed" keys keep the paper text. */
const LABELS = fileURLToPath(new URL("../../../shared/data/receipts-dev/labels.jsonl", import.meta.url));

interface Receipt {
  file: string;
  fields: Record<string, string>;
  printed?: Record<string, string>;
}

function receipts(): Receipt[] {
  return readFileSync(LABELS, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Receipt);
}

describe("normalisers on the printed values of receipts-dev", {
  skip: existsSync(LABELS) ? false : `${LABELS} absent`,
}, () => {
  it("every printed date parses to its label, with and without the Malaysian locale", () => {
    let checked = 0;
    for (const receipt of receipts()) {
      const printed = receipt.printed?.date;
      const expected = receipt.fields["receipt.date"];
      if (printed === undefined || printed === "" || expected === undefined) continue;
      assert.equal(parseDate(printed, {})?.iso, expected, `${receipt.file}: ${printed}`);
      assert.equal(parseDate(printed, localeHints("ms-MY"))?.iso, expected, `${receipt.file}: ${printed}`);
      checked++;
    }
    assert.ok(checked >= 100, `only ${checked} printed dates`);
  });

  it("every printed total parses to its label", () => {
    let checked = 0;
    for (const receipt of receipts()) {
      const printed = receipt.printed?.total;
      const expected = receipt.fields["receipt.total"];
      if (printed === undefined || printed === "" || expected === undefined) continue;
      assert.equal(parseAmount(printed, localeHints("ms-MY"))?.text, expected, `${receipt.file}: ${printed}`);
      checked++;
    }
    assert.ok(checked >= 100, `only ${checked} printed totals`);
  });
});
