import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document } from "../../src/document/model.js";
import { buildLayout } from "../../src/extract/layout.js";
import { merchant } from "../../src/extract/parties.js";
import { type ReceiptRow, receipt } from "../helpers/receipt-document.js";

/** A receipt whose words are read with 0.95, except the words listed with the confidence OCR gave them. */
function withDoubtfulWords(rows: readonly ReceiptRow[], doubtful: ReadonlyMap<string, number>): Document {
  const doc = receipt(rows);
  for (const word of doc.pages[0]?.words ?? []) word.confidence = doubtful.get(word.text) ?? word.confidence;
  return doc;
}

const TAIL: ReceiptRow[] = [[["NO. 42, MAPLE ROAD 14/11", 20]], [["43300 HILLTOWN", 20]], [["TEL: 03-8943 3143", 20]]];

describe("merchant header rows with logo fragments", () => {
  it("drops doubtful segments and lone characters at the end of the name's row", () => {
    const rows: ReceiptRow[] = [
      [
        ["FY EAGLE ENTERPRISE", 20],
        ["T", 200],
        ["R", 230],
        ["=", 260],
        ["Q", 290],
        ["4", 320],
      ],
      ...TAIL,
    ];
    const doc = withDoubtfulWords(
      rows,
      new Map([
        ["T", 0.37],
        ["R", 0.68],
        ["=", 0.51],
        ["Q", 0.63],
        ["4", 0.23],
      ]),
    );
    assert.equal(merchant(buildLayout(doc)).name.best?.value, "FY EAGLE ENTERPRISE");
  });

  it("drops a tail of spaced-out letters beside the name, however surely read, and keeps a spaced-out name", () => {
    const stamp: ReceiptRow[] = [
      [
        ["FY EAGLE ENTERPRISE", 20],
        ...["F", "T", "E", "3", "R", "SE"].map((text, i): [string, number] => [text, 200 + 36 * i]),
      ],
      ...TAIL,
    ];
    assert.equal(merchant(buildLayout(receipt(stamp))).name.best?.value, "FY EAGLE ENTERPRISE");
    const spaced: ReceiptRow[] = [
      ["T", "E", "S", "C", "O"].map((text, i): [string, number] => [text, 20 + 36 * i]),
      ...TAIL,
    ];
    assert.equal(merchant(buildLayout(receipt(spaced))).name.best?.value, "T E S C O");
  });

  it("drops a doubtful segment before the name, and keeps a doubtful one between two read well", () => {
    const rows: ReceiptRow[] = [
      [
        ["Bae", 20],
        ["SUNNY REST AREA", 120],
      ],
      [
        ["NO. 42, MAPLE", 20],
        ["ROAD", 180],
        ["43300 HILLTOWN", 260],
      ],
      [["TEL: 03-8943 3143", 20]],
    ];
    const doc = withDoubtfulWords(
      rows,
      new Map([
        ["Bae", 0.27],
        ["ROAD", 0.3],
      ]),
    );
    const { name, address } = merchant(buildLayout(doc));
    assert.equal(name.best?.value, "SUNNY REST AREA");
    assert.equal(address.best?.value, "NO. 42, MAPLE ROAD 43300 HILLTOWN");
  });

  it("keeps a doubtful letter joined to the name by an ampersand, in the row and as a segment of its own", () => {
    const inRow = withDoubtfulWords([[["B & BEST RESTAURANT", 20]], ...TAIL], new Map([["B", 0.3]]));
    assert.equal(merchant(buildLayout(inRow)).name.best?.value, "B & BEST RESTAURANT");
    const apart: ReceiptRow[] = [
      [
        ["M", 20],
        ["& S TRADING", 120],
      ],
      ...TAIL,
    ];
    const alone = withDoubtfulWords(apart, new Map([["M", 0.7]]));
    assert.equal(merchant(buildLayout(alone)).name.best?.value, "M & S TRADING");
  });

  it("still drops a doubtful sign before an ampersand, and the ampersand it leaves at the edge", () => {
    const doc = withDoubtfulWords([[["7% & BEST RESTAURANT", 20]], ...TAIL], new Map([["7%", 0]]));
    assert.equal(merchant(buildLayout(doc)).name.best?.value, "BEST RESTAURANT");
  });

  it("keeps a word OCR read with a colon after it unless it is a label", () => {
    const doc = receipt([[["THE: TOAST F&B SDN BHD", 20]], ...TAIL]);
    assert.equal(merchant(buildLayout(doc)).name.best?.value, "THE: TOAST F&B SDN BHD");
    const labelled = receipt([[["Firma: Muster Handel GmbH", 20]], ...TAIL]);
    assert.equal(merchant(buildLayout(labelled)).name.best?.value, "Muster Handel GmbH");
  });
});
