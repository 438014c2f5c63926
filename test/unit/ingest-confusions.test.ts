import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { repairConfusions } from "../../src/ingest/ocr/confusions.js";

describe("repairConfusions", () => {
  it("maps a digit inside a lower-case word back to the letter", () => {
    assert.equal(repairConfusions("ba1ance"), "balance");
    assert.equal(repairConfusions("Se5sion"), "Session");
    assert.equal(repairConfusions("c0ffee"), "coffee");
    assert.equal(repairConfusions("ca$h"), "cash");
    assert.equal(repairConfusions("popu|ar"), "popular");
    assert.equal(repairConfusions("PR|CE"), "PRICE");
    assert.equal(repairConfusions("popular|,"), "popularl,");
    assert.equal(repairConfusions("Tota}"), "Total");
    assert.equal(repairConfusions("(ho1d)."), "(hold).");
  });

  it("maps letters among digits back to digits in amounts, dates and times", () => {
    assert.equal(repairConfusions("2B.74"), "28.74");
    assert.equal(repairConfusions("1O.5O"), "10.50");
    assert.equal(repairConfusions("2O18-03-3O"), "2018-03-30");
    assert.equal(repairConfusions("l2:3O"), "12:30");
    assert.equal(repairConfusions("12/O5/2019,"), "12/05/2019,");
  });

  it("repairs an amount glued to its currency, only when the rest becomes an amount", () => {
    assert.equal(repairConfusions("RMO.00"), "RM0.00");
    assert.equal(repairConfusions("RMIS.98"), "RM15.98");
    assert.equal(repairConfusions("$S.25"), "$5.25");
    assert.equal(repairConfusions("RMB"), "RMB");
    assert.equal(repairConfusions("RMS"), "RMS");
    assert.equal(repairConfusions("ABCD.00"), "ABCD.00");
    assert.equal(repairConfusions("NO.49,"), "NO.49,");
    assert.equal(repairConfusions("S$O.50"), "S$0.50");
  });

  it("maps letters between digits, and zero look-alikes next to digits, in other numbers", () => {
    assert.equal(repairConfusions("52l00"), "52100");
    assert.equal(repairConfusions("5220@"), "52200");
    assert.equal(repairConfusions("O3-7728"), "03-7728");
    assert.equal(repairConfusions("52oo0"), "52000");
    assert.equal(repairConfusions("1OO-2"), "1OO-2");
  });

  it("reads a capital I second in a capitalised word as a small l", () => {
    assert.equal(repairConfusions("JIn"), "Jln");
    assert.equal(repairConfusions("BIk,"), "Blk,");
    for (const w of ["JIN", "Jin", "AI", "iPhone"]) assert.equal(repairConfusions(w), w);
  });

  it("gives a Latin word Latin letters for Greek and Cyrillic look-alikes, and leaves Greek or Cyrillic words alone", () => {
    assert.equal(repairConfusions("heiβe"), "heiße");
    assert.equal(repairConfusions("B\u043ex"), "Box");
    assert.equal(repairConfusions("\u039cwSt"), "MwSt");
    assert.equal(repairConfusions("Straβe,"), "Straße,");
    for (const w of ["βήτα", "\u0421\u0443\u043c\u043c\u0430", "μ", "ΣΥΝΟΛΟ"]) assert.equal(repairConfusions(w), w);
  });

  it("gives the number sign back its raised o when OCR read it as a 2", () => {
    assert.equal(repairConfusions("N2"), "Nº");
    assert.equal(repairConfusions("n.2"), "n.º");
    assert.equal(repairConfusions("N.2"), "N.º");
    assert.equal(repairConfusions("N22"), "N22");
    assert.equal(repairConfusions("M2"), "M2");
  });

  it("leaves ids, quantities, unit numbers and plain words alone", () => {
    for (const w of [
      "862725-U",
      "A1B2",
      "KLIA2",
      "SHO1",
      "3PCS",
      "1OKG",
      "15/4B",
      "1851-B",
      "38S",
      "31G",
      "NO.1",
      "BO26",
      "BB21-41-61",
      "@17.90",
      "GST}",
      "EC1A",
      "DEUTDEM8HAM",
      "SE5SION",
    ]) {
      assert.equal(repairConfusions(w), w);
    }
    for (const w of ["SELANGOR", "12.50", "2019-01-11", "RM", "|", "a@b.com", "5%", "x2"]) {
      assert.equal(repairConfusions(w), w);
    }
  });
});
