import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document, Line, Word } from "../../src/document/model.js";
import { amountCandidates, dateCandidates, labelsOf } from "../../src/extract/candidates.js";
import type { SpanLabels } from "../../src/extract/context.js";
import { correctLabelWord } from "../../src/extract/labels.js";
import { buildLayout, type Layout } from "../../src/extract/layout.js";

/**
 * One row of a scanned receipt: [text, confidence] words, 8 px per character, one space apart, on a single Line.
 * Confidence below 0.9 is how OCR says it doubted a word.
 */
function row(cells: Array<[string, number]>): Layout {
  const width = 400;
  const height = 60;
  const words: Word[] = [];
  let cursor = 20;
  for (const [text, confidence] of cells) {
    const w = text.length * 8;
    words.push({
      id: words.length,
      text,
      box: { x0: cursor / width, y0: 20 / height, x1: (cursor + w) / width, y1: 32 / height },
      source: "ocr",
      confidence,
    });
    cursor += w + 8;
  }
  const line: Line = {
    wordIds: words.map((w) => w.id),
    box: { x0: 20 / width, y0: 20 / height, x1: cursor / width, y1: 32 / height },
  };
  const doc: Document = { type: "jpeg", pages: [{ pageNum: 1, width, height, source: "ocr", words, lines: [line] }] };
  return buildLayout(doc);
}

const HINTS = {};

/** Roles of the nearest left label of the amount or date printed as `value`. */
function leftRoles(layout: Layout, value: string, kind: "amount" | "date"): string[] {
  const found = kind === "amount" ? amountCandidates(layout, HINTS) : dateCandidates(layout, HINTS);
  const candidate = found.find((c) => c.text === value);
  assert.ok(candidate, `no ${kind} candidate ${value}`);
  const labels: SpanLabels = labelsOf(layout, candidate);
  return labels.left?.roles.map((r) => r.role) ?? [];
}

describe("OCR-damaged qualifier words", () => {
  it("reads 'Total Sales (Imclusive GST)' as a total, not as the tax word", () => {
    const layout = row([
      ["Total", 0.95],
      ["Sales", 0.95],
      ["(Imclusive", 0.6],
      ["GST)", 0.95],
      ["177.20", 0.95],
    ]);
    const roles = leftRoles(layout, "177.20", "amount");
    assert.ok(roles.includes("total"), roles.join());
    assert.ok(!roles.includes("tax"), roles.join());
  });

  it("reads a qualifier OCR glued to the label word before it ('Sales(Incl.') apart from it", () => {
    const layout = row([
      ["Total", 0.95],
      ["Sales(Incl.", 0.76],
      ["GST", 0.95],
      ["6%)", 0.95],
      ["64.13", 0.95],
    ]);
    const roles = leftRoles(layout, "64.13", "amount");
    assert.ok(roles.includes("total"), roles.join());
    assert.ok(!roles.includes("tax"), roles.join());
  });

  it("reads damaged qualifier words that are no label word themselves ('inkIusive')", () => {
    const layout = row([
      ["Summe", 0.95],
      ["(inkIusive", 0.6],
      ["MwSt)", 0.95],
      ["12,00", 0.95],
    ]);
    const roles = leftRoles(layout, "12,00", "amount");
    assert.ok(roles.includes("total"), roles.join());
  });

  it("turns a damaged exclusive qualifier into a subtotal", () => {
    const layout = row([
      ["Total", 0.95],
      ["(Exc1uding", 0.6],
      ["VAT)", 0.95],
      ["95.17", 0.95],
    ]);
    assert.deepEqual(leftRoles(layout, "95.17", "amount").includes("subtotal"), true);
  });

  it("leaves a confidently read unknown qualifier alone: the tax word labels the amount", () => {
    const layout = row([
      ["Total", 0.95],
      ["(Imclusive", 0.97],
      ["GST)", 0.95],
      ["5.00", 0.95],
    ]);
    assert.ok(leftRoles(layout, "5.00", "amount").includes("tax"));
  });

  it("keeps the qualifier's tax word as the label when no head label precedes it", () => {
    const layout = row([
      ["inkl.", 0.95],
      ["MwSt", 0.95],
      ["4,94", 0.95],
    ]);
    assert.ok(leftRoles(layout, "4,94", "amount").includes("tax"));
  });
});

describe("four-letter date labels", () => {
  it("corrects one wrong letter only beside a date", () => {
    assert.equal(correctLabelWord("cate", true), "date");
    assert.equal(correctLabelWord("hate", true), "date");
    assert.equal(correctLabelWord("hate"), "hate");
    assert.equal(correctLabelWord("mate"), "mate");
    // Labels are never corrected, and two wrong letters are too many.
    assert.equal(correctLabelWord("data", true), "data");
    assert.equal(correctLabelWord("cash", true), "cash");
    assert.equal(correctLabelWord("hats", true), "hats");
  });

  it("reads a doubted 'Cate:' as the date label even after a nearer-printed 'Doc No'", () => {
    const layout = row([
      ["Doc", 0.95],
      ["No", 0.95],
      ["CS00183546", 0.95],
      ["Cate:", 0.5],
      ["02/02/2018", 0.95],
    ]);
    assert.deepEqual(leftRoles(layout, "02/02/2018", "date"), ["genericDate"]);
  });

  it("does not read 'Rate' beside a percentage or amount as a date label", () => {
    const layout = row([
      ["Tax", 0.95],
      ["Rate:", 0.5],
      ["6.00", 0.95],
    ]);
    assert.ok(!leftRoles(layout, "6.00", "amount").includes("genericDate"));
  });

  it("keeps a confidently read 'Mate:' as printed", () => {
    const layout = row([
      ["Mate:", 0.97],
      ["02/02/2018", 0.95],
    ]);
    assert.deepEqual(leftRoles(layout, "02/02/2018", "date"), []);
  });
});

describe("date candidates", () => {
  it("carry the repaired flag of the date normaliser", () => {
    const layout = row([
      ["Date:", 0.95],
      ["61/03/18", 0.7],
      ["12/03/2018", 0.95],
    ]);
    const found = dateCandidates(layout, HINTS);
    assert.equal(found.find((c) => c.text === "61/03/18")?.repaired, true);
    assert.equal(found.find((c) => c.text === "12/03/2018")?.repaired, false);
  });

  it("strip a glued label behind bracket noise", () => {
    const found = dateCandidates(row([["[ate:09/02/17", 0.6]]), { dateOrder: "DMY" });
    assert.deepEqual(
      found.map((c) => c.iso),
      ["2017-02-09"],
    );
  });
});
