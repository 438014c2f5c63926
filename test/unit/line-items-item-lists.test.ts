/**
 * Invoices that list their items without a table header (issue #18): a cloud bill's detail under its summary, a
 * payment receipt's summary card. The list is taken only where its amounts add up to the printed subtotal, total,
 * total less tax, or an amount printed under a summary label (the charges before a bill's credits), and a summary's
 * own lines ("Charges", "Credits", "Amount charged") are never items. Pages are real text-layer PDFs drawn here, read
 * by ingest.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { extractLineItems } from "../../src/extract/line-items/index.js";
import { localeHints } from "../../src/extract/normalise/locale.js";
import { type PlacedLine, placedTextDocument } from "../helpers/pdf-fixtures.js";

async function tableOf(lines: readonly PlacedLine[], sums: { subtotal?: string; total?: string; tax?: string }) {
  const table = extractLineItems(await placedTextDocument(lines), {
    locale: localeHints("en-GB"),
    kind: "invoice",
    ...sums,
  });
  return (table?.rows ?? []).map((r) => [r.description, r.quantity, r.amount]);
}

/** A cloud bill: a summary of charges, tax and total, then the detail of the charges. */
const cloudBill: PlacedLine[] = [
  ["Kingsley Engineering LLP", 40, 60, 16],
  ["Invoice number: 7262927413", 330, 100, 9],
  ["Summary", 40, 180, 12],
  ["Charges", 40, 200, 9],
  ["£7,146.59", 480, 200, 9],
  ["Sales tax 20 %", 40, 214, 9],
  ["£1,429.32", 480, 214, 9],
  ["Total for this invoice", 40, 228, 9],
  ["£8,575.91", 480, 228, 9],
  ["Detail", 40, 260, 12],
  ["Team plan (monthly)", 40, 280, 9],
  ["£6,656.16", 480, 280, 9],
  ["16 x £416.01", 40, 291, 7],
  ["Outbound bandwidth", 40, 306, 9],
  ["£490.43", 480, 306, 9],
];

describe("extractLineItems: item lists without a header on invoices", () => {
  it("reads a cloud bill's detail that adds up to its charges, not the summary over it, quantities under items", async () => {
    assert.deepEqual(await tableOf(cloudBill, { subtotal: "7146.59", total: "8575.91" }), [
      ["Team plan (monthly)", "16", "6656.16"],
      ["Outbound bandwidth", null, "490.43"],
    ]);
  });

  it("reads nothing where no list adds up to a printed sum", async () => {
    const unsummed = cloudBill.map((line): PlacedLine => (line[0] === "£7,146.59" ? ["£7,000.00", 480, 200, 9] : line));
    assert.deepEqual(await tableOf(unsummed, { subtotal: "7000.00", total: "8400.00" }), []);
  });

  it("reads a detail that adds up to the charges printed before the credits", async () => {
    const credited: PlacedLine[] = [
      ...cloudBill.slice(0, 5),
      ["Credits", 40, 207, 9],
      ["-£46.59", 480, 207, 9],
      ["Sub-total", 40, 214, 9],
      ["£7,100.00", 480, 214, 9],
      ...cloudBill.slice(5).map(([text, x, top, size]): PlacedLine => [text, x, top + 14, size]),
    ];
    assert.deepEqual(await tableOf(credited, { subtotal: "7100.00", total: "8520.00" }), [
      ["Team plan (monthly)", "16", "6656.16"],
      ["Outbound bandwidth", null, "490.43"],
    ]);
    // One item alone, the whole of the charges.
    const one = credited
      .filter((line) => !/^(Outbound|£490)/.test(line[0]))
      .map((line): PlacedLine => (line[0] === "£7,146.59" ? ["£6,656.16", 480, 200, 9] : line));
    assert.deepEqual(await tableOf(one, { subtotal: "6609.57", total: "7931.48" }), [
      ["Team plan (monthly)", "16", "6656.16"],
    ]);
  });

  it("reads a payment receipt's summary, quantities after the item, to the total less tax", async () => {
    const rows = await tableOf(
      [
        ["Receipt from Redbrick Print Ltd", 150, 60, 16],
        ["Summary", 60, 150, 9],
        ["Enterprise add-on × 21", 60, 170, 9],
        ["£882.00", 480, 170, 9],
        ["Pro plan", 60, 184, 9],
        ["£75.77", 480, 184, 9],
        ["Sales tax 20 %", 60, 198, 9],
        ["£191.55", 480, 198, 9],
        ["Total", 60, 212, 9],
        ["£1,149.32", 480, 212, 9],
        ["Amount charged", 60, 226, 9],
        ["£1,149.32", 480, 226, 9],
      ],
      { total: "1149.32", tax: "191.55" },
    );
    assert.deepEqual(rows, [
      ["Enterprise add-on", "21", "882.00"],
      ["Pro plan", null, "75.77"],
    ]);
  });
});

describe("extractLineItems: the sum check of a table printed with its summary", () => {
  async function checkOf(lines: readonly PlacedLine[], sums: { subtotal?: string; total?: string; tax?: string }) {
    const table = extractLineItems(await placedTextDocument(lines), { locale: localeHints("en-GB"), ...sums });
    return table?.checks.sumCheck ?? null;
  }

  const table: PlacedLine[] = [
    ["Description", 40, 200, 9],
    ["Qty", 330, 200, 9],
    ["Amount", 480, 200, 9],
    ["Cloud server", 40, 216, 9],
    ["1", 335, 216, 9],
    ["£60.00", 480, 216, 9],
    ["Backup storage", 40, 230, 9],
    ["1", 335, 230, 9],
    ["£40.00", 480, 230, 9],
  ];

  it("closes against the total less tax where no subtotal is printed", async () => {
    const check = await checkOf(
      [...table, ["VAT 20 %", 330, 260, 9], ["£20.00", 480, 260, 9], ["Total", 330, 274, 9], ["£120.00", 480, 274, 9]],
      {
        total: "120.00",
        tax: "20.00",
      },
    );
    assert.deepEqual(check, { against: "total less tax", closes: true, expected: "100.00", found: "100.00" });
  });

  it("closes against the subtotal with the discount printed under it added back", async () => {
    const summary: PlacedLine[] = [
      ["Discount (SAVE10)", 330, 260, 9],
      ["-£10.00", 480, 260, 9],
      ["Subtotal", 330, 274, 9],
      ["£90.00", 480, 274, 9],
    ];
    const check = await checkOf([...table, ...summary], { subtotal: "90.00", total: "108.00", tax: "18.00" });
    assert.equal(check?.closes, true);
    assert.equal(check?.expected, "100.00");
  });

  it("still reports rows that add up to no printed amount", async () => {
    const check = await checkOf([...table, ["Subtotal", 330, 260, 9], ["£95.00", 480, 260, 9]], {
      subtotal: "95.00",
      total: "114.00",
      tax: "19.00",
    });
    assert.deepEqual(check, { against: "subtotal", closes: false, expected: "95.00", found: "100.00" });
  });
});
