/**
 * Day-first or month-first when every numeric date of a document could be either: a period's two dates are read in
 * the order that makes it a period, and dotted dates are day-first, whatever the currency suggests.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { inferLocale } from "../../src/extract/locale-infer.js";

const order = (text: string) => {
  const { hints, orderSource } = inferLocale({}, text, "en");
  return { order: hints.dateOrder, source: orderSource };
};

describe("date order of a document without an unambiguous date", () => {
  it("reads a billing period month-first when day-first would end it before it starts", () => {
    const text =
      "Receipt 6694-4443\nDate paid 06/03/2022\nBusiness plan (annual) $27.00\n05/03/2022 - 06/02/2022\nVAT $0.00";
    assert.deepEqual(order(text), { order: "MDY", source: "document" });
  });

  it("reads a period day-first when month-first would end it before it starts, dollars or not", () => {
    const text = "Invoice 1042\nIssue date 09/07/2024\nService period 08/06/2024 to 07/07/2024\nTotal $1,743.98";
    assert.deepEqual(order(text), { order: "DMY", source: "document" });
  });

  it("takes no side on a period either order makes one", () => {
    const text = "Invoice 1042\nService period 01/02/2024 - 03/04/2024\nTotal $120.00";
    assert.deepEqual(order(text), { order: "MDY", source: "guess" });
  });

  it("guesses day-first for dotted dates on a page in dollars", () => {
    assert.deepEqual(order("Date paid 08.06.2022\n$1,603.75 paid on 08.06.2022"), { order: "DMY", source: "guess" });
  });
});
