import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildLayout } from "../../src/extract/layout.js";
import { merchant } from "../../src/extract/parties.js";
import { type ReceiptRow, receipt } from "../helpers/receipt-document.js";

/** Receipt rows, one left-aligned cell each. */
function rows(...texts: string[]): ReceiptRow[] {
  return texts.map((text) => [[text, 20]]);
}

const TAIL = rows("TEL: 03-8943 3143", "TAX INVOICE", "CASH SALES COUNTER", "BREAD 1 2.50");

function nameOf(...texts: string[]): string | undefined {
  return merchant(buildLayout(receipt([...rows(...texts), ...TAIL]))).name.best?.value;
}

describe("merchant name and the operator behind the shop", () => {
  it("takes the shop's name over the operator named under an owner label on its own row", () => {
    const name = nameOf("BLUE LEAF PAPER HOUSE", "Owned By :", "BLUE LEAF SUPPLY LTD (1135772-K)");
    assert.equal(name, "BLUE LEAF PAPER HOUSE");
  });

  it("takes the shop's name over an operator named after a label on the same row, without joining them", () => {
    assert.equal(nameOf("OLD HARBOUR", "OWN BY: RED LEE SDN BHD", "LOT 5, MAPLE ROAD"), "OLD HARBOUR");
    assert.equal(nameOf("Café Central", "Betrieben von: Huber Gastro GmbH", "Hauptstr. 5"), "Café Central");
  });

  it("takes the operator, without its label, when nothing above reads as a name", () => {
    const name = nameOf("NO. 31G, MAPLE ROAD", "40170 HILLTOWN", "OWNED : BY :", "BLUE LEAF SUPPLY LTD (1135772-K)");
    assert.equal(name, "BLUE LEAF SUPPLY LTD");
    assert.equal(nameOf("12 MAPLE ROAD", "Exploité par - Durand SARL"), "Durand SARL");
    assert.equal(nameOf("12 MAPLE ROAD", "operated by: ACME LTD"), "ACME LTD");
  });
});
