/**
 * The customer of an invoice: a short section label that ends on a colon ("To:", "Aan:") opens the customer's block
 * even with other labels on its row, and without any label the address window never starts on a line of the
 * sender's own block (its city or country under the street). Documents are generated here, not taken from a corpus.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveFields } from "../../src/catalog/lookup.js";
import type { Document } from "../../src/document/model.js";
import { extract } from "../../src/extract/index.js";
import { textDocument } from "../helpers/receipt-document.js";

type Row = Array<[string, number]>;

function customerField(document: Document, name = "customer.name"): string | null {
  const field = extract(document, resolveFields({ products: ["invoices"] })).find((f) => f.name === name);
  return typeof field?.value === "string" ? field.value : null;
}

/** A sender block at the top left, `middle` rows under it, then a table and totals, padded to 30 rows. */
function invoice(sender: Row[], middle: Row[]): Document {
  const rows: Row[] = [
    ...sender,
    [],
    ...middle,
    [],
    [
      ["Description", 20],
      ["Qty", 300],
      ["Amount", 480],
    ],
    [
      ["Consulting", 20],
      ["2", 300],
      ["200.00", 480],
    ],
    [],
    [
      ["Total", 300],
      ["200.00", 480],
    ],
  ];
  while (rows.length < 30) rows.push([]);
  return textDocument(rows, 600);
}

const SENDER: Row[] = [
  [
    ["Kingsley Supplies LLP", 20],
    ["Invoice", 480],
  ],
  [["194 Church Lane", 20]],
  [["Manchester", 20]],
  [["LC2 9GG", 20]],
];

describe("customer section labels ending on a colon", () => {
  it("reads the block under 'To:' sharing its row with another label", () => {
    const document = invoice(SENDER, [
      [
        ["To:", 20],
        ["Invoice No.", 280],
      ],
      [
        ["Redbrick Logistics LLP", 20],
        ["2021-14398", 280],
      ],
      [
        ["86 Church Lane", 20],
        ["Invoice date:", 280],
      ],
      [
        ["Leeds", 20],
        ["10/2/2021", 280],
      ],
      [
        ["HF15 5GE", 20],
        ["Due", 280],
      ],
      [["20/2/2021", 280]],
    ]);
    assert.equal(customerField(document), "Redbrick Logistics LLP");
    assert.equal(customerField(document, "customer.address"), "86 Church Lane, Leeds, HF15 5GE");
  });

  it("reads the Dutch 'Aan:' as a customer label, not as the customer's name", () => {
    const got = customerField(
      invoice(SENDER, [
        [
          ["Aan:", 20],
          ["Datum factuur: 07/08/2025", 380],
        ],
        [["Daan Bakker", 20]],
        [["Dorpsstraat 101", 20]],
        [["1853 VI Rotterdam", 20]],
      ]),
    );
    assert.equal(got, "Daan Bakker");
  });
});

describe("the address window without a label", () => {
  it("does not start on the sender's city line", () => {
    const got = customerField(
      invoice(SENDER, [
        [
          ["Oakwood Digital PLC", 20],
          ["Invoice no: INV-2023-95869", 380],
        ],
        [["4 Victoria Road", 20]],
        [["Bristol", 20]],
        [["RY6 4EO", 20]],
      ]),
    );
    assert.equal(got, "Oakwood Digital PLC");
  });
});
